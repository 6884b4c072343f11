import Foundation
import Testing
@testable import DoseCore

/// The constants the code runs on are constants.json, and they hold the seeds' values.
@Suite struct ConstantsTests {
    static let fileURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("constants.json")

    @Test func codeMatchesTheFileOnDisk() throws {
        let onDisk = try Data(contentsOf: Self.fileURL)
        #expect(String(decoding: onDisk, as: UTF8.self) == DoseConstants.embeddedJSON,
                "constants.json changed after the build embedded it")
        #expect(try DoseConstants.decode(onDisk) == DoseConstants.box)
    }

    /// Pins every value to the seeds. Changing constants.json makes this fail on purpose:
    /// a rule change must be a reviewed change here too.
    @Test func seedValuesArePinned() {
        let c = DoseConstants.box
        #expect(c.window.openMin == 150)
        #expect(c.window.closeMin == 240)
        #expect(c.window.nearCloseRemainingMin == 15)
        #expect(c.window.defaultTargetMin == 165)
        #expect(c.window.validTargetsMin == [165, 180, 195, 210, 225])
        #expect(c.window.onTimeThresholdMin == 10)
        #expect(c.snooze.stepMin == 10)
        #expect(c.snooze.maxPerNight == 3)
        #expect(c.snooze.disabledBelowRemainingMin == 15)
        #expect(c.undo.defaultS == 5)
        #expect(c.undo.choicesS == [3, 5, 7, 10])
        #expect(c.alerts.remainingWarningsBeforeCloseMin == [30, 15, 5, 1])
        #expect(c.alerts.hardStopWarningsBeforeCloseMin == [15, 5, 2, 0.5])
        #expect(c.alerts.criticalWithinMinOfClose == 5)
        #expect(c.wakeAlarm.preAlarmBeforeTargetMin == 5)
        #expect(c.wakeAlarm.followUpsAfterTargetMin == [2, 4, 6])
        #expect(c.alarm.ringS == 60)
        #expect(c.caregiver.unansweredGraceS == 60)
        #expect(c.caregiver.dose2MissingRemainingMin == 15)
        #expect(c.session.rolloverHour == 18)
        #expect(c.session.sleepStart == ClockTime(hour: 21, minute: 0))
        #expect(c.session.wakeTime == ClockTime(hour: 7, minute: 0))
        #expect(c.session.prepTime == ClockTime(hour: 18, minute: 0))
        #expect(c.session.missedCheckinCutoffH == 4)
        #expect(c.gestures.debounceMs == 30)
        #expect(c.gestures.doubleGapMs == 400)
        #expect(c.gestures.holdMs == 1000)
        #expect(c.gestures.confirmHoldMs == 2000)
        #expect(c.gestures.confirmationWindowS == 15)
        #expect(c.gestures.stuckGuardS == 15)
        #expect(c.led.yellowWithinMinOfClose == 30)
        // The box's own (#32): no seed value. A hold is known before its press would count.
        #expect(c.checkin.answerGapMs == 1500)
        #expect(c.checkin.answerGapMs > c.gestures.holdMs)
        #expect(c.checkin.questionWaitS == 45)
        #expect(c.checkin.countBlinkMs == 250)
        // Take Care (seed 002), the numbers it fixes: windows of 60 and 90 min, 2 drinks / 2 shots,
        // 4 units in 90 min (balanced) escalate, water every 2 drinks, cooldowns 15, 20 and 60 min.
        let p = c.pacing
        #expect(p.fastPaceWindowMin == 60 && p.escalationWindowMin == 90)
        #expect(p.rapidRepeatDrinks == 2 && p.shotStackingShots == 2 && p.presets.balanced.escalationUnits == 4)
        #expect(p.hydrationCadenceDrinks == 2 && p.hydrationQuietMin == 20)
        #expect(p.warningCooldownMin == 15 && p.resetQuietMin == 20 && p.resetAfterWarningWithinMin == 60 && p.resetCooldownMin == 60)
        #expect(p.drinks.map(\.type) == ["shot", "beer", "wine", "cocktail", "water"])
        #expect(c.safety.dose2ButtonFloorMin == 120)
        #expect(c.safety.newDose1AfterLastDoseMin == 240)
        // The box's own (#33): the label gives no hours ("do not drink alcohol" with XYWAV), so
        // a drink logged at any time of the day before a Dose 1 counts; yesterday's does not.
        #expect(c.safety.alcoholLookbackH == 12)
        // SSOT 2.4.3, "Planner": baseline 165, lastWeek.length < 5, consistency < 0.7,
        // avg < 160 nudges down, avg > target + 10 nudges up, 15-min steps (nudge_step_minutes),
        // 7-day stability, revert after 3 consecutive missed windows.
        #expect(c.planner.baselineTargetMin == c.window.defaultTargetMin)
        #expect(c.planner.weekDays == 7)
        #expect(c.planner.minNightsInWeek == 5)
        #expect(c.planner.minConsistency == 0.7)
        #expect(c.planner.nudgeDownBelowAvgMin == 160)
        #expect(c.planner.nudgeUpAboveTargetMin == 10)
        #expect(c.planner.nudgeStepMin == 15)
        #expect(c.planner.revertAfterMissedWindows == 3)
    }

    @Test func sleepEventsAreTheSchemaWireNamesWithTheirCooldowns() {
        let rules = DoseConstants.box.sleepEvents
        #expect(rules.map(\.event) == SleepEventType.allCases.map(\.rawValue))
        let cooled = Dictionary(uniqueKeysWithValues: rules.filter { $0.cooldownS > 0 }.map { ($0.event, $0.cooldownS) })
        #expect(cooled == ["bathroom": 60, "water": 60, "snack": 60, "wake_final": 3600])
    }

    @Test func theAlertOffsetsAreTheSeedsMinutes() {
        let plan = AlarmPlan.make(targetMinutes: 165, rules: .box)
        let minutes = Set(plan.steps.map(\.offset.minutes))
        for m in [150.0, 160, 165, 167, 169, 171, 210, 225, 235, 238, 239, 239.5, 240] {
            #expect(minutes.contains(m), "no alert at \(m) min")
        }
    }

    @Test func malformedConstantsAreRejectedWithTheKeyNamed() {
        let broken = Data(#"{"schema_version": 1}"#.utf8)
        #expect(throws: DecodingError.self) { try DoseConstants.decode(broken) }
        let text = DoseConstants.embeddedJSON.replacingOccurrences(of: #""prep_time": "18:00""#, with: #""prep_time": "6pm""#)
        #expect(throws: DecodingError.self) { try DoseConstants.decode(Data(text.utf8)) }
    }
}
