import BoxWords
import Foundation
import Testing
@testable import DoseCore

@Suite struct SnoozeTests {
    @Test func threeSnoozesEachMoveTheTargetTenMinutesAndAFourthIsRefused() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 165)
        #expect(h.state.ringing?.step.kind == .mainAlarm)
        for n in 1...3 {
            #expect(h.press(.double) == .accepted(.recorded(.snooze)))
            #expect(h.state.ringing == nil)
            #expect(h.state.night.snoozeCount == n)
            #expect(h.state.effectiveTargetMinutes == 165 + Double(10 * n))
            #expect(h.liveDoses.last?.metadata.snoozeNumber == n)
            let main = h.state.remainingPlan.steps.first { $0.kind == .mainAlarm }
            #expect(main?.offset == .minutes(165 + Double(10 * n)))
            h.advance(minutes: 1)
        }
        let o = h.press(.double)
        #expect(isRefused(o, "422_SNOOZE_LIMIT"))
        if case .refused(let r) = o {
            #expect(Written.refusal(r, in: Harness.tz) == "Maximum snoozes reached (3). Take dose now or skip.")
        }
        #expect(h.sounds == [.error])
        #expect(h.state.night.snoozeCount == 3)
    }

    @Test func snoozeIsRefusedNearCloseBeforeTheWindowAfterDose2AndWhenClosed() {
        var h = Harness()
        #expect(isRefused(h.press(.double), "422_DOSE1_REQUIRED"))
        h.takeDose1()
        h.at(minutesAfterDose1: 100)
        #expect(isRefused(h.press(.double), "422_WINDOW_NOT_OPEN"))
        h.at(minutesAfterDose1: 226)
        #expect(isRefused(h.cli(.snooze), "422_SNOOZE_DISABLED"))
        h.at(minutesAfterDose1: 245)
        #expect(isRefused(h.cli(.snooze), "422_WINDOW_EXCEEDED"))

        var d = Harness()
        d.takeDose1()
        d.at(minutesAfterDose1: 170)
        d.press(.single)
        #expect(isRefused(d.cli(.snooze), "409_ALREADY_TAKEN"))
        #expect(d.state.night.snoozeCount == 0)
    }

    @Test func snoozedStepsInThePastDoNotRing() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 172) // follow-up 3 at 171 rang
        h.press(.double) // target 175: pre-alarm at 170 is in the past
        h.advance(minutes: 1)
        #expect(h.sounds.isEmpty)
        h.at(minutesAfterDose1: 175)
        #expect(h.sounds == [.alarm(.mainAlarm, .critical)])
    }
}

@Suite struct UndoTests {
    @Test func holdInsideTheUndoWindowRemovesDose1() {
        var h = Harness()
        h.takeDose1()
        h.advance(.seconds(4.9))
        #expect(h.press(.hold) == .accepted(.undone(.dose1)))
        #expect(h.phase == .noDose1)
        #expect(h.state.night.dose1 == nil)
        #expect(h.state.remainingPlan.steps.isEmpty) // no alarms remain tonight
        #expect(h.lastEffects.contains(.led(.off)))
        guard case .persist(let r)? = h.lastEffects.first, case .undone(let u)? = r.first else {
            Issue.record("undo must persist an undone record first")
            return
        }
        #expect(u.eventID == h.doses[0].id)
        // The row stays: the log still holds the dose event, marked undone.
        #expect(h.state.night.doseEvents.count == 1)
    }

    @Test func holdAfterTheUndoWindowOnlyShowsTheStatus() {
        var h = Harness()
        h.takeDose1()
        h.advance(.seconds(5))
        #expect(h.press(.hold) == .accepted(.status))
        #expect(h.sounds == [.status])
        #expect(h.lastEffects.contains(.flash(.slowPulse, duration: .seconds(4))))
        #expect(h.state.night.dose1 != nil)
        #expect(isRefused(h.cli(.undo), "410_UNDO_EXPIRED"))
    }

