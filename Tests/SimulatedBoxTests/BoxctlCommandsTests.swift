import DoseCore
import Foundation
import Testing

/// Every boxctl subcommand against a running boxd in sim mode, through the binary:
/// its happy path, its refusals and its exit codes.
@Suite(.serialized) struct BoxctlCommandsTests {
    @Test func actionsAndTheirRefusals() throws {
        try night("""
        boxctl status
        expect exit 0
        expect output waiting for Dose 1
        boxctl snooze
        expect exit 3
        expect output Please take Dose 1 first.
        boxctl skip
        expect exit 3
        boxctl undo
        expect exit 3
        expect output no dose action to undo
        boxctl take
        expect exit 0
        expect output Dose 1 recorded.
        boxctl undo
        expect exit 0
        expect output Undone: dose1.
        boxctl take
        advance 60m
        boxctl take                          # early
        expect exit 3
        expect output needs confirmation (--confirm)
        boxctl skip --reason drowsy          # before the window
        expect exit 3
        advance 100m
        boxctl snooze
        expect exit 0
        boxctl skip --reason side_effects
        expect exit 0
        expect phase completed
        expect dose dose2_skipped
        boxctl take
        expect exit 3
        expect output Dose 2 was skipped
        boxctl dose extra --confirm          # never after a skip
        expect exit 3
        boxctl log bathroom --note "woke up"
        expect exit 0
        boxctl log bathroom
        expect exit 3
        expect output can be logged again in
        boxctl log sleepwalking
        expect exit 2
        boxctl checkin --quality 9
        expect exit 2
        boxctl checkin --quality 4 --rested well --grogginess none --clarity 8 --mood good --notes ok
        expect exit 0
        expect status terminal_state skipped
        boxctl checkin --quality 4
        expect exit 3
        """)
    }

