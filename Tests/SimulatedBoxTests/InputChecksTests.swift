import Foundation
import Testing
import TestSupport

/// Bad input to the real binaries: `boxd --check-config` refuses nonsense with one line
/// naming the key; `boxctl sim` takes negative durations and refuses what it does not
/// understand (exit 2, never a help page with exit 0); `boxctl export` checks dates and
/// its output directory (exit 2 and 7); `history` on an empty log says so and nothing else.
@Suite(.serialized) struct InputChecksTests {
    /// Runs a built binary with exactly these arguments.
    static func run(_ exe: URL, _ args: [String]) throws -> BoxRig.Result {
        let r = try ChildProcess.run(exe, args)
        return BoxRig.Result(exit: r.exit, out: r.out, err: r.err)
    }

    static func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inputs-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func checkConfig(_ toml: String) throws -> BoxRig.Result {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("boxd.toml")
        try Data(toml.utf8).write(to: file)
        return try run(BoxRig.boxd, ["--check-config", "--config", file.path])
    }

    /// The first start on a state directory that does not exist yet vets the config in a child
    /// (a fork of boxd) and keeps the note of it (`config-vetted`), so the next start, a
    /// reboot's, needs no child.
    @Test func theFirstStartKeepsTheNoteOfItsVettedConfig() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("boxd.toml")
        try Data("[box]\ntime_zone = \"America/New_York\"\n".utf8).write(to: file)
        let rig = try BoxRig(args: ["--config", file.path], stateSubdirectory: "state")
        defer { rig.cleanup() }
        try FileManager.default.removeItem(at: rig.stateDir)
        try rig.launch()
        let note = rig.stateDir.appendingPathComponent("config-vetted")
        let first = try String(contentsOf: note, encoding: .utf8)
        #expect(first.hasPrefix("vetted by "))
        // boxd is one thread until the config is vetted: its child is a fork, not a new process,
        // and it asked espeak-ng for the voice's language (the default's "en").
        #expect(first.hasSuffix(" (fork, voice)\n"), "\(first)")
        _ = rig.terminate()
        try rig.launch()
        #expect(try String(contentsOf: note, encoding: .utf8) == first)
    }

    /// espeak-ng (its library and the 30-odd it loads, some 5 MB) is not in boxd until boxd
    /// speaks: the vetting child asked it for the language, and a restart reads the child's note.
    @Test func espeakLoadsWithTheFirstSentenceNotAtTheStart() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("boxd.toml")
        try Data("[voice]\nlanguage = \"en-us\"\n".utf8).write(to: config)
        let rig = try BoxRig(args: ["--config", config.path], stateSubdirectory: "state")
        defer { rig.cleanup() }
        func espeakMapped() throws -> Bool {
            let pid = try #require(rig.process?.processIdentifier)
            let file = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"))
            let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
            try #require(maps.contains("[stack]"), "the maps were read")
            return maps.contains("libespeak-ng")
        }
        for start in 1...2 { // a new box (the child asks), then a restart (its note says)
            try rig.launch()
            #expect(try !espeakMapped(), "start \(start)")
            let said = try rig.boxctl(["say-status"])
            #expect(said.exit == 0, "\(said.err)")
            #expect(try espeakMapped(), "start \(start)")
            _ = rig.terminate()
        }
    }

    // MARK: - boxd --check-config

    @Test(arguments: [
        ("[audio]\nvolume = 0", "audio.volume: 0 must be above 0 and at most 1"),
        ("[audio]\nvolume = -0.5", "audio.volume: -0.5 must be above 0"),
        ("[box]\nring_seconds = 5.5", "box.ring_seconds: must be a whole number of seconds (10 to 600)"),
        ("[box]\nring_seconds = 60.7", "box.ring_seconds: must be a whole number of seconds (10 to 600)"),
        ("[box]\nring_seconds = 5", "box.ring_seconds: 5 must be between 10 and 600 seconds"),
        ("[box]\nring_seconds = 601", "box.ring_seconds: 601 must be between 10 and 600 seconds"),
        ("[box]\nundo_seconds = 5.5", "box.undo_seconds: must be a whole number of seconds (3, 5, 7, 10)"),
        ("[box]\nundo_seconds = 6", "box.undo_seconds: 6 is not one of 3, 5, 7, 10"),
        ("[gpio]\nchip = \"\"", "gpio.chip: must not be empty"),
        ("[gpio]\nchip = \"  \"", "gpio.chip: must not be empty"),
        ("[buttons.dose]\nline = 4294967297", "buttons.dose.line: 4294967297 is not a line number (0 to 65535)"),
        ("[buttons.dose]\nline = -1", "buttons.dose.line: -1 is not a line number (0 to 65535)"),
        ("[led]\nline = -3", "led.line: -3 is not a line number (0 to 65535)"),
        ("[led]\nred = 22\ngreen = 23\nblue = 65536", "led.blue: 65536 is not a line number (0 to 65535)"),
        ("[buttons.dose]\nline = 17\ndouble = \"take\"", "buttons.dose.double: \"take\" is not allowed for the double gesture"),
        ("[buttons.dose]\nline = 17\nhold = \"take\"", "buttons.dose.hold: \"take\" is not allowed for the hold gesture"),
        ("[buttons.dose]\nline = 17\nsingle = \"snooze\"", "buttons.dose.single: \"snooze\" is not allowed for the single gesture"),
        ("[buttons.dose]\nline = 17\ndouble = \"undo_or_status\"", "buttons.dose.double: \"undo_or_status\" is not allowed"),
        ("[buttons.dose]\nline = 17\nhold = \"snooze\"", "buttons.dose.hold: \"snooze\" is not allowed"),
        ("[buttons.dose]\nline = 22", "led.red: line 22 is already used by buttons.dose.line (led.red comes from the embedded default; add your own [led] section)"),
        // Issue 29: a TLS file that is not there was "Config ok".
        ("[mqtt]\nenabled = true\nhost = \"hub\"\ntls_ca = \"/nonexistent/ca.crt\"", "mqtt.tls_ca: cannot read /nonexistent/ca.crt: no such file"),
        // Found by FuzzConfig at stop 23: toml++ aborts on it and the precheck does not know the
        // shape; the parser dies in boxd's child (TOMLIsolation) and boxd says so in one line.
        ("e=5\"\"\"--A--= 3]]", "boxd.toml: not valid TOML: the TOML parser gave up on this file (signal 6) without naming a line"),
        // Asked of espeak-ng in the vetting child, worded by boxd as ever.
        ("[voice]\nlanguage = \"klingon\"", "voice.language: espeak-ng has no voice named \"klingon\" (espeak-ng --voices lists them)"),
    ])
    func checkConfigRefusesWithOneLineNamingTheKey(toml: String, message: String) throws {
        let r = try Self.checkConfig(toml)
        #expect(r.exit == 2, "\(toml): \(r.out)")
        #expect(r.err.contains(message), "\(toml): \(r.err)")
        #expect(r.err.split(separator: "\n").count == 1, "one line: \(r.err)")
    }

    @Test func allowedGesturesPass() throws {
        let r = try Self.checkConfig("""
        [buttons.dose]
        line = 17
        single = "take"
        double = "nothing"
        hold = "bathroom"
        [buttons.events]
        line = 27
        single = "undo_or_status"
        double = "water"
        hold = "undo_or_status"
        """)
        #expect(r.exit == 0, "\(r.err)")
    }

    @Test func aFileWithOnlyBoxUsesTheDefaultSections() throws {
        let r = try Self.checkConfig("[box]\ntarget_minutes = 180\nring_seconds = 90\n")
        #expect(r.exit == 0, "\(r.err)")
        #expect(r.out.contains("config ok"))
        #expect(r.out.contains("(1 button(s))"))
        // The default's voice, asked of espeak-ng (by the vetting child).
        #expect(r.out.contains("; espeak-ng has the voice \"en\""), "\(r.out)")
        #expect(try Self.checkConfig("[voice]\nenabled = false\n").out.hasSuffix("; the voice is off\n"))

        // And the box runs with them: the dose button and its gestures come from the default.
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("boxd.toml")
        try Data("[box]\ntarget_minutes = 180\n".utf8).write(to: file)
        let rig = try BoxRig(args: ["--config", file.path])
        defer { rig.cleanup() }
        try rig.launch()
        let show = try rig.boxctl(["config", "show"])
        #expect(show.exit == 0, "\(show.err)")
        #expect(show.out.contains("box.target_minutes = 180    (\(file.path))"))
        #expect(show.out.contains("buttons.dose.single = take    (default)"))
        #expect(show.out.contains("buttons.dose.line = 17    (default)"))
        #expect(show.out.contains("led.red = 22    (default)"))
        // Issue 29: keys the file does not set were put down to it.
        #expect(show.out.contains("voice.volume = 0.8    (default, as audio.volume)"), "\(show.out)")
        #expect(show.out.contains("mqtt.enabled = false    (default)"), "\(show.out)")
        #expect(show.out.components(separatedBy: "(\(file.path))").count == 2, "only box.target_minutes is the file's: \(show.out)")
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        #expect(try rig.statusJSON()["dose1_at"] is String)
    }

    /// boxd started (not only checked) with a file that kills the parser exits 2 with the one
    /// line, as for any bad config: it is not killed by the parser's abort.
    @Test func aFileThatKillsTheParserStopsTheStartWithOneLine() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("boxd.toml")
        try Data("[box]\ntarget_minutes = 180\ne=5\"\"\"--A--= 3]]\n".utf8).write(to: file)
        let r = try Self.run(BoxRig.boxd, ["--config", file.path, "--hardware", "sim", "--audio", "wav",
                                           "--state-dir", dir.appendingPathComponent("state").path,
                                           "--socket", dir.appendingPathComponent("control.sock").path])
        #expect(r.exit == 2, "\(r.err)")
        #expect(r.err == "\(file.path): not valid TOML: the TOML parser gave up on this file (signal 6) without naming a line; look for a table header, array, inline table or date that is not well formed\n")
    }

    /// Issue 29: boxd-mqtt said "TLS files (…): Invalid function arguments provided. (3)" (libmosquitto's
    /// words) for a CA file that is not there; now the key and the cause, before any connection.
    @Test func theBridgeNamesAMissingTLSFile() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("boxd.toml")
        try Data("[mqtt]\nenabled = true\nhost = \"127.0.0.1\"\ntls_ca = \"/nonexistent/ca.crt\"\n".utf8).write(to: file)
        let r = try Self.run(BoxRig.buildDir.appendingPathComponent("boxd-mqtt"),
                             ["--config", file.path, "--socket", dir.appendingPathComponent("control.sock").path,
                              "--state-dir", dir.appendingPathComponent("state").path])
        #expect(r.exit == 78, "\(r.err)")
        #expect(r.err == "boxd-mqtt: mqtt.tls_ca: cannot read /nonexistent/ca.crt: no such file\n")
    }

    @Test func anEmptyFileIsTheDefault() throws {
        let r = try Self.checkConfig("")
        #expect(r.exit == 0, "\(r.err)")
    }

    @Test func aDirectoryIsAPlainError() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Self.run(BoxRig.boxd, ["--check-config", "--config", dir.path])
        #expect(r.exit == 2)
        #expect(r.err == "cannot read config \(dir.path): is a directory\n")
        #expect(!r.err.contains("Error Domain") && !r.err.contains("NSCocoaErrorDomain"))

        let missing = try Self.run(BoxRig.boxd, ["--check-config", "--config", dir.appendingPathComponent("nope.toml").path])
        #expect(missing.exit == 2)
        #expect(missing.err.hasSuffix(": no such file\n"), "\(missing.err)")
        #expect(!missing.err.contains("Error Domain"))
    }

    // MARK: - boxd --clock

    /// Issue 29: a simulated start its clocks cannot hold crashed boxd ("Double value cannot be
    /// converted to Int64"). It is a usage error (exit 64), said before anything starts.
    @Test(arguments: ["0001-01-01T22:00:00Z", "9999-01-01T22:00:00Z", "2262-06-01T22:00:00Z", "1999-12-31T23:59:59Z",
                      "2101-01-01T00:00:00Z"])
    func aSimulatedStartOutsideTheCenturyIsAUsageError(start: String) throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Self.run(BoxRig.boxd, ["--clock", "sim:\(start)", "--hardware", "sim", "--audio", "wav",
                                           "--state-dir", dir.appendingPathComponent("state").path,
                                           "--socket", dir.appendingPathComponent("control.sock").path])
        #expect(r.exit == 64, "\(start): \(r.err)")
        #expect(r.err.contains("--clock sim: the start must be in the years 2000 to 2100, not \(start)"), "\(r.err)")
    }

    @Test(arguments: ["2000-01-01T00:00:00Z", "2100-12-31T22:00:00Z"])
    func aSimulatedStartInTheCenturyIsTaken(start: String) throws {
        let r = try Self.run(BoxRig.boxd, ["--clock", "sim:\(start)", "--check-config"])
        #expect(r.exit == 0, "\(start): \(r.err)")
    }

    // MARK: - boxctl sim

    static func now(_ rig: BoxRig) throws -> Date {
        let text = try #require(try rig.statusJSON()["now"] as? String)
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: text) { return d }
        return try #require(ISO8601DateFormatter().date(from: text), "now: \(text)")
    }

    @Test func negativeClockStepsWorkBeforeAndAfterTheConnectionOptions() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        let start = try Self.now(rig)
        func expectNow(_ minutes: Double, _ comment: Comment) throws {
            #expect(abs(try Self.now(rig).timeIntervalSince(start) - minutes * 60) < 0.01, comment)
        }

        // The options after the step (how BoxRig appends them).
        let back = try rig.boxctl(["sim", "clock-step", "-2h"])
        #expect(back.exit == 0, "\(back.err)")
        #expect(!back.out.contains("USAGE"), "printed help instead of stepping")
        try expectNow(-120, "clock-step -2h")

        // The options before the step.
        let before = try Self.run(BoxRig.boxctl, ["sim", "clock-step", "--socket", rig.socket, "--state-dir", rig.dir.path, "-30m"])
        #expect(before.exit == 0, "\(before.err)")
        try expectNow(-150, "clock-step with the options first")

        // The options before the subcommand.
        let global = try Self.run(BoxRig.boxctl, ["--socket", rig.socket, "sim", "clock-step", "-1h5m"])
        #expect(global.exit == 0, "\(global.err)")
        try expectNow(-215, "boxctl --socket … sim clock-step -1h5m")

        #expect(try rig.boxctl(["sim", "clock-step", "+1h"]).exit == 0)
        try expectNow(-155, "clock-step +1h")

        // advance: forwards only, with the options anywhere.
        let forward = try Self.run(BoxRig.boxctl, ["sim", "advance", "--socket", rig.socket, "10m"])
        #expect(forward.exit == 0, "\(forward.err)")
        try expectNow(-145, "advance 10m")
        let negative = try rig.boxctl(["sim", "advance", "-2h"])
        #expect(negative.exit == 2)
        #expect(negative.err.contains("-2h is negative"), "\(negative.err)")
        try expectNow(-145, "a refused advance moves nothing")
    }

    @Test(arguments: [
        ["sim", "clock-step"],
        ["sim", "clock-step", "-2h", "-1h"],
        ["sim", "clock-step", "-2h", "--bogus"],
        ["sim", "clock-step", "soon"],
        ["sim", "clock-step", "-1.5h"],
        ["sim", "advance", "-1h5m"],
        ["sim", "advance", "-2h"],
        ["sim", "advance", "5m", "--frobnicate"],
        ["sim", "press", "-2h"],
        ["sim", "press", "dose", "-2h"],
        ["sim", "double", "-2h"],
        ["sim", "edges", "dose", "0:down,120:up", "-2h"],
        ["sim", "fault", "-1h"],
        ["sim", "led", "-2h"],
        ["sim", "sounds", "-2h"],
    ])
    func simRefusesWhatItDoesNotUnderstand(args: [String]) throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        // boxd is not even running: the arguments are refused before any connection.
        let r = try rig.boxctl(args)
        #expect(r.exit == 2, "\(args): \(r.out)\(r.err)")
        #expect(!r.out.contains("OVERVIEW"), "\(args) printed help")
        #expect(r.err.contains("Error:"), "\(args): \(r.err)")
    }

    @Test func simHelpIsStillHelp() throws {
        for args in [["sim", "clock-step", "-h"], ["sim", "press", "--help"], ["sim", "advance", "--help"]] {
            let r = try Self.run(BoxRig.boxctl, args)
            #expect(r.exit == 0)
            #expect(r.out.contains("USAGE: boxctl sim"), "\(args)")
        }
    }

    // MARK: - boxctl export and history

    @Test func historyOnAnEmptyLogSaysSoAndNothingElse() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        let r = try rig.boxctl(["history"])
        #expect(r.exit == 0, "\(r.err)")
        #expect(r.out == "No nights recorded yet.\n")
    }

    @Test func exportChecksItsDatesAndItsOutput() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        #expect(try rig.boxctl(["log", "bathroom", "--note", "=HYPERLINK(\"http://evil\",\"x\")"]).exit == 0)
        let out = rig.dir.appendingPathComponent("export")

        for (args, reason) in [
            (["--from", "2026-13-01"], "--from: 2026-13-01 is not a date: there is no month 13"),
            (["--from", "2026-02-30"], "--from: 2026-02-30 is not a date: February 2026 has 28 days"),
            (["--to", "2026-04-31"], "--to: 2026-04-31 is not a date: April 2026 has 30 days"),
            (["--from", "2026-11-30", "--to", "2026-11-01"], "--from 2026-11-30 is after --to 2026-11-01"),
        ] {
            let r = try rig.boxctl(["export", "--out", out.path] + args)
            #expect(r.exit == 2, "\(args): \(r.err)")
            #expect(r.err.contains(reason), "\(args): \(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path), "a refused export writes nothing")

        // An --out that cannot be a directory: exit 7, in plain words.
        let file = rig.dir.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        for (target, reason) in [(file.path, "not a directory"), (file.path + "/sub", "\(file.path) is not a directory")] {
            let r = try rig.boxctl(["export", "--out", target])
            #expect(r.exit == 7, "\(target): \(r.err)")
            #expect(r.err == "export: cannot write to \(target): \(reason)\n", "\(r.err)")
            #expect(!r.err.contains("Error Domain") && !r.err.contains("NSCocoaErrorDomain"))
        }

        // A new directory (with parents) is made; notes that look like formulas are defused.
        let first = try rig.boxctl(["export", "--out", out.appendingPathComponent("nested").path])
        #expect(first.exit == 0, "\(first.err)")
        let exported = out.appendingPathComponent("nested")
        let sleep = try String(contentsOf: exported.appendingPathComponent("box-sleep-events.csv"), encoding: .utf8)
        #expect(sleep.contains(",\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",boxctl"), "\(sleep)")

        // Existing CSV files are kept unless --force.
        let analytics = exported.appendingPathComponent("analytics.csv")
        try Data("the doctor's own edits".utf8).write(to: analytics)
        let again = try rig.boxctl(["export", "--out", exported.path])
        #expect(again.exit == 7)
        #expect(again.err == "export: \(exported.appendingPathComponent("events.csv").path) already exists; add --force to replace it\n", "\(again.err)")
        #expect(try String(contentsOf: analytics, encoding: .utf8) == "the doctor's own edits")
        let forced = try rig.boxctl(["export", "--out", exported.path, "--force"])
        #expect(forced.exit == 0, "\(forced.err)")
        #expect(try String(contentsOf: analytics, encoding: .utf8).hasPrefix("Date,Dose1Time,Dose2Time,Interval,OnTime,NaturalWake\r\n"))
    }
}
