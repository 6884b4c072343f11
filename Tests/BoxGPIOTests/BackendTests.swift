@testable import BoxGPIO
import Foundation
import Testing

/// The real libgpiod of this build, whichever it is: LibgpiodDriver on libgpiod 1.6 (Debian 12,
/// this machine), LibgpiodV2Driver on libgpiod 2 (Debian 13 trixie: scripts/trixie-test). These
/// run without a GPIO chip; the real kernel's edges are the virtual box's (scripts/vbox-test).
@Suite struct BackendTests {
    /// pkg-config's libgpiod version, or nil without pkg-config or libgpiod's .pc file.
    static func installedLibgpiod() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--modversion", "libgpiod"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theBuildUsesTheInstalledLibgpiodsAPI() throws {
        let version = try #require(Self.installedLibgpiod(), "pkg-config finds no libgpiod")
        // scripts/trixie-test reads this line to know which driver its tests ran on.
        print("libgpiod backend: \(LibgpiodAPI.built.rawValue) (pkg-config libgpiod \(version))")
        let major = Int(version.prefix { $0.isNumber }) ?? 0
        #expect(LibgpiodAPI.built == (major >= 2 ? .v2 : .v1))
        #if os(Linux)
        let driver = String(describing: type(of: systemDriver()))
        #expect(driver == (LibgpiodAPI.built == .v2 ? "LibgpiodV2Driver" : "LibgpiodDriver"))
        #endif
    }

    @Test func aMissingChipIsAnOpenFailure() {
        let missing = ChipInfo(path: "/dev/gpiochip-absent", name: "gpiochip-absent", label: "", lineCount: 4)
        #expect(throws: GPIOError.openFailed(path: "/dev/gpiochip-absent", errno: ENOENT)) {
            _ = try systemDriver().open(missing)
        }
    }

    @Test func aDeviceThatIsNoChipIsAnOpenFailure() {
        // /dev/null opens, but libgpiod (either API) checks it is a GPIO character device.
        let null = ChipInfo(path: "/dev/null", name: "null", label: "", lineCount: 4)
        let error = #expect(throws: GPIOError.self) { _ = try systemDriver().open(null) }
        guard case .openFailed(let path, let code) = error else {
            Issue.record("expected openFailed, got \(String(describing: error))")
            return
        }
        #expect(path == "/dev/null")
        #expect(code != 0)
        #expect(error?.description.hasPrefix("cannot open GPIO chip /dev/null: ") == true)
    }

    @Test func theRealDriverListsNoChipHere() {
        // Without /dev/gpiochip* (this machine, the trixie root) the list is empty, not a crash.
        if !GPIOChipLocator.anyChipPresent() {
            #expect(systemDriver().chips().isEmpty)
        }
    }
}
