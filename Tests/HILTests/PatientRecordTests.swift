import Foundation
import Testing

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

        // The same from the log alone, boxd stopped.
        #expect(rig.terminate() == 0)
        let stopped = try views()
        #expect(stopped.insights == running.insights)
        #expect(stopped.plan == running.plan)
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
}
