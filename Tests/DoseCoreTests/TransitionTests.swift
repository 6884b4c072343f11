import BoxWords
import Foundation
import Testing
@testable import DoseCore

/// Every row of SSOT 3.0's transition table, plus the box's confirmation paths.
@Suite struct TransitionTests {
    @Test func noDose1TakeDose1GoesBeforeWindowAndPersistsFirst() {
        var h = Harness()
        #expect(h.phase == .noDose1)
        h.takeDose1()
        #expect(h.phase == .beforeWindow)
        guard case .persist(let records)? = h.lastEffects.first else {
            Issue.record("persist must come first: \(h.lastEffects)")
            return
        }
        #expect(records.count == 2) // session opened, then dose1
        #expect(h.lastEffects.contains(.play(.success)))
        #expect(h.lastEffects.contains(.led(.slowPulse)))
        #expect(h.state.remainingPlan.steps.first?.kind == .windowOpen) // the night's alarms are planned
        #expect(h.state.night.session?.date == "2026-11-21")
    }

    @Test func beforeWindowDose2NeedsTheEarlyOverride() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 120)
        #expect(h.press(.single) == .accepted(.awaitingConfirmation(.early)))
        #expect(h.lastEffects.first.map { if case .persist = $0 { true } else { false } } != true)
        #expect(h.sounds == [.warning])
        #expect(h.lastEffects.contains(.led(.confirmEarly)))
        h.advance(.seconds(3))
        h.press(.pressed)
        #expect(h.press(.hold) == .ignored) // the 1 s hold means nothing while confirming
        #expect(h.press(.confirmHold) == .accepted(.recordedEarly(minutesAfterDose1: 120)))
        #expect(h.liveDoses.last?.metadata.isEarly == true)
        #expect(h.liveDoses.last?.metadata.isLate == false)
        #expect(h.phase == .completed)
        #expect(h.state.remainingPlan.steps.isEmpty) // no alarms remain tonight
    }

    @Test func earlyWithoutTheHoldRecordsNothing() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 120)
        h.press(.single)
        h.advance(.seconds(2))
        h.press(.pressed)
        h.press(.hold)
        #expect(h.press(.releasedAfterHold) == .accepted(.confirmationCancelled)) // let go at 1.5 s
        #expect(h.state.pending == nil)
        #expect(h.liveDoses.map(\.type) == [.dose1])
        #expect(h.lastEffects.contains(.led(.slowPulse)))
    }

    @Test func earlyConfirmationTimesOutAfter15Seconds() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 120)
        h.press(.single)
        h.advance(.seconds(14.9))
        #expect(h.state.pending != nil)
        h.advance(.seconds(0.1))
        #expect(h.state.pending == nil)
        #expect(h.press(.confirmHold) == .ignored)
        #expect(h.liveDoses.map(\.type) == [.dose1])
    }

    @Test func aSecondSinglePressCancelsTheConfirmation() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 130)
        h.press(.single)
        #expect(h.press(.single) == .accepted(.confirmationCancelled))
        #expect(h.liveDoses.map(\.type) == [.dose1])
    }

    @Test func confirmationJudgedAtTheConfirmingMoment() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 149.95)
        h.press(.single)
        h.advance(.seconds(6))
        #expect(h.press(.confirmHold) == .accepted(.recorded(.dose2)))
        #expect(h.liveDoses.last?.metadata.isEarly == false)
    }

    @Test(arguments: [150.0, 200, 224])
    func activeDose2IsRecorded(minute: Double) {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: minute)
        #expect(h.press(.single) == .accepted(.recorded(.dose2)))
        #expect(h.phase == .completed)
        #expect(h.liveDoses.last?.metadata == DoseMetadata(isEarly: false, isLate: false, isExtraDose: false))
    }

    @Test func nearCloseDose2IsRecorded() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 230)
        #expect(h.phase == .nearClose)
        #expect(h.press(.single) == .accepted(.recorded(.dose2)))
    }

    @Test func closedDose2NeedsTheLateOverride() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 250)
        #expect(h.press(.single) == .accepted(.awaitingConfirmation(.late)))
        #expect(h.lastEffects.contains(.led(.confirmLate)))
        #expect(h.press(.confirmHold) == .accepted(.recorded(.dose2)))
        #expect(h.liveDoses.last?.metadata.isLate == true)
    }

    @Test func boxctlTakeNeedsConfirmEarlyAndLate() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 100)
        #expect(isRefused(h.cli(.takeDose(confirmed: false)), "428_CONFIRMATION_REQUIRED"))
        #expect(h.state.pending == nil)
        #expect(h.cli(.takeDose(confirmed: true)) == .accepted(.recordedEarly(minutesAfterDose1: 100)))
        #expect(h.liveDoses.last?.metadata.isEarly == true)
        #expect(h.liveDoses.last?.source == .cli(uid: 1000))
        #expect(h.sounds.isEmpty) // boxctl's reply is the acknowledgement; the bedroom stays quiet
    }

    @Test(arguments: [150.0, 230, 260])
    func skipFromTheWindowOrAfterCompletes(minute: Double) {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: minute)
        #expect(h.cli(.skipDose2(reason: .drowsy)) == .accepted(.recorded(.dose2Skipped)))
        #expect(h.phase == .completed)
        #expect(h.liveDoses.last?.metadata.reason == "drowsy")
        #expect(h.state.remainingPlan.steps.isEmpty) // no alarms remain tonight
    }

    @Test func skipBeforeTheWindowOrBeforeDose1IsRefused() {
        var h = Harness()
        #expect(isRefused(h.cli(.skipDose2(reason: nil)), "422_DOSE1_REQUIRED"))
        h.takeDose1()
        h.at(minutesAfterDose1: 60)
        #expect(isRefused(h.cli(.skipDose2(reason: nil)), "422_WINDOW_NOT_OPEN"))
    }

    /// Wake-final goes finalizing from every phase where Dose 2 is not owed.
    @Test(arguments: [Phase.noDose1, .closed, .completed])
    func wakeFinalGoesFinalizingWhenNoDoseIsOwed(from phase: Phase) {
        var h = Harness()
        let minutes: [Phase: Double] = [.closed: 250, .completed: 170]
        if phase != .noDose1 { h.takeDose1() }
        if let m = minutes[phase] { h.at(minutesAfterDose1: m) }
        if phase == .completed { h.press(.single); h.advance(.seconds(10)) }
        #expect(h.phase == phase)
        #expect(h.cli(.logSleepEvent(.wakeFinal, notes: nil)) == .accepted(.loggedSleepEvent(.wakeFinal)))
        #expect(h.phase == .finalizing)
        #expect(h.lastEffects.contains(.led(.slowGlow)))
    }

    /// Issue 18 item 3: while Dose 2 is owed, wake-final is refused (the LED keeps showing the
    /// due dose); with --confirm it records the skip first, then finalizing.
    @Test(arguments: [Phase.beforeWindow, .active, .nearClose])
    func wakeFinalWhileDose2IsOwedNeedsAConfirmation(from phase: Phase) {
        var h = Harness()
        let minutes: [Phase: Double] = [.beforeWindow: 60, .active: 170, .nearClose: 230]
        h.takeDose1()
        h.at(minutesAfterDose1: minutes[phase]!)
        #expect(isRefused(h.cli(.logSleepEvent(.wakeFinal, notes: nil)), "409_DOSE2_OWED"))
        #expect(h.phase == phase)
        #expect(!h.lastEffects.contains(.led(.slowGlow)))
        #expect(h.cli(.logSleepEvent(.wakeFinal, notes: nil, confirmed: true)) == .accepted(.loggedSleepEvent(.wakeFinal)))
        #expect(h.state.night.skip != nil)
        #expect(h.phase == .finalizing)
    }

    @Test func finalizingCheckInClosesTheSession() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 170)
        h.press(.single)
        h.advance(minutes: 240)
        h.cli(.logSleepEvent(.wakeFinal, notes: nil))
        let o = h.cli(.checkIn(CheckInAnswers(sleepQuality: 4, mentalClarity: 7, notes: "ok")))
        #expect(o == .accepted(.checkedIn(.completed)))
        #expect(!h.state.night.isOpen)
        #expect(h.state.night.closure?.reason == .checkIn)
        #expect(h.phase == .completed) // SSOT 3.0: finalizing -> completed on check-in; a press still starts a night
        #expect(isRefused(h.cli(.checkIn(CheckInAnswers())), "404_NO_SESSION"))
    }

    @Test func checkInRejectsOutOfRangeAnswers() {
        var h = Harness()
        h.takeDose1()
        #expect(isRefused(h.cli(.checkIn(CheckInAnswers(sleepQuality: 6))), "400_INVALID_CHECKIN"))
        #expect(isRefused(h.cli(.checkIn(CheckInAnswers(mentalClarity: 0))), "400_INVALID_CHECKIN"))
        #expect(h.state.night.isOpen)
    }

    @Test func afterDose2APressRecordsNothingAndPlaysStop() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 170)
        h.press(.single)
        let before = h.persisted.count
        // Inside the undo window a press is a repeat: "already recorded".
        #expect(isRefused(h.press(.single), "409_ALREADY_TAKEN"))
        #expect(h.sounds == [.alreadyRecorded])
        h.advance(.seconds(10))
        for _ in 0..<3 {
            let o = h.press(.single)
            #expect(isRefused(o, "409_ALREADY_TAKEN"))
            #expect(h.sounds == [.stop])
            #expect(h.lastEffects.contains(.flash(.stop, duration: nil)))
        }
        #expect(h.persisted.count == before)
        if case .refused(let r) = h.press(.single) {
            #expect(Written.refusal(r, in: Harness.tz).hasPrefix("This dose was already taken at 00:50. STOP"))
        }
    }

    @Test func extraDoseOnlyByConfirmedBoxctlAndDose2TimeStays() {
        var h = Harness()
        h.takeDose1()
        #expect(isRefused(h.cli(.extraDose(confirmed: true)), "409_DOSE2_NOT_TAKEN"))
        h.at(minutesAfterDose1: 170)
        h.press(.single)
        let dose2 = h.state.night.dose2
        #expect(isRefused(h.press(.single), "409_ALREADY_TAKEN"))
        #expect(isRefused(h.send(.extraDose(confirmed: true), from: .button("dose")), "403_EXTRA_DOSE_CLI_ONLY"))
        #expect(isRefused(h.cli(.extraDose(confirmed: false)), "428_CONFIRMATION_REQUIRED"))
        h.advance(minutes: 10)
        #expect(h.cli(.extraDose(confirmed: true)) == .accepted(.recorded(.extraDose)))
        #expect(h.state.night.dose2 == dose2)
        #expect(h.state.night.extraDoses.count == 1)
        #expect(h.state.night.extraDoses[0].metadata.isExtraDose == true)
        #expect(h.state.night.nextDoseIndex == 4)
    }

    @Test func duplicateTapsNeverMakeDuplicateDoses() {
        var h = Harness()
        h.takeDose1()
        h.press(.single) // a second tap a moment later: early confirmation, not a dose
        h.press(.single)
        h.cli(.takeDose(confirmed: false))
        #expect(h.liveDoses.filter { $0.type == .dose1 }.count == 1)
        h.at(minutesAfterDose1: 170)
        h.press(.single)
        h.press(.single)
        h.cli(.takeDose(confirmed: true))
        #expect(h.liveDoses.filter { $0.type == .dose2 }.count == 1)
    }
}