    /// analytics.csv reads as the patient lived it: the box's time of day (22:00 here, not
    /// 03:00 UTC), with boxd running and, from the zone it saved, with boxd stopped.
    @Test func analyticsIsThePatientsTimeOfDay() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        _ = try rig.boxctl(["sim", "press", "dose"])
        _ = try rig.boxctl(["sim", "advance", "170m"])
        _ = try rig.boxctl(["sim", "press", "dose"])
        func analytics(_ name: String) throws -> String {
            let out = rig.dir.appendingPathComponent(name)
            let r = try rig.boxctl(["export", "--out", out.path])
            guard r.exit == 0 else { throw BoxRig.RigError("export: \(r.err)") }
            return try String(contentsOf: out.appendingPathComponent("analytics.csv"), encoding: .utf8)
        }
        let expected = "Date,Dose1Time,Dose2Time,Interval,OnTime,NaturalWake\r\n2026-11-21,22:00:00,00:50:00,170,true,false\r\n"
        #expect(try analytics("running") == expected)
        #expect(rig.terminate() == 0)
        #expect(try analytics("stopped") == expected)
    }

    @Test func viewingConfigurationAndChecks() throws {
        try night("""
        press dose
        advance 170m
        press dose
        boxctl history --days 7
        expect exit 0
        expect output 22:00   00:50    170 min   yes
        boxctl history --days 0
        expect exit 2
        boxctl export --out EXPORT
        expect exit 0
        expect output analytics.csv
        boxctl export --out EXPORT --from 2026-11-21 --to yesterday
        expect exit 2
        boxctl config show
        expect exit 0
        expect output buttons.dose.single = take    (default)
        boxctl target 200 --confirm
        expect exit 2
        boxctl target 180
        expect exit 3
        expect output Safety rule: Dose 2 must be taken 150–240 minutes after Dose 1
        boxctl target 180 --confirm
        expect exit 0
        boxctl config show
        expect output box.target_minutes = 180
        boxctl doctor
        expect output PASS  audio: ok
        expect output PASS  night log integrity
        boxctl test led green
        expect exit 0
        boxctl test led chartreuse
        expect exit 2
        boxctl test sound success
        expect exit 0
        boxctl sim led
        expect exit 0
        boxctl sim sounds --clear
        expect exit 0
        boxctl sim sounds
        expect exit 0
        boxctl sim press nobody
        expect exit 2
        boxctl sim edges dose "5:down,2:up"
        expect exit 2
        boxctl sim advance soon
        expect exit 2
        boxctl frobnicate
        expect exit 2
        """.replacingOccurrences(of: "EXPORT", with: FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString.prefix(6))").path))
    }

    /// The exit codes are boxctl's, the reply's class is the protocol's: for every class a
    /// command can get, boxctl exits with the number v1's `exit` field carries.
    @Test func boxctlExitsWithTheReplysClass() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        var seen: Set<Int> = []
        for args in [["take"], ["take"], ["skip"], ["log", "bathroom"]] {
            let r = try rig.boxctl(args + ["--json"])
            let wire = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])["exit"] as? Int
            #expect(Int(r.exit) == wire, "\(args): boxctl exited \(r.exit), the reply says \(wire ?? -1)")
            seen.insert(Int(r.exit))
        }
        #expect(seen == [0, 3], "done and refused both seen: \(seen)")
    }

    @Test func unreachableAndUnreadable() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        let down = try rig.boxctl(["take"])
        #expect(down.exit == 4)
        #expect(down.err.contains("boxd is not reachable"))
        // status with no boxd and no log: that boxd is not reachable, and where it looked,
        // comes first; the log second (issue 12).
        let nothing = try rig.boxctl(["status"])
        #expect(nothing.exit == 4)
        #expect(nothing.err.hasPrefix("boxd is not reachable at \(rig.socket)"), "\(nothing.err)")
        #expect(nothing.err.contains("No status from the night log either: there is no night log yet"), "\(nothing.err)")
        try Data("this is not a database, not at all".utf8).write(to: rig.dir.appendingPathComponent("nightlog.sqlite"))
        let unreadable = try rig.boxctl(["history"])
        #expect(unreadable.exit == 5)
        #expect(unreadable.err.contains("night log cannot be read"))
    }

    /// #31: with boxd down, status is what the night log says, and only that: the night's
    /// zone is the one boxd logged it in (not boxctl's own, not a file of boxd's), and the
    /// target is the night's. Without the logged zone this would read the night in UTC.
    @Test func aStatusFromTheLogReadsTheNightInItsOwnZone() throws {
        // boxd's zone is the simulated start's (UTC+9); boxctl's own is the test machine's.
        let rig = try BoxRig(start: "2026-11-21T22:00:00+09:00")
        defer { rig.cleanup() }
        try rig.launch()
        _ = try rig.boxctl(["sim", "press", "dose"])
        let zone = try #require(try rig.statusJSON()["time_zone"] as? String)
        #expect(TimeZone(identifier: zone)?.secondsFromGMT() == 9 * 3600 && TimeZone.current.secondsFromGMT() != 9 * 3600)
        #expect(rig.terminate() == 0)
        for own in ["settings.json", "sim-clock.json"] { try? FileManager.default.removeItem(at: rig.stateDir.appendingPathComponent(own)) }
        let status = try rig.statusJSON()
        #expect(status["source"] as? String == "log")
        #expect(status["time_zone"] as? String == zone, "\(status)")
        #expect(status["target_minutes"] as? Int == DoseConstants.box.window.defaultTargetMin)
        let text = try rig.boxctl(["status"]).out
        #expect(text.contains("22:00") && text.contains("boxd is not running: read from the night log"), "\(text)")
    }

    /// Issue 12: `boxctl --socket S export` (and history) read the log of the boxd behind S,
    /// not /var/lib/boxd; status names that directory.
    @Test func exportReadsTheLogOfTheBoxdItTalksTo() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        _ = try rig.boxctl(["sim", "press", "dose"])
        #expect(try rig.statusJSON()["state_dir"] as? String == rig.dir.path)
        let out = rig.dir.appendingPathComponent("export-\(UUID().uuidString.prefix(6))")
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "BOXCTL_STATE_DIR")
        for args in [["export", "--out", out.path, "--socket", rig.socket], ["history", "--socket", rig.socket]] {
            let p = Process()
            p.executableURL = BoxRig.boxctl
            p.arguments = args // no --state-dir
            p.environment = env
            let pipe = Pipe()
            p.standardOutput = pipe
            p.standardError = pipe
            try p.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "\(args[0]): \(text)")
        }
        let doses = try String(contentsOf: out.appendingPathComponent("box-dose-events.csv"), encoding: .utf8)
        #expect(doses.contains(",dose1,"), "\(doses)")
    }

    @Test func simCommandsRefuseARealClock() throws {
        let rig = try BoxRig(args: ["--clock", "real", "--audio", "wav"])
        defer { rig.cleanup() }
        try rig.launch()
        let r = try rig.boxctl(["sim", "press", "dose"])
        #expect(r.exit == 3)
        #expect(r.err.contains("sim commands work only"))
    }

    @Test func shippedCompletionsAndManPageAreCurrent() throws {
        let share = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/boxctl/share")
        let rig = try BoxRig()
        defer { rig.cleanup() }
        for shell in ["bash", "zsh", "fish"] {
            let p = Process()
            p.executableURL = BoxRig.boxctl
            p.arguments = ["--generate-completion-script", shell]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let generated = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            let shipped = try Data(contentsOf: share.appendingPathComponent("boxctl.\(shell)"))
            #expect(generated == shipped, "Sources/boxctl/share/boxctl.\(shell) is stale: regenerate it with boxctl --generate-completion-script (see README)")
        }
        let man = try String(contentsOf: share.appendingPathComponent("boxctl.1"), encoding: .utf8)
        #expect(man.contains(".Nm boxctl"))
        #expect(man.contains("checkin"))
    }
}
