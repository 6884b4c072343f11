import Foundation
import Testing
@testable import DoseCore

/// The night's plans are kept between readings (BoxState+Plans): a kept plan must never ring
/// another target's alarms, whatever changed the target.
@Suite struct KeptPlansTests {
    static func fresh(_ s: BoxState) -> AlarmPlan {
        AlarmPlan.make(targetMinutes: s.effectiveTargetMinutes, rules: s.settings.rules)
    }

    @Test func aSnoozeMovesTheKeptPlanAtOnce() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 165)
        #expect(h.state.plansMemo.plans?.targetMinutes == 165, "the reduction kept the plans")
        h.press(.double)
        #expect(h.state.night.snoozeCount == 1)
        #expect(h.state.plan == Self.fresh(h.state))
        #expect(h.state.plan.steps.contains(AlarmStep(offset: .minutes(175), kind: .mainAlarm, level: .critical)))
        #expect(h.state.caregiverPlan == CaregiverPlan.make(targetMinutes: 175, rules: h.state.settings.rules))
    }

    /// The night read again from the log (a clock step) with a snooze the kept plans did not
    /// see: the plans follow the night's target, not what was kept.
    @Test func aNightReadAgainGetsItsOwnTargetsPlans() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 165)
        var before = h.state
        h.press(.double)
        #expect(before.plansMemo.plans?.targetMinutes == 165)
        before.reloadNight(PersistedNight(log: h.persisted))
        #expect(before.effectiveTargetMinutes == 175)
        #expect(before.plan == Self.fresh(before))
        #expect(before.nextAlarm(at: h.now)?.step.offset == .minutes(170), "the pre-alarm of 175, not 165's main alarm")
    }

    /// The engine sets a new target or new rules (`boxctl target`, a config reload) on the
    /// state itself: the next reading has them, before any reduction.
    @Test func newSettingsAreReadAtOnce() {
        var h = Harness()
        h.takeDose1()
        h.state.settings.targetMinutes = 200
        #expect(h.state.plan == Self.fresh(h.state))
        #expect(h.state.plan.steps.contains { $0.kind == .mainAlarm && $0.offset == .minutes(200) })
        h.state.settings = BoxSettings(targetMinutes: 230, timeZone: Harness.tz)
        // Target 230: its last follow-up rings at 236, where the 165 plan ticked.
        #expect(h.state.plan == Self.fresh(h.state))
        #expect(h.state.minuteTicks == [.minutes(237)])
    }

    /// What is kept is read, not held: two states alike but for it are equal.
    @Test func keptPlansNeverMakeTwoStatesDiffer() {
        var h = Harness()
        h.takeDose1()
        var bare = h.state
        bare.plansMemo = PlansMemo()
        #expect(bare == h.state)
        #expect(bare.plan == h.state.plan)
    }
}
