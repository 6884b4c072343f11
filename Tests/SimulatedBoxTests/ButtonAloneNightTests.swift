import Foundation
import Testing
import TestSupport

/// #32, done the way a groggy person meets it: a whole night on the real boxd with the button
/// alone and the voice on (no boxctl but to read the result): Dose 1 and a snooze with bouncy
/// presses, a hard-stop alarm, Dose 2 skipped by the long hold with its reason, and in the
/// morning the hold that records wake-final and the full Quick Mode check-in with two flags,
/// answered by bouncy presses. The export and the report then show every answer.
@Suite struct ButtonAloneNightTests {
    /// `n` presses 300 ms apart, each with contact bounce going down and coming up.
    static func bouncy(_ n: Int) -> String {
        let edges = (0..<n).flatMap { i -> [String] in
            let t = i * 300
            return ["\(t):down", "\(t + 3):up", "\(t + 6):down", "\(t + 110):up", "\(t + 113):down", "\(t + 116):up"]
        }
        return "edges dose \"\(edges.joined(separator: ","))\""
    }

    @Test func aNightWithTheButtonAlone() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        // The answers as presses, and what the voice says back: Quick Mode, then the flags
        // (once no, twice yes): hallucinations and fell out of bed.
        let answers: [(Int, String)] = [
            (4, "Sleep 4 of 5."), (2, "Rested: slightly."), (3, "Groggy: moderate."), (6, "Clarity 6 of 10."), (4, "Mood: good."),
            (1, "Sleep paralysis: no."), (2, "Hallucinations: yes."), (1, "Automatic behaviour: no."), (2, "Fell out of bed: yes."),
            (1, "Confusion on waking: no. Check-in saved. Good morning."),
        ]
        var script = """
        at 22:00 \(Self.bouncy(1))
        advance 1s
        expect sound success
        expect said Dose 1 taken at 10:00 PM.
        advance 165m
        expect sound main_alarm
        \(Self.bouncy(2))
        advance 1s
        expect sound success
        expect said Snoozed for 10 minutes.
        advance 70m
        expect sound hard_stop
        press dose hold 3300
        expect sound skip_hold
        expect said Skipping Dose 2. Why? Press once if drowsy, twice for side effects, or wait.
        expect status asking skip_reason
        \(Self.bouncy(2))
        advance 1s
        expect said Dose 2 skipped (side effects). To undo, hold the button within 5 seconds.
        at 06:59 press dose hold 1200
        expect sound status
        at 07:00 press dose hold 1200
        expect sound success
        expect said "Good morning. Dose 1 at 10:00 PM; Dose 2 skipped (side effects). Morning check-in. Press each answer's number; \
        hold to go back. Question 1: how well did you sleep? Press 1 to 5 times; 5 is best."
        expect led white checkin
        expect status asking checkin_question_1

        """
        for (n, echo) in answers {
            script += "\(Self.bouncy(n))\nadvance 2s\nexpect said \(echo)\n"
        }
        script += "expect phase completed\nexpect status asking null\n"
        var s = Scenario(script, rig: rig)
        try s.run()

        // The export: the night's doses, wake-final by the button, every answer and both flags.
        let out = rig.dir.appendingPathComponent("export")
        #expect(try rig.boxctl(["export", "--out", out.path]).exit == 0)
        func csv(_ name: String) throws -> [[String: String]] {
            let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
            let rows = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            return rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(rows[0], $0)) }
        }
        let doses = try csv("box-dose-events.csv")
        #expect(doses.map { $0["event_type"] ?? "" } == ["dose1", "snooze", "dose2_skipped"])
        #expect(doses.last?["reason"] == "side_effects" && doses.allSatisfy { $0["source"] == "button:dose" })
        let wake = try csv("box-sleep-events.csv").filter { $0["event_type"] == "wake_final" }
        #expect(wake.map { $0["source"] } == ["button:dose"])
        let checkIns = try csv("box-morning-checkins.csv")
        #expect(checkIns.count == 1)
        let c = try #require(checkIns.first)
        #expect([c["sleep_quality"], c["feel_rested"], c["grogginess"], c["mental_clarity"], c["mood"]] == ["4", "slightly", "moderate", "6", "good"])
        #expect([c["had_sleep_paralysis"], c["had_hallucinations"], c["had_automatic_behavior"], c["fell_out_of_bed"],
                 c["had_confusion_on_waking"]] == ["0", "1", "0", "1", "0"])

        // The report: the skipped night with its reason and the check-in's answers and flags.
        let html = rig.dir.appendingPathComponent("report.html")
        let r = try rig.boxctl(["report", "--out", html.path, "--days", "7"])
        #expect(r.exit == 0, "\(r.out)\(r.err)")
        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.contains("skipped (side effects)"))
        #expect(page.contains("sleep 4/5, rested slightly, groggy moderate, clarity 6/10, mood good; hallucinations, fell out of bed"))
    }
}
