import Foundation
import Testing
@testable import DoseCore

@Suite struct AlarmPlanTests {
    @Test func theDefaultPlanInOrderWithEscalatingLevels() {
        let plan = AlarmPlan.make(targetMinutes: 165, rules: .box)
        let got = plan.steps.map { "\($0.kind.rawValue)@\($0.offset.minutes)/\($0.level)" }
        #expect(got == [
            // SSOT 2.4.3 (000_…, "Wake Alarm Schedule"): pre-alarm Standard, main Critical, follow-ups Critical.
            "window_open@150.0/gentle", "pre_alarm@160.0/standard", "main_alarm@165.0/critical",
            "follow_up@167.0/critical", "follow_up@169.0/critical", "follow_up@171.0/critical",
            "remaining_warning@210.0/standard", "hard_stop@225.0/standard", "hard_stop@235.0/critical",
            "hard_stop@238.0/critical", "remaining_warning@239.0/critical", "hard_stop@239.5/critical",
            "expired@240.0/critical",
        ])
    }

    @Test func stepsAtOneInstantMergeIntoTheStrongerAndLateWakeStepsDrop() {
        let plan = AlarmPlan.make(targetMinutes: 235, rules: .box) // 225 + one snooze
        let offsets = plan.steps.map(\.offset)
        #expect(Set(offsets).count == offsets.count)
        #expect(plan.steps.first { $0.offset == .minutes(235) }?.level == .critical)
        #expect(plan.steps.first { $0.offset == .minutes(230) }?.kind == .preAlarm)
        #expect(!plan.steps.contains { $0.kind == .followUp && $0.offset >= .minutes(240) })
        #expect(plan.steps.last?.kind == .expired)
    }

    @Test(arguments: [165, 180, 195, 210, 225])
    func everyTargetsPlanHoldsTheExpiry(target: Int) {
        let plan = AlarmPlan.make(targetMinutes: Double(target), rules: .box)
        #expect(plan.holdsExpiry)
        #expect(plan.steps.map(\.offset) == plan.steps.map(\.offset).sorted())
        #expect(plan.steps.contains { $0.kind == .mainAlarm || $0.offset == .minutes(Double(target)) })
    }
}

@Suite struct AlarmRingingTests {
    @Test func aSleepingPersonHearsEveryStepOnceAtRisingLevels() {
        var h = Harness()
        h.takeDose1()
        var heard: [Sound] = []
        for minute in stride(from: 0.5, through: 250, by: 0.5) {
            h.at(minutesAfterDose1: minute)
            heard += h.sounds
        }
        let kinds = heard.compactMap { if case .alarm(let k, _) = $0 { k.rawValue } else { nil } }
        #expect(kinds == ["window_open", "pre_alarm", "main_alarm", "follow_up", "follow_up", "follow_up",
                          "remaining_warning", "hard_stop", "hard_stop", "hard_stop", "remaining_warning",
                          "hard_stop", "expired"])
        let wake = heard.prefix(6).compactMap(\.level)
        #expect(wake == wake.sorted())
        #expect(h.phase == .closed)
    }

    @Test func ringingStopsAfterTheRingTimeOrAHold() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 165)
        #expect(h.state.ringing != nil)
        h.advance(.seconds(59))
        #expect(h.state.ringing != nil)
        h.advance(.seconds(1))
        #expect(h.state.ringing == nil)
        #expect(h.lastEffects.contains(.stopSound))

        h.at(minutesAfterDose1: 167)
        #expect(h.press(.hold) == .accepted(.alarmStopped))
        #expect(h.lastEffects.contains(.stopSound))
        #expect(h.state.night.dose2 == nil)
        h.at(minutesAfterDose1: 169)
        #expect(h.sounds == [.alarm(.followUp, .critical)]) // the plan goes on
    }

    @Test func takeNowWhileRingingStopsTheSoundAndCancelsTheRest() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 165)
        #expect(h.press(.single) == .accepted(.recorded(.dose2)))
        #expect(h.lastEffects.contains(.stopSound))
        #expect(h.state.remainingPlan.steps.isEmpty) // no alarms remain tonight
        for minute in stride(from: 166.0, through: 300, by: 1) {
            h.at(minutesAfterDose1: minute)
            #expect(h.sounds.isEmpty)
        }
        #expect(h.state.nextDeadline(at: h.now) != nil) // only the session's fallback close remains
    }

    @Test func aLaterStepIsNeverMaskedByOneStillRinging() {
        var h = Harness(settings: BoxSettings(ringTime: .seconds(600), timeZone: Harness.tz))
        h.takeDose1()
        h.at(minutesAfterDose1: 165)
        h.at(minutesAfterDose1: 167)
        #expect(h.sounds == [.alarm(.followUp, .critical)])
        #expect(h.state.ringing?.step.kind == .followUp)
    }

    @Test func theNextDeadlineIsTheNextStep() {
        var h = Harness()
        h.takeDose1()
        #expect(h.state.nextDeadline(at: h.now) == .minutes(150))
        h.at(minutesAfterDose1: 150)
        #expect(h.state.nextDeadline(at: h.now) == .seconds(60)) // end of the window-open ring
        h.advance(.seconds(60))
        #expect(h.state.nextDeadline(at: h.now) == .minutes(9))
    }
}

/// A restart rebuilds the night from the log alone and rings what fell due while down, once.
@Suite struct RestartTests {
    @Test func rebuiltStateEqualsTheLiveNight() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 160)
        h.press(.double)
        h.cli(.logSleepEvent(.bathroom, notes: "x"))
        h.advance(.seconds(30))
        let rebuilt = BoxState.rebuilt(settings: h.state.settings, records: h.persisted)
        #expect(rebuilt.night == h.state.night)
        #expect(rebuilt.plan == h.state.plan)
        #expect(rebuilt.phase(at: h.now) == h.phase)
    }

    @Test func aRestartTenSecondsAfterAPressKeepsTheNextAlarmInstant() {
        var h = Harness()
        h.takeDose1()
        h.advance(.seconds(10))
        var after = Harness(now: h.now)
        after.state = BoxState.rebuilt(settings: h.state.settings, records: h.persisted)
        after.send(.tick, from: .system)
        #expect(after.sounds.isEmpty)
        #expect(after.state.nextDeadline(at: after.now) == h.state.nextDeadline(at: h.now))
    }

    @Test func anAlarmThatFellDueWhileDownRingsOnceAtOnce() {
        var h = Harness()
        h.takeDose1()
        // Down from 100 to 170 minutes: pre-alarm, main and two follow-ups fell due.
        let later = h.now.advanced(by: .minutes(170))
        var after = Harness(now: Moment(wall: later.wall, boot: "boot-B", monoNanos: 1_000_000_000))
        after.state = BoxState.rebuilt(settings: h.state.settings, records: h.persisted)
        after.send(.tick, from: .system)
        #expect(after.sounds == [.alarm(.followUp, .critical)])
        after.advance(.seconds(1))
        #expect(after.sounds.isEmpty)
        #expect(after.state.nextAlarm(at: after.now)?.step.offset == .minutes(171))
    }
}
