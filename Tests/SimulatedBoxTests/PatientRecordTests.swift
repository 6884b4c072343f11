import Foundation
import Testing
import TestSupport

/// The patient's record through the real boxd and boxctl: a week of nights pressed on the
/// simulated clock, then the views a patient or clinician opens in the morning.
@Suite struct PatientRecordTests {
    /// Seven nights from 2026-11-21, Dose 1 at 22:00 each: the first Dose 2 at 170 min,
    /// the six after at 195.
    static func week(_ rig: BoxRig) throws {
        for night in 0..<7 {
            _ = try rig.boxctl(["sim", "press", "dose"])
            let interval = night == 0 ? 170 : 195
            _ = try rig.boxctl(["sim", "advance", "\(interval)m"])
            _ = try rig.boxctl(["sim", "press", "dose"])
            // To 22:00 the next evening; the night closes on the way (missed check-in cutoff).
            _ = try rig.boxctl(["sim", "advance", "\(1440 - interval)m"])
        }
    }

    @Test func insightsAndThePlannerReadTheWeekWithBoxdRunningOrStopped() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        try Self.week(rig)
        // 2026-11-28 22:00 now; the week is 11-22…11-28: the nights of 11-22…11-27 (six),
        // tonight (11-28) has not begun. 11-21 is outside it.
        func views() throws -> (insights: String, plan: String, planJSON: [String: Any]) {
            let i = try rig.boxctl(["insights", "--days", "30"])
            let p = try rig.boxctl(["plan"])
            let j = try rig.boxctl(["plan", "--json"])
            guard i.exit == 0, p.exit == 0, j.exit == 0 else { throw BoxRig.RigError("insights/plan: \(i.err) \(p.err) \(j.err)") }
            return (i.out, p.out, try JSONSerialization.jsonObject(with: Data(j.out.utf8)) as? [String: Any] ?? [:])
        }
        let running = try views()
        // Seven nights: 170 is on time (5 off 165), the 195s are not; 1 of 7 = 14.3%.
        // Mean (170 + 6 × 195) / 7 = 191.4 → 191; median 195.
        #expect(running.insights.contains("Insights, 2026-10-30 to 2026-11-28: 7 finished nights with Dose 1."), "\(running.insights)")
        #expect(running.insights.contains("On time (±10 min of the target): 1 of 7 nights, 14.3%."))
        #expect(running.insights.contains("Dose 1 → Dose 2: mean 191 min, median 195 min, 170 min to 195 min; 7 of 7 inside 150–240 min."))
        // The week is six nights at 195: average 195 > 165 + 10 → 180, 15 min later.
        #expect(running.plan.contains("Target now: 165 min. Suggested for next week: 180 min."), "\(running.plan)")
        #expect(running.plan.contains("To use it: boxctl target 180 --confirm"))
        #expect(running.planJSON["reason"] as? String == "nudge_up")
        #expect(running.planJSON["nights_in_week"] as? Int == 6)

