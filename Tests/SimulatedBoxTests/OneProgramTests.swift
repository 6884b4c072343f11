import Foundation
import Testing
import TestSupport

/// The package ships one program, dosetap-box, with boxd, boxctl and boxd-mqtt as links to it
/// (#34). Each name must run its own program, options and all, and a child that boxd or the
/// bridge starts of itself (the config's parse, `--vet-config-stdin`) must come back as the same
/// program. These run the built dosetap-box through links named as the package names them.
@Suite struct OneProgramTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("one-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let program = BoxRig.buildDir.appendingPathComponent("dosetap-box")
        #expect(FileManager.default.isExecutableFile(atPath: program.path), "build dosetap-box first (swift build --build-tests)")
        for name in ["boxd", "boxctl", "boxd-mqtt"] {
            try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent(name), withDestinationURL: program)
        }
    }

    func run(_ name: String, _ args: [String]) throws -> ChildProcess {
        try ChildProcess.run(dir.appendingPathComponent(name), args)
    }

    @Test func eachNameRunsItsOwnProgram() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let boxctl = try run("boxctl", ["--help"])
        #expect(boxctl.exit == 0 && boxctl.out.contains("Talk to the DoseTap Box (boxd).") && boxctl.out.contains("status"), "\(boxctl)")
        let boxd = try run("boxd", ["--help"])
        #expect(boxd.exit == 0 && boxd.out.contains("DoseTap Box: the dose-window service.") && boxd.out.contains("--check-config"), "\(boxd)")
        let bridge = try run("boxd-mqtt", ["--help"])
        #expect(bridge.exit == 0 && bridge.out.contains("publish the night's events to an MQTT broker"), "\(bridge)")
        // boxctl's own contract survives the move: a usage error exits 2, not ArgumentParser's 64.
        let usage = try run("boxctl", ["take", "--no-such-option"])
        #expect(usage.exit == 2, "\(usage)")
    }

    /// boxd checks a config file in a child, itself run again through /proc/self/exe: that child
    /// must be boxd too. A file that kills the TOML parser shows it: the child died of it
    /// (signal 6) rather than exiting 2 as a dosetap-box that did not know its name. (The shape is
    /// one the fuzzer found that TOMLPrecheck does not name, as in TOMLIsolationTests.)
    @Test func theConfigChildIsTheSameProgram() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.toml")
        try Data(#"e=5"""--A--= 3]]"#.utf8).write(to: bad)
        let boxd = try run("boxd", ["--check-config", "--config", bad.path])
        #expect(boxd.exit == 2 && boxd.err.contains("not valid TOML: the TOML parser gave up on this file (signal 6)"), "\(boxd)")

        let good = dir.appendingPathComponent("boxd.toml")
        try Data("[box]\ntime_zone = \"America/New_York\"\n".utf8).write(to: good)
        let checked = try run("boxd", ["--check-config", "--config", good.path])
        #expect(checked.exit == 0 && checked.out.hasPrefix("config ok: \(good.path)"), "\(checked)")
        // The bridge reads the same file through its own child; with [mqtt] off it has nothing to do.
        let bridge = try run("boxd-mqtt", ["--config", good.path, "--state-dir", dir.path])
        #expect(bridge.exit == 0 && bridge.out.contains("the caregiver link is off"), "\(bridge)")
    }

    @Test func underAnotherNameItSaysWhichNamesItHas() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let other = dir.appendingPathComponent("boxd.old")
        try FileManager.default.createSymbolicLink(at: other, withDestinationURL: BoxRig.buildDir.appendingPathComponent("dosetap-box"))
        let r = try ChildProcess.run(other, ["status"])
        #expect(r.exit == 2 && r.err == "dosetap-box: run me as boxd, boxctl or boxd-mqtt (a link of that name), not as boxd.old\n", "\(r)")
    }
}
