import Foundation
import Testing
@testable import DoseCore

/// When a caregiver is told: the escalations at their minutes, the edges included.
@Suite struct CaregiverPlanTests {
    static func minutes(_ plan: CaregiverPlan) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: plan.steps.map { ($0.alert.rawValue, $0.offset.minutes) })
    }

    @Test func theDefaultNightsStepsFallWhereTheSeedsScheduleEnds() {
        // Target 165: follow-ups at 167/169/171, the last rings out at 172, one minute's grace.
        #expect(Self.minutes(.make(targetMinutes: 165, rules: .box))
                == ["alarm_unanswered": 173, "dose2_missing": 225, "window_closed_without_dose2": 240])
        // Three snoozes move the wake alarm, not the window.
        #expect(Self.minutes(.make(targetMinutes: 195, rules: .box))["alarm_unanswered"] == 203)
        #expect(Self.minutes(.make(targetMinutes: 225, rules: .box))["dose2_missing"] == 225)
    }

    @Test func anUnansweredAlarmThatWouldComeAfterTheMissingStepIsLeftToIt() {
        // Target 225 (the latest): unanswered at 233 is after 225, "15 min left" says more.
        #expect(Self.minutes(.make(targetMinutes: 225, rules: .box)) == ["dose2_missing": 225, "window_closed_without_dose2": 240])
        // Target 210: unanswered at 218, still before 225.
        #expect(Self.minutes(.make(targetMinutes: 210, rules: .box))["alarm_unanswered"] == 218)
    }

    @Test(arguments: [
        (224.999, .minutes(173) as Duration?, [String]()),
        (225.0, .minutes(224.999), ["dose2_missing"]),
        (239.0, .minutes(225), []),
        (240.0, .minutes(225), ["window_closed_without_dose2"]),
        (241.0, nil, ["alarm_unanswered", "dose2_missing", "window_closed_without_dose2"]),
        (172.99, nil, []),
        (173.0, .minutes(172.99), ["alarm_unanswered"]),
    ])
    func eachStepIsDueOnceAtItsMinute(elapsedMin: Double, through: Duration?, due: [String]) {
        let plan = CaregiverPlan.make(targetMinutes: 165, rules: .box)
        #expect(plan.due(at: .minutes(elapsedMin), after: through).map(\.alert.rawValue) == due)
    }

    @Test func aNightWithDose2TakenOrSkippedOrNoDose1HasNoSteps() throws {
        let settings = BoxSettings(timeZone: TimeZone(identifier: "UTC")!)
        var state = BoxState.rebuilt(settings: settings, records: [])
        #expect(state.caregiverPlan.steps.isEmpty, "no Dose 1: nothing to escalate")
        let start = Moment(wall: Date(timeIntervalSince1970: 1_800_000_000), boot: "b", monoNanos: 0)
        func at(_ minutes: Double) -> Context {
            Context(now: Moment(wall: start.wall.addingTimeInterval(minutes * 60), boot: "b",
                                monoNanos: Int64(minutes * 60e9)), source: .cli(uid: 0), ids: (0..<12).map { "id\($0)" })
        }
        state = DoseReducer.reduce(state, .takeDose(confirmed: false), at(0)).state
        #expect(Self.minutes(state.caregiverPlan)["alarm_unanswered"] == 173)
        state = DoseReducer.reduce(state, .takeDose(confirmed: false), at(170)).state
        #expect(state.night.dose2 != nil)
        #expect(state.caregiverPlan.steps.isEmpty, "Dose 2 taken: nobody needs to be told")
    }
}
