@testable import BoxHardware
import DoseCore
import Foundation
import Synchronization
import Testing

/// The LED as the kernel's pattern trigger plays it: what boxd writes, once per pattern.
@Suite struct KernelPatternTests {
    @Test func theSlowPulseIsAStepPatternTheKernelRepeats() {
        // 150 ms lit, 2850 ms dark; each level held, then a 0 ms step to the next (no fading).
        #expect(KernelPattern.text(.slowPulse, lit: true, brightness: 1, once: false) == "1 150 1 0 0 2850 0 0")
        #expect(KernelPattern.text(.closedBlink, lit: true, brightness: 255, once: false)
                == "255 150 255 0 0 150 0 0 255 150 255 0 0 1550 0 0")
    }

    @Test func steadyAndDarkHoldForAnHour() {
        let on = LEDPattern(name: "on", color: .green, segments: [1], repeats: true)
        #expect(KernelPattern.text(on, lit: true, brightness: 1, once: false) == "1 3600000 1 0")
        #expect(KernelPattern.text(.off, lit: true, brightness: 1, once: false) == "0 3600000 0 0")
        // A die the colour does not use stays dark whatever the rhythm.
        #expect(KernelPattern.text(.urgentBlink, lit: false, brightness: 1, once: false) == "0 3600000 0 0")
    }

    @Test func aOneShotFlashEndsDark() {
        // ack is one 60 ms segment: played once it must not leave the LED lit.
        #expect(KernelPattern.text(.ack, lit: true, brightness: 1, once: true) == "1 60 1 0 0 0 0 0")
        #expect(KernelPattern.text(.refused, lit: true, brightness: 1, once: true) == "1 300 1 0 0 150 0 0 1 300 1 0 0 0 0 0")
        // A flash of an even number of segments already ends dark.
        #expect(KernelPattern.text(.pulse, lit: true, brightness: 1, once: true) == "1 150 1 0 0 850 0 0")
    }

    @Test func anRGBLEDGivesEachDieItsPattern() throws {
        let r = SimulatedLEDClass(name: "dosetap-red"), g = SimulatedLEDClass(name: "dosetap-green")
        let b = SimulatedLEDClass(name: "dosetap-blue", maxBrightness: 255)
        let led = KernelLED(.rgb(red: r, green: g, blue: b))
        try led.play(.confirmEarly, once: false) // amber: red and green
        #expect(r.last == .init(pattern: "1 80 1 0 0 80 0 0 1 80 1 0 0 760 0 0", repeatCount: -1))
        #expect(g.last == r.last)
        #expect(b.last == .init(pattern: "0 3600000 0 0", repeatCount: -1))
        try led.play(.ack, once: true) // white: all three, once
        #expect(b.last == .init(pattern: "255 60 255 0 0 0 0 0", repeatCount: 1))
        try led.write(.off)
        #expect([r, g, b].allSatisfy { $0.last?.pattern == "0 3600000 0 0" })
    }
}

/// The player hands a pattern LED whole patterns: one write per change, none per segment.
@Suite struct PatternPlayerTests {
    @Test func eachPatternIsWrittenOnceAndAFlashGivesWayToThePhase() throws {
        let die = SimulatedLEDClass(name: "dosetap")
        let player = LEDPlayer(output: KernelLED(.single(die)), animate: false)
        player.setBase(.slowPulse)
        player.setBase(.slowPulse) // the same phase again writes nothing
        #expect(die.written.map(\.pattern) == ["1 150 1 0 0 2850 0 0"])
        player.flash(.ack, duration: nil)
        player.flash(.ack, duration: nil) // a second press flashes again
        #expect(die.written.map(\.repeatCount) == [-1, 1, -1, 1, -1])
        #expect(die.last?.pattern == "1 150 1 0 0 2850 0 0") // without real time the flash is over at once
        player.stop()
        #expect(die.last?.pattern == "0 3600000 0 0") // dark when boxd stops, as released lines are
    }
}

/// A device that refuses until it is mended (its files gone, then made again).
final class RefusingLEDClass: LEDClassDevice {
    let name = "dosetap"
    let maxBrightness = 1
    let mended = Mutex(false)
    let inner = SimulatedLEDClass(name: "dosetap")
    func write(pattern: String, repeatCount: Int) throws {
        guard mended.withLock({ $0 }) else { throw LEDClassError("gone") }
        try inner.write(pattern: pattern, repeatCount: repeatCount)
    }
}

@Suite struct RefusedPatternTests {
    /// A refused pattern is not taken as shown: the same pattern is written again (the thread
    /// does so every `retryInterval` while the LED refuses).
    @Test func aRefusedPatternIsWrittenAgain() {
        let die = RefusingLEDClass()
        let player = LEDPlayer(output: KernelLED(.single(die)), animate: false)
        let pulse = LEDPlayer.Playing(pattern: .slowPulse, once: false)
        #expect(!player.play(pulse))
        #expect(die.inner.written.isEmpty)
        die.mended.withLock { $0 = true }
        #expect(player.play(pulse))
        #expect(player.play(pulse)) // shown: nothing to write
        #expect(die.inner.written.count == 1)
    }
}

/// An LED class device in sysfs, on a directory shaped like one.
@Suite struct SysfsLEDClassTests {
    static func device(trigger: String, files: Bool = true) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leds-\(UUID().uuidString)")
        let led = dir.appendingPathComponent("dosetap")
        try FileManager.default.createDirectory(at: led, withIntermediateDirectories: true)
        try trigger.write(to: led.appendingPathComponent("trigger"), atomically: true, encoding: .utf8)
        try "255\n".write(to: led.appendingPathComponent("max_brightness"), atomically: true, encoding: .utf8)
        if files {
            for f in ["pattern", "repeat"] { _ = FileManager.default.createFile(atPath: led.appendingPathComponent(f).path, contents: nil) }
        }
        return dir
    }

    @Test func aPatternAndItsRepeatGoToTheirFiles() throws {
        let root = try Self.device(trigger: "none timer [pattern] heartbeat\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let led = try SysfsLEDClass(name: "dosetap", root: root.path)
        #expect(led.maxBrightness == 255)
        try led.write(pattern: "255 150 255 0 0 2850 0 0", repeatCount: -1)
        let dir = root.appendingPathComponent("dosetap")
        #expect(try String(contentsOf: dir.appendingPathComponent("pattern"), encoding: .utf8) == "255 150 255 0 0 2850 0 0")
        #expect(try String(contentsOf: dir.appendingPathComponent("repeat"), encoding: .utf8) == "-1")
    }

    @Test(arguments: [
        ("[none] timer pattern\n", true, "the LED \"dosetap\" does not run the kernel's pattern trigger (modprobe ledtrig-pattern"),
        ("none [pattern]\n", false, "/dosetap/pattern: No such file or directory"),
    ])
    func anLEDThatCannotPlaySaysWhy(trigger: String, files: Bool, message: String) throws {
        let root = try Self.device(trigger: trigger, files: files)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect { try SysfsLEDClass(name: "dosetap", root: root.path) } throws: { "\($0)".contains(message) }
        #expect { try SysfsLEDClass(name: "dosetap-red", root: root.path) } throws: {
            "\($0)".hasPrefix("no LED class device \"dosetap-red\" in \(root.path) (on a Pi: dtoverlay=gpio-led")
        }
    }
}