        // From the log alone, boxd stopped: boxctl reads none of boxd's own files (its clock
        // among them), so the range ends at the newest night the log holds, 11-27, and says so.
        // The same nights, so the same figures; the planner's week (11-21…11-27) has the 170 in it.
        #expect(rig.terminate() == 0)
        let stopped = try views()
        #expect(stopped.insights == running.insights.replacingOccurrences(of: "2026-10-30 to 2026-11-28", with: "2026-10-29 to 2026-11-27"),
                "\(stopped.insights)")
        #expect(stopped.plan.contains("Suggested for next week: 180 min.") && stopped.plan.contains("the week's 191-min average"),
                "\(stopped.plan)")
    }

    @Test func aNewBoxHasNotEnoughDataAndThePlannerKeepsTheTarget() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        let i = try rig.boxctl(["insights"])
        #expect(i.exit == 0)
        #expect(i.out.contains("Not enough data yet: insights need 3 such nights."), "\(i.out)")
        let j = try rig.boxctl(["insights", "--json"])
        #expect(j.out.contains("\"state\":\"insufficient_data\""), "\(j.out)")
        let p = try rig.boxctl(["plan"])
        #expect(p.out.contains("Suggested for next week: 165 min."))
        #expect(p.out.contains("0 finished nights with Dose 1 in the last 7 days; 5 are needed before any change"), "\(p.out)")
        #expect(!p.out.contains("To use it"))
        #expect(try rig.boxctl(["insights", "--days", "0"]).exit == 2)
    }

    /// SSOT 2.4.2's medication log through boxctl and the real boxd: the duplicate guard at
    /// 4:59 and 5:00, a confirmed duplicate, the list, and medication_events.csv.
    @Test func theMedicationLogGuardsDuplicatesAndExports() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        _ = try rig.boxctl(["sim", "press", "dose"])        // 2026-11-21 22:00, the night of the 21st
        _ = try rig.boxctl(["sim", "advance", "10h"])       // 08:00 the next morning
        let first = try rig.boxctl(["med", "add", "adderall_ir", "--dose", "10", "--note", "with breakfast"])
        #expect(first.exit == 0, "\(first.err)")
        #expect(first.out.contains("Logged Adderall IR 10 mg at 08:00, night of 2026-11-21."), "\(first.out)")
        // 4 min 59 s later: refused (exit 3) and nothing written.
        _ = try rig.boxctl(["sim", "advance", "4m59s"])
        let dup = try rig.boxctl(["med", "add", "adderall_ir", "--dose", "10"])
        #expect(dup.exit == 3)
        #expect(dup.err.contains("Adderall IR was already logged at 08:00, less than 5 minutes from this one. If it was really taken twice, log it with --confirm."), "\(dup.err)")
        // With --confirm it is logged, marked.
        let confirmed = try rig.boxctl(["med", "add", "adderall_ir", "--dose", "10", "--confirm"])
        #expect(confirmed.exit == 0)
        #expect(confirmed.out.contains("(a confirmed duplicate)"))
        // 5:00 after the confirmed one (08:04:59): not a duplicate of it; XR beside IR never is.
        _ = try rig.boxctl(["sim", "advance", "5m"])
        #expect(try rig.boxctl(["med", "add", "adderall_ir", "--dose", "5"]).exit == 0)
        #expect(try rig.boxctl(["med", "add", "adderall_xr", "--dose", "20", "--at", "07:30"]).exit == 0)
        // Bad input: a clear error, exit 2, nothing sent.
        #expect(try rig.boxctl(["med", "add", "ritalin", "--dose", "10"]).exit == 2)
        #expect(try rig.boxctl(["med", "add", "adderall_ir", "--dose", "0"]).exit == 2)
        // Issue 29: -5 is a dose that is not positive, not a missing value; 1e-10 mg is no dose.
        let negative = try rig.boxctl(["med", "add", "adderall_ir", "--dose", "-5"])
        #expect(negative.exit == 2 && negative.err.contains("--dose must be positive") && !negative.err.contains("Missing value"), "\(negative.err)")
        let tiny = try rig.boxctl(["med", "add", "adderall_ir", "--dose", "1e-10"])
        #expect(tiny.exit == 2 && tiny.err.contains("--dose must be from 1.25 to 60 mg"), "\(tiny.err)")
        // A time long past is refused by boxd (exit 3), not filed under a night no list shows.
        let ancient = try rig.boxctl(["med", "add", "adderall_ir", "--dose", "10", "--at", "0001-01-01T00:00:00Z"])
        #expect(ancient.exit == 3 && ancient.err.contains("is more than 30 days ago"), "\(ancient.err)")
        #expect(try rig.boxctl(["med", "add", "adderall_ir", "--dose", "10", "--at", "25:00"]).exit == 2)
        // An hour ahead of the box's clock is a dose not yet taken.
        let future = try rig.boxctl(["med", "add", "adderall_ir", "--dose", "10", "--at", "2026-11-22T15:00:00Z"])
        #expect(future.exit == 3, "\(future.out)")

        let list = try rig.boxctl(["med", "list"])
        #expect(list.out.components(separatedBy: "\n").filter { $0.hasPrefix("2026-11-21") }.count == 4, "\(list.out)")
        #expect(list.out.contains("2026-11-21  07:30  Adderall XR   20 mg"))
        #expect(list.out.contains("2026-11-21  08:04  Adderall IR   10 mg  (confirmed duplicate)"))
        let out = rig.dir.appendingPathComponent("export")
        #expect(try rig.boxctl(["export", "--out", out.path]).exit == 0)
        let csv = try String(contentsOf: out.appendingPathComponent("medication_events.csv"), encoding: .utf8)
        let rows = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.count == 5)
        #expect(rows[1].contains(",2026-11-21,adderall_xr,20.0,mg,xr,2026-11-22T12:30:00.000Z,-300,,false,"), "\(csv)")
        #expect(rows[2].contains(",adderall_ir,10.0,mg,ir,2026-11-22T13:00:00.150Z,-300,with breakfast,false,"))
        #expect(rows[3].contains(",true,"))
    }

    /// Data management through boxctl and the real boxd: the count and the confirmation,
    /// the night gone from history, the latest night kept whatever is asked.
    @Test func forgettingANightAsksFirstAndKeepsTheLatest() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        try Self.week(rig)  // nights 2026-11-21 … 11-27; now 11-28 22:00
        let ask = try rig.boxctl(["forget", "2026-11-22"])
        #expect(ask.exit == 3)
        // The night's two doses and the notices of its alarms.
        #expect(ask.err.hasPrefix("This deletes 1 night: 2 dose events, 0 sleep events, 0 check-ins, "), "\(ask.err)")
        #expect(ask.err.contains(", 2026-11-22 to 2026-11-22. It cannot be undone"))
        #expect(try rig.boxctl(["history", "--days", "30"]).out.contains("2026-11-22"), "asking deletes nothing")
        let done = try rig.boxctl(["forget", "2026-11-22", "--confirm"])
        #expect(done.exit == 0, "\(done.err)")
        let history = try rig.boxctl(["history", "--days", "30"]).out
        #expect(!history.contains("2026-11-22") && history.contains("2026-11-21") && history.contains("2026-11-23"), "\(history)")
        // The latest night (11-27) stays, even in a prune of everything before 11-28.
        let prune = try rig.boxctl(["prune", "--before", "2026-11-28", "--confirm"])
        #expect(prune.exit == 0, "\(prune.err)")
        #expect(prune.out.contains("Deleted 5 nights") && prune.out.contains("2026-11-27 is kept: it is the box's latest night"), "\(prune.out)")
        let after = try rig.boxctl(["history", "--days", "30"]).out
        #expect(after.contains("2026-11-27") && !after.contains("2026-11-26"))
        let again = try rig.boxctl(["forget", "2026-11-27", "--confirm"])
        #expect(again.exit == 3 && again.err.contains("No night to forget"))
        // The box goes on: tonight's Dose 1 is recorded.
        #expect(try rig.boxctl(["take"]).exit == 0)
        #expect(try rig.boxctl(["forget", "2026-02-30"]).exit == 2)
    }

    /// The supply through boxctl and the real boxd: a refill, two nights that use four doses,
    /// then the refill reminder at the next Dose 1 (its own chime and LED, in status and in
    /// the feed), a correction, and a refill that resolves it.
    @Test func theRefillReminderComesAtDose1UntilARefill() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        #expect(try rig.boxctl(["supply"]).out.contains("The supply is not counted yet"))
        let refill = try rig.boxctl(["supply", "refill", "--doses", "18", "--note", "pharmacy"])
        #expect(refill.exit == 0 && refill.out.contains("Refill logged: +18 doses. Supply: 18 doses (9 nights)."), "\(refill.out)\(refill.err)")
        func night() throws -> String {
            _ = try rig.boxctl(["sim", "sounds", "--clear"])
            _ = try rig.boxctl(["sim", "press", "dose"])
            let afterDose1 = try rig.boxctl(["sim", "sounds"]).out
            _ = try rig.boxctl(["sim", "advance", "165m"])
            _ = try rig.boxctl(["sim", "press", "dose"])
            _ = try rig.boxctl(["sim", "advance", "1275m"])
            return afterDose1
        }
        // 18 and 16 doses at the first two Dose 1s: 9 and 8 nights, no reminder.
        for _ in 0..<2 { #expect(!(try night()).contains("refill"), "no reminder above 7 nights") }
        // 14 doses (7 nights) at the third: the reminder.
        let third = try night()
        #expect(third.contains("success_refill_due"), "\(third)")
        let status = try rig.boxctl(["status"]).out
        #expect(status.contains("Supply: 12 doses (6 nights); refill due: log it with boxctl supply refill"), "\(status)")
        // Bad input: exit 2, nothing sent.
        #expect(try rig.boxctl(["supply", "adjust", "--doses", "0"]).exit == 2)
        #expect(try rig.boxctl(["supply", "refill", "--doses", "-4"]).exit == 2)
        // A correction that would go below zero is refused by boxd (exit 3).
        #expect(try rig.boxctl(["supply", "adjust", "--doses", "-13"]).exit == 3)
        let spilled = try rig.boxctl(["supply", "adjust", "--doses", "-2", "--note", "spilled"])
        #expect(spilled.out.contains("Supply corrected by -2 doses. Supply: 10 doses (5 nights); refill due"), "\(spilled.out)\(spilled.err)")
        #expect(try rig.boxctl(["supply", "refill", "--doses", "60"]).exit == 0)
        // Resolved: the next Dose 1 is the plain chime again.
        #expect(!(try night()).contains("refill"))
        #expect(try rig.boxctl(["status"]).out.contains("Supply: 68 doses (34 nights)"))
        // After a restart the count is read before anything else: the first Dose 1, here from
        // boxctl (silent in the bedroom), is reminded too, in the log and the feed.
        #expect(try rig.boxctl(["supply", "adjust", "--doses", "-60"]).exit == 0)
        #expect(rig.terminate() == 0)
        try rig.launch()
        #expect(try rig.boxctl(["take"]).exit == 0)
        #expect(try rig.boxctl(["supply", "--last", "20"]).out.components(separatedBy: "refill_reminder").count - 1 == 2)
        let show = try rig.boxctl(["supply"]).out
        #expect(show.contains("refill_reminder") && show.contains("inventory_adjustment") && show.contains("-2, 10 left  spilled"), "\(show)")
        let out = rig.dir.appendingPathComponent("export")
        #expect(try rig.boxctl(["export", "--out", out.path]).exit == 0)
        let csv = try String(contentsOf: out.appendingPathComponent("inventory.csv"), encoding: .utf8)
        #expect(csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }.map { $0.components(separatedBy: ",")[1] }
                == ["event_type", "refill_logged", "refill_reminder", "inventory_adjustment", "refill_logged", "inventory_adjustment",
                    "refill_reminder"], "\(csv)")
    }

    /// The support bundle through boxctl and the real boxd: what a person typed stays out,
    /// the journal (a stand-in journalctl here: no systemd on the test machine) is redacted,
    /// nothing is packed before the review, and --pack packs only the bundle's files.
    /// Issue 29: a config that names the zone, the box and the family's topic (each says
    /// where one lives or who one is) leaves none of them in app_metadata.json.
    @Test func theSupportBundleIsRedactedAndPackedOnlyAfterReview() throws {
        let configDir = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-config-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: configDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: configDir) }
        let config = configDir.appendingPathComponent("boxd.toml")
        try """
            [box]
            time_zone = "America/Chicago"
            [mqtt]
            enabled = true
            host = "broker.lan"
            box_id = "janes-bedroom"
            base_topic = "smithhouse"
            """.write(to: config, atomically: true, encoding: .utf8)
        let rig = try BoxRig(args: ["--config", config.path])
        defer { rig.cleanup() }
        try rig.launch()
        _ = try rig.boxctl(["log", "bathroom", "--note", "call nurse@example.org"])
        _ = try rig.boxctl(["sim", "press", "dose"])
        _ = try rig.boxctl(["supply", "refill", "--doses", "30", "--note", "pharmacy on Elm St"])
        _ = try rig.boxctl(["med", "add", "adderall_ir", "--dose", "10"])
        let fake = rig.dir.appendingPathComponent("fakebin")
        try FileManager.default.createDirectory(at: fake, withIntermediateDirectories: true)
        let journalctl = fake.appendingPathComponent("journalctl")
        try """
            #!/bin/sh
            echo "journalctl $*"
            echo "2026-11-21T22:00:01+0000 $(hostname) boxd[812]: caregiver link DOWN: 10.0.0.7:8883 refused, password=hunter2"
            """.write(to: journalctl, atomically: true, encoding: .utf8)
        chmod(journalctl.path, 0o755)
        func bundle(_ args: [String]) throws -> ChildProcess {
            try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                 ["PATH=\(fake.path):/usr/bin:/bin", BoxRig.boxctl.path, "support-bundle"] + args
                                    + ["--socket", rig.socket, "--state-dir", rig.dir.path])
        }
        let out = rig.dir.appendingPathComponent("bundle")
        let r = try bundle(["--out", out.path])
        #expect(r.exit == 0, "\(r.err)")
        #expect(r.out.contains("debug_log.txt (") && r.out.contains("redacted: ") && r.out.contains("Nothing has been sent."), "\(r.out)")
        #expect(!FileManager.default.fileExists(atPath: out.path + ".tar.gz"), "nothing packed before the review")
        func file(_ name: String) throws -> String { try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8) }
        let events = try file("events.csv"), inventory = try file("inventory.csv"), meta = try file("app_metadata.json"), log = try file("debug_log.txt")
        #expect(events.contains(",dose1,") && events.contains(",bathroom,") && !events.contains("nurse"), "\(events)")
        #expect(inventory.contains(",refill_logged,") && !inventory.contains("Elm"), "\(inventory)")
        #expect(log.contains("journalctl -u boxd -n 500 -o short-iso --no-pager"), "\(log)")
        #expect(log.contains("<ip>:8883") && log.contains("password=<secret>") && log.contains("<host>") && !log.contains("hunter2"), "\(log)")
        #expect(meta.contains("\"box_version\"") && meta.contains("\"utc_offset_minutes\" : -360") && !meta.contains("adderall"), "\(meta)")
        for named in ["Chicago", "janes-bedroom", "smithhouse", "broker.lan"] { #expect(!meta.contains(named), "\(named): \(meta)") }
        #expect(meta.contains("\"box.time_zone\" : \"<redacted>\"") && meta.contains("\"mqtt.box_id\" : \"<redacted>\""), "\(meta)")
        #expect(r.out.contains("app_metadata.json (") && r.out.contains("setting (5)"), "\(r.out)")
        #expect(!(try file("manifest.txt")).isEmpty)
        // A second run does not overwrite the reviewed files without --force.
        #expect(try bundle(["--out", out.path]).exit == 7)
        let packed = try bundle(["--out", out.path, "--pack"])
        #expect(packed.exit == 0, "\(packed.err)")
        let list = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/tar"), ["-tzf", out.path + ".tar.gz"])
        #expect(list.out.split(separator: "\n").map(String.init).sorted()
                == ["bundle/app_metadata.json", "bundle/debug_log.txt", "bundle/events.csv", "bundle/inventory.csv", "bundle/manifest.txt"])
        #expect(try bundle(["--out", rig.dir.appendingPathComponent("fakebin").path, "--pack"]).exit == 7, "only a bundle is packed")
    }
}
