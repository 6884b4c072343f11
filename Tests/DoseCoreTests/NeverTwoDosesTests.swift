import BoxWords
import Foundation
import Testing
@testable import DoseCore

/// Issue 18: the two doses are never taken together. Each test names the defect it pins.
@Suite struct NeverTwoDosesTests {
    /// Reproduction 1: a bounce (two presses 200 ms apart) then the natural undo hold.
    @Test func aDoubleTapThenAHoldRecordsOneDose() {
        var h = Harness()
        h.takeDose1()
        h.advance(.milliseconds(200))
        #expect(isRefused(h.press(.single), "409_ALREADY_TAKEN"))
        #expect(h.state.pending == nil)
        h.advance(.milliseconds(1100))
        h.press(.hold)
        h.advance(.seconds(1))
        h.press(.confirmHold)
        h.press(.releasedAfterHold)
        #expect(h.liveDoses.map(\.type) == [.dose1])
        #expect(h.phase == .beforeWindow)
        #expect(!h.state.plan.steps.isEmpty, "the night's alarms still stand")
    }

    /// Reproduction 2: a check-in at 165 min with Dose 2 owed, then `take`.
    @Test func aCheckInWithDose2OwedIsRefusedAndTheNextTakeIsDose2() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 165)
        let o = h.cli(.checkIn(CheckInAnswers(sleepQuality: 3)))
        #expect(isRefused(o, "409_DOSE2_OWED"))
        if case .refused(let r) = o { #expect(Written.refusal(r, in: Harness.tz).contains("window 00:30–02:00")) }
        #expect(h.state.night.isOpen)
        #expect(h.cli(.takeDose(confirmed: false)) == .accepted(.recorded(.dose2)))
        #expect(h.liveDoses.map(\.type) == [.dose1, .dose2])
    }

    @Test func aConfirmedCheckInRecordsTheSkipAndANewDose1SoonAfterNeedsAConfirmation() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 165)
        #expect(h.cli(.checkIn(CheckInAnswers(), confirmed: true)) == .accepted(.checkedIn(.skipped)))
        #expect(h.state.night.skip != nil)
        h.advance(minutes: 15)
        let o = h.cli(.takeDose(confirmed: false))
        #expect(isRefused(o, "428_CONFIRMATION_REQUIRED"))
        if case .refused(let r) = o { #expect(Written.refusal(r, in: Harness.tz).contains("180 minutes ago")) }
        #expect(isRefused(h.press(.single), "428_CONFIRMATION_REQUIRED"))
        #expect(h.sounds == [.stop])
        #expect(h.cli(.takeDose(confirmed: true)) == .accepted(.recorded(.dose1)))
    }

    /// The guard holds across a night opened by a sleep event after check-in, and ends at the interval.
    @Test func aNewDose1WithinTheIntervalOfTheLastDoseAcrossNightsNeedsAConfirmation() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 170)
        h.press(.single)
        h.advance(minutes: 10)
        #expect(h.cli(.checkIn(CheckInAnswers())) == .accepted(.checkedIn(.completed)))
        h.cli(.logSleepEvent(.bathroom, notes: nil)) // opens a new night
        #expect(h.state.night.isOpen && h.state.night.dose1 == nil)
        h.advance(minutes: 30)
        #expect(isRefused(h.press(.single), "428_CONFIRMATION_REQUIRED"))
        h.advance(minutes: 199) // 239 min after Dose 2
        #expect(isRefused(h.press(.single), "428_CONFIRMATION_REQUIRED"))
        h.advance(minutes: 1) // 240
        #expect(h.press(.single) == .accepted(.recorded(.dose1)))
    }

    /// The floor under Dose 2: 119 min is a repeat of Dose 1, 120 starts the early confirmation.
    @Test(arguments: [(30.0, false), (119.0, false), (119.99, false), (120.0, true), (149.0, true)])
    func noButtonRecordsDose2BeforeTheFloor(minute: Double, confirmable: Bool) {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: minute)
        let o = h.press(.single)
        if confirmable {
            #expect(o == .accepted(.awaitingConfirmation(.early)))
        } else {
            #expect(isRefused(o, "409_ALREADY_TAKEN"))
            #expect(h.sounds == [.alreadyRecorded])
            #expect(h.press(.confirmHold) == .ignored)
            #expect(h.liveDoses.map(\.type) == [.dose1])
        }
    }

    @Test func beforeTheFloorOnlyBoxctlWithConfirmRecordsDose2AndSaysHowEarly() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 45)
        #expect(isRefused(h.cli(.takeDose(confirmed: false)), "428_CONFIRMATION_REQUIRED"))
        let o = h.cli(.takeDose(confirmed: true))
        #expect(o == .accepted(.recordedEarly(minutesAfterDose1: 45)))
        if case .accepted(let a) = o {
            #expect(Written.acceptance(a, in: Harness.tz) == "Dose 2 recorded early: 45 minutes after Dose 1, 105 minutes before the window opens.")
        }
    }

    /// Item 5: naps do not overlap.
    @Test func aNapCannotStartWhileOneIsInProgress() {
        var h = Harness()
        #expect(h.cli(.logSleepEvent(.napStart, notes: nil)) == .accepted(.loggedSleepEvent(.napStart)))
        #expect(isRefused(h.cli(.logSleepEvent(.napStart, notes: nil)), "409_NAP_IN_PROGRESS"))
        #expect(isRefused(h.cli(.logSleepEvent(.napStart, notes: nil)), "409_NAP_IN_PROGRESS"))
        #expect(h.cli(.logSleepEvent(.napEnd, notes: nil)) == .accepted(.loggedSleepEvent(.napEnd)))
        #expect(isRefused(h.cli(.logSleepEvent(.napEnd, notes: nil)), "409_NO_NAP_IN_PROGRESS"))
        #expect(h.cli(.logSleepEvent(.napStart, notes: nil)) == .accepted(.loggedSleepEvent(.napStart)))
        #expect(h.state.night.sleepEvents.count == 3)
    }
}

