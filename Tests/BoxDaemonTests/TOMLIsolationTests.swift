@testable import BoxDaemon
@testable import ConfigFile
import Foundation
import Testing

/// toml++ aborts the process on some malformed TOML; boxd parses a config file in a child
/// (itself, `--vet-config-stdin`) first, so the abort kills the child and boxd names the file.
/// These run the real boxd binary built next to the tests.
@Suite struct TOMLIsolationTests {
    static let boxd: String = {
        // The test binary lives in .build/<triple>/debug next to boxd (as in SimulatedBoxTests' BoxRig).
        URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("boxd").path
    }()
    static var child: TOMLIsolation { .child(executable: boxd) }

    /// Shapes the fuzzer found that abort toml++ 3.4.0. `vet` is given them directly, past
    /// TOMLPrecheck (which would name their line first), to stand for the shapes nobody has
    /// found yet: the parser dies in the child and the error names the file.
    @Test(arguments: ["[=]\n", "[box]\n[#box]\n", "[[[a]]]", "x = [1, }", "[box]\nring_seconds = 1979-05-27 7#"])
    func aParserThatDiesTakesOnlyTheChild(toml: String) throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.boxd), "build boxd first (swift build --build-tests)")
        do {
            try Self.child.vet(toml, path: "/etc/boxd/boxd.toml")
            Issue.record("the child survived \(toml.debugDescription)")
        } catch {
            #expect(error.key == "")
            #expect(error.description.hasPrefix("/etc/boxd/boxd.toml: not valid TOML: the TOML parser gave up on this file (signal 6)"),
                    "got: \(error.description)")
        }
    }

    /// Found by FuzzConfig after the isolation landed: a shape the precheck does not know.
    /// Through `BoxConfig.parse` as boxd calls it, the child dies and the file is refused.
    @Test func aShapeThePrecheckDoesNotKnowIsRefusedByTheChild() {
        #expect(throws: ConfigError("", "boxd.toml: not valid TOML: the TOML parser gave up on this file (signal 6) without naming a line; look for a table header, array, inline table or date that is not well formed")) {
            _ = try BoxConfig.parse("e=5\"\"\"--A--= 3]]", path: "boxd.toml", isolation: Self.child)
        }
    }

    /// A file the parser reads to the end passes, whether it is a good config or refused with
    /// a line, and the result is the one an in-process parse gives.
    @Test func aFileTheParserReadsIsParsedAsBefore() throws {
        let good = "[box]\ntarget_minutes = 180\n[buttons.main]\nline = 5\n"
        let viaChild = try BoxConfig.parse(good, path: "boxd.toml", isolation: Self.child)
        let here = try BoxConfig.parse(good, path: "boxd.toml", isolation: .inProcess)
        #expect(viaChild.entries.map { "\($0.key)=\($0.value)" } == here.entries.map { "\($0.key)=\($0.value)" })
        #expect(viaChild.targetMinutes == 180)

        let refused = "[box]\ntarget_minutes = = 3\n"
        do {
            _ = try BoxConfig.parse(refused, path: "boxd.toml", isolation: Self.child)
            Issue.record("accepted \(refused.debugDescription)")
        } catch {
            #expect(error.description.hasPrefix("boxd.toml: TOML syntax error at line 2"), "got: \(error.description)")
        }
    }

    /// The shipped example configs go through the child as boxd reads them.
    @Test func theExampleConfigsPassTheChild() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let files = ["hardware/boxd-pi4.toml", "hardware/boxd-pi5.toml", "debian/boxd.toml"].map { dir.appendingPathComponent($0).path }
        for f in files {
            #expect(FileManager.default.fileExists(atPath: f), "\(f) is missing")
            let c = try BoxConfig.load(path: f, isolation: Self.child)
            #expect(c.buttons.contains { $0.map.isDoseButton }, "\(f)")
        }
    }

    /// A known shape is still named with its line (TOMLPrecheck runs before the child).
    @Test func aKnownShapeKeepsItsLine() {
        #expect(throws: ConfigError("", "boxd.toml: TOML syntax error at line 2, column 2: a table name must start with a letter, a digit, _, - or a quote, not '='")) {
            _ = try BoxConfig.parse("[box]\n[=]\n", path: "boxd.toml", isolation: Self.child)
        }
    }

    /// What is not the parser's verdict is said as what it is.
    @Test func aChildThatCannotRunOrFailsIsSaidPlainly() {
        #expect(throws: ConfigError("", "boxd.toml: cannot check the file: cannot start /nonexistent/boxd: no such file or directory")) {
            try TOMLIsolation.child(executable: "/nonexistent/boxd").vet("[box]\n", path: "boxd.toml")
        }
        #expect(throws: ConfigError("", "boxd.toml: cannot check the file: /bin/false --vet-config-stdin exited with status 1")) {
            try TOMLIsolation.child(executable: "/bin/false").vet("[box]\n", path: "boxd.toml")
        }
        // Killed from outside (as by the OOM killer): not the file's fault, and not said to be.
        let killed = FileManager.default.temporaryDirectory.appendingPathComponent("killed-\(UUID().uuidString.prefix(8)).sh")
        // Written through a close-on-exec descriptor: a child another test forks meanwhile must
        // not keep it open for writing, or exec fails with ETXTBSY ("text file busy").
        let fd = open(killed.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        let script = Array("#!/bin/sh\nkill -KILL $$\n".utf8)
        #expect(fd >= 0 && write(fd, script, script.count) == script.count)
        close(fd)
        defer { try? FileManager.default.removeItem(at: killed) }
        #expect(throws: ConfigError("", "boxd.toml: cannot check the file: \(killed.path) --vet-config-stdin was killed by signal 9")) {
            try TOMLIsolation.child(executable: killed.path).vet("[box]\n", path: "boxd.toml")
        }
        let huge = String(repeating: "# a comment line\n", count: 4000)
        #expect(throws: ConfigError("", "boxd.toml: 68000 bytes is too large for a config (at most 65536; a boxd.toml is a few dozen lines)")) {
            try Self.child.vet(huge, path: "boxd.toml")
        }
    }

    /// A restart or a reboot with the same file starts no child: the text a child got through
    /// is noted in the state directory for this program. An edited text, one the child refused,
    /// or a note by another program (an upgrade) is vetted again.
    @Test func aTextVettedOnceIsNotVettedAgainUntilItChanges() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vetted-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let stamp = dir.appendingPathComponent(VettedStamp.fileName).path
        let accepting = TOMLIsolation.remembered(executable: "/bin/true", stamp: stamp)
        let refusing = TOMLIsolation.remembered(executable: "/bin/false", stamp: stamp)
        let refused = ConfigError("", "boxd.toml: cannot check the file: /bin/false --vet-config-stdin exited with status 1")
        let text = "[voice]\nlanguage = \"en-us\"\n"

        #expect(throws: refused) { try refusing.vet(text, path: "boxd.toml") }
        #expect(!FileManager.default.fileExists(atPath: stamp), "a refused text is not noted")
        try accepting.vet(text, path: "boxd.toml")
        try refusing.vet(text, path: "boxd.toml")  // no child: it would have refused
        #expect(throws: refused) { try refusing.vet(text + " ", path: "boxd.toml") }
        #expect(!(try String(contentsOfFile: stamp, encoding: .utf8)).contains("en-us"), "the note keeps no text")

        VettedStamp(text: text, program: "/bin/sh").record(at: stamp)
        #expect(throws: refused) { try refusing.vet(text, path: "boxd.toml") }
    }
}