    @Test func undoDose2ReturnsToTheWindowAndReplansTheRest() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 170)
        h.press(.single)
        h.advance(.seconds(2))
        #expect(h.cli(.undo) == .accepted(.undone(.dose2)))
        #expect(h.phase == .active)
        #expect(h.state.remainingPlan.steps.first?.offset == .minutes(171))
        #expect(h.state.remainingPlan.holdsExpiry)
    }

    @Test func undoSkipAndExtraDose() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 180)
        h.cli(.skipDose2(reason: .other))
        #expect(h.cli(.undo) == .accepted(.undone(.dose2Skipped)))
        #expect(h.phase == .active)
        h.press(.single)
        h.advance(minutes: 1)
        h.cli(.extraDose(confirmed: true))
        #expect(h.cli(.undo) == .accepted(.undone(.extraDose)))
        #expect(h.state.night.extraDoses.isEmpty)
        #expect(h.state.night.dose2 != nil)
    }

    @Test func snoozesAreNotUndoneAndNothingToUndoIsSaid() {
        var h = Harness()
        #expect(isRefused(h.cli(.undo), "404_NOTHING_TO_UNDO"))
        h.takeDose1()
        h.at(minutesAfterDose1: 160)
        h.press(.double)
        #expect(isRefused(h.cli(.undo), "410_UNDO_EXPIRED")) // the last dose action is Dose 1, long ago
        #expect(h.state.night.snoozeCount == 1)
    }

    @Test func theUndoWindowFollowsTheSetting() {
        var h = Harness(settings: BoxSettings(undoWindow: .seconds(10), timeZone: Harness.tz))
        h.takeDose1()
        h.advance(.seconds(9))
        #expect(h.cli(.undo) == .accepted(.undone(.dose1)))
    }

    /// Issue 18, reproduction 1 in the core: a bounce records Dose 1, the repeat starts
    /// nothing, and the natural "undo" hold answers the repeat; Dose 1 stands, no Dose 2.
    @Test func aRepeatedPressStartsNothingAndTheHoldAfterItKeepsTheDose() {
        var h = Harness()
        h.takeDose1()
        h.advance(.milliseconds(200))
        #expect(isRefused(h.press(.single), "409_ALREADY_TAKEN"))
        #expect(h.sounds == [.alreadyRecorded])
        #expect(h.state.pending == nil)
        h.advance(.seconds(1))
        #expect(h.press(.hold) == .accepted(.repeatCancelled(.dose1, at: Harness.start.wall)))
        #expect(h.press(.confirmHold) == .ignored)
        #expect(h.liveDoses.map(\.type) == [.dose1])
        // A second hold, still inside the undo window, is a deliberate undo.
        #expect(h.press(.hold) == .accepted(.undone(.dose1)))
    }
}

@Suite struct DoubleMeaningTests {
    /// Where a double could not be a snooze, a single commits at once; in the window it
    /// waits, even with the snoozes used up, so a refused snooze is never split into a dose.
    @Test func doubleIsMeaningfulInTheWindowOnly() {
        var h = Harness()
        #expect(!h.state.doubleIsMeaningful(button: "dose", at: h.now))
        h.takeDose1()
        #expect(!h.state.doubleIsMeaningful(button: "dose", at: h.now))
        h.at(minutesAfterDose1: 160)
        #expect(h.state.doubleIsMeaningful(button: "dose", at: h.now))
        for _ in 0..<3 { h.press(.double) }
        #expect(h.state.snoozesRemaining == 0)
        #expect(h.state.doubleIsMeaningful(button: "dose", at: h.now))
        h.at(minutesAfterDose1: 245)
        #expect(h.state.doubleIsMeaningful(button: "dose", at: h.now))
        h.press(.single)
        #expect(!h.state.doubleIsMeaningful(button: "dose", at: h.now)) // pending confirmation
        h.press(.confirmHold)
        #expect(!h.state.doubleIsMeaningful(button: "dose", at: h.now)) // Dose 2 taken
    }
}
