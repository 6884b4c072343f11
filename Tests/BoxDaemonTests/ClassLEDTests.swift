@testable import BoxDaemon
import BoxHardware
import ConfigFile
import DoseCore
import Foundation
import Logging
import Testing

/// The kernel's LED as boxd opens it: a device that is not there at start is opened at a
/// later pattern, once it is.
@Suite struct ClassLEDTests {
    @Test func anLEDThatAppearsLaterIsOpenedThen() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("leds-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let config = try BoxConfig.parse("[led]\nclass = \"dosetap\"", path: "boxd.toml")
        let led = ClassLED(config: config, logger: Logger(label: "test"), root: root.path)
        #expect(throws: LEDClassError.self) { try led.play(.slowPulse, once: false) }
        let dir = root.appendingPathComponent("dosetap")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "none [pattern]\n".write(to: dir.appendingPathComponent("trigger"), atomically: true, encoding: .utf8)
        try "1\n".write(to: dir.appendingPathComponent("max_brightness"), atomically: true, encoding: .utf8)
        for f in ["pattern", "repeat"] { _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(f).path, contents: nil) }
        try led.play(.slowPulse, once: false)
        #expect(try String(contentsOf: dir.appendingPathComponent("pattern"), encoding: .utf8) == "1 150 1 0 0 2850 0 0")
    }
}