/// Issue 17: when tonight's record is in doubt, nothing is recorded without a confirmation.
@Suite struct DoubtTests {
    @Test func inDoubtAPressStartsAConfirmationAndTheLEDAndAToneSaySo() {
        var h = Harness()
        #expect(h.send(.enterDoubt(since: h.now.wall), from: .system) == .accepted(.doubtEntered))
        #expect(h.sounds == [.warning])
        #expect(h.lastEffects.contains(.led(.doubt)))
        #expect(h.press(.single) == .accepted(.awaitingConfirmation(.doubt)))
        #expect(h.liveDoses.isEmpty)
        #expect(h.lastEffects.contains(.led(.confirmDoubt)))
        h.advance(.seconds(16)) // the confirmation times out: nothing recorded
        #expect(h.liveDoses.isEmpty)
        h.press(.single)
        h.advance(.seconds(2))
        #expect(h.press(.confirmHold) == .accepted(.recorded(.dose1)))
        #expect(h.state.doubt != nil, "the doubt lasts until the night ends")
    }

    @Test func inDoubtBoxctlTakeNeedsConfirm() {
        var h = Harness()
        h.send(.enterDoubt(since: h.now.wall), from: .system)
        let o = h.cli(.takeDose(confirmed: false))
        #expect(isRefused(o, "428_RECORD_IN_DOUBT"))
        if case .refused(let r) = o { #expect(Written.refusal(r, in: Harness.tz).hasPrefix(Written.doubt)) }
        #expect(h.cli(.takeDose(confirmed: true)) == .accepted(.recorded(.dose1)))
    }

    @Test func theDoubtEndsAtTheNextPrepTimeOrWhenTheNightCloses() {
        var h = Harness() // 22:00 local
        h.send(.enterDoubt(since: h.now.wall), from: .system)
        h.advance(.seconds(19 * 3600 + 59 * 60)) // 17:59 next day
        #expect(h.state.doubt != nil)
        h.advance(minutes: 1) // 18:00
        #expect(h.state.doubt == nil)
        #expect(h.press(.single) == .accepted(.recorded(.dose1)))

        var g = Harness()
        g.send(.enterDoubt(since: g.now.wall), from: .system)
        g.cli(.takeDose(confirmed: true))
        g.at(minutesAfterDose1: 170)
        g.cli(.takeDose(confirmed: true))
        g.advance(minutes: 10)
        g.cli(.checkIn(CheckInAnswers()))
        #expect(g.state.doubt == nil)
    }

    /// After a restart the shell sends the doubt again with its original time: it holds
    /// within the same night, and is over once that night closed or the rollover passed.
    @Test func aRestartKeepsTheDoubtOnlyWithinItsNight() {
        var h = Harness()
        let since = h.now.wall
        h.advance(minutes: 30)
        #expect(h.send(.enterDoubt(since: since), from: .system) == .accepted(.doubtEntered))
        #expect(h.state.doubt?.since == since)

        var closed = Harness()
        closed.takeDose1()
        closed.at(minutesAfterDose1: 170)
        closed.press(.single)
        closed.advance(minutes: 10)
        closed.cli(.checkIn(CheckInAnswers()))
        #expect(closed.send(.enterDoubt(since: Harness.start.wall), from: .system) == .ignored)
        #expect(closed.state.doubt == nil)

        var late = Harness()
        late.advance(.seconds(21 * 3600)) // 19:00 the next day: past the 18:00 rollover
        #expect(late.send(.enterDoubt(since: Harness.start.wall), from: .system) == .ignored)
    }
}
