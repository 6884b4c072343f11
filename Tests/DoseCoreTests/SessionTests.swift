import Foundation
import Testing
@testable import DoseCore

@Suite struct SessionTests {
    static let tz = Harness.tz
    static func local(_ text: String) -> Date {
        // "2026-11-21 22:00" in America/New_York
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = tz
        let p = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map { Int($0)! }
        return cal.date(from: DateComponents(year: p[0], month: p[1], day: p[2], hour: p[3], minute: p[4]))!
    }

    @Test(arguments: [
        ("2026-11-21 22:00", "2026-11-21"), ("2026-11-22 01:30", "2026-11-21"), ("2026-11-22 17:59", "2026-11-21"),
        ("2026-11-22 18:00", "2026-11-22"), ("2026-03-08 03:30", "2026-03-07"), ("2027-01-01 00:10", "2026-12-31"),
    ])
    func sessionKeyRollsOverAt18(local text: String, key: String) {
        #expect(SessionRules.sessionKey(for: Self.local(text), timeZone: Self.tz, rolloverHour: 18) == key)
    }

    @Test func fallbackBoundariesOfANightStartedAt22() {
        let start = Self.local("2026-11-21 22:00")
        let rules = DoseConstants.box.session
        #expect(SessionRules.missedCheckInCutoff(sessionStart: start, timeZone: Self.tz, rules: rules) == Self.local("2026-11-22 11:00"))
        #expect(SessionRules.prepRollover(sessionStart: start, timeZone: Self.tz, rules: rules) == Self.local("2026-11-22 18:00"))
        let morning = Self.local("2026-11-22 08:00")
        let close = SessionRules.fallbackClose(sessionStart: morning, timeZone: Self.tz, rules: rules)
        #expect(close.at == Self.local("2026-11-22 18:00"))
        #expect(close.reason == .prepTimeRollover)
    }

    @Test func theMissedCheckInCutoffClosesAnExpiredNight() {
        var h = Harness()
        h.takeDose1()
        h.now = Moment(wall: Self.local("2026-11-22 10:59"), boot: "boot-A", monoNanos: h.now.monoNanos + 779 * 60_000_000_000)
        h.send(.tick, from: .system)
        #expect(h.state.night.isOpen)
        h.advance(minutes: 1)
        #expect(!h.state.night.isOpen)
        #expect(h.state.night.closure?.terminalState == .expired)
        #expect(h.state.night.closure?.reason == .missedCheckInCutoff)
        #expect(h.phase == .completed) // until the 18:00 rollover
    }

    @Test func theNextPressTheNextEveningStartsANewSession() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 170)
        h.press(.single)
        let first = h.state.night.session!.id
        h.now = Moment(wall: Self.local("2026-11-22 22:00"), boot: "boot-A", monoNanos: h.now.monoNanos + 24 * 3_600_000_000_000)
        #expect(h.press(.single) == .accepted(.recorded(.dose1)))
        #expect(h.state.night.session!.id != first)
        #expect(h.state.night.session!.date == "2026-11-22")
        let closed = h.persisted.compactMap { if case .sessionClosed(let c) = $0 { c } else { nil } }
        #expect(closed.map(\.terminalState) == [.completed])
    }

    static func afternoon(_ text: String) -> Harness {
        Harness(now: Moment(wall: local(text), boot: "boot-A", monoNanos: 1))
    }

    /// Both clocks to a local wall time, and a tick.
    static func jump(_ h: inout Harness, to text: String) {
        let wall = local(text)
        h.now = Moment(wall: wall, boot: "boot-A", monoNanos: h.now.monoNanos + Int64(wall.timeIntervalSince(h.now.wall) * 1e9))
        h.send(.tick, from: .system)
    }

    /// Dose 1 at 16:30, its window running at the 18:00 prep time: that rollover does not end
    /// the night, Dose 2 at 19:20 reads completed (not "no dose yet tonight"), a press later
    /// that evening is refused as Dose 2 already taken, and the night closes the next morning
    /// like any other (found by the virtual box when CI ran at 18:20 in New York).
    @Test func aWindowAcrossTheRolloverKeepsItsNight() {
        var h = Self.afternoon("2026-11-22 16:30")
        h.takeDose1()
        h.at(minutesAfterDose1: 100) // 18:10
        #expect(h.state.night.isOpen)
        #expect(h.phase == .beforeWindow)
        h.at(minutesAfterDose1: 170) // 19:20
        #expect(h.press(.single) == .accepted(.recorded(.dose2)))
        h.advance(minutes: 1)
        #expect(h.state.night.isOpen)
        #expect(h.phase == .completed)
        Self.jump(&h, to: "2026-11-22 22:00")
        #expect(isRefused(h.press(.single), "409_ALREADY_TAKEN"))
        Self.jump(&h, to: "2026-11-23 10:59")
        #expect(h.state.night.isOpen)
        h.advance(minutes: 1) // 11:00, the missed check-in cutoff
        #expect(h.state.night.closure?.reason == .missedCheckInCutoff)
        #expect(h.state.night.closure?.terminalState == .completed)
        h.advance(minutes: 419) // 17:59
        #expect(h.phase == .completed)
        h.advance(minutes: 1) // 18:00: the next evening
        #expect(h.phase == .noDose1)
    }

    /// The same afternoon Dose 1 and no Dose 2: the window closes at 20:30 and the night
    /// stays open (red, late Dose 2 with a confirmation) until the next morning's cutoff.
    @Test func aMissedWindowAcrossTheRolloverClosesTheNextMorning() {
        var h = Self.afternoon("2026-11-22 16:30")
        h.takeDose1()
        h.at(minutesAfterDose1: 241) // 20:31
        #expect(h.state.night.isOpen)
        #expect(h.phase == .closed)
        #expect(h.state.fallbackClose()?.at == Self.local("2026-11-23 11:00"))
        #expect(h.state.fallbackClose()?.reason == .missedCheckInCutoff)
    }

    /// Dose 2 resolved before 18:00 (Dose 1 at 15:00, Dose 2 at 17:40): the window no longer
    /// runs at the rollover, which ends the night as SSOT 3.0's fallback B says; so does it
    /// for a window that closed before 18:00 (Dose 1 at 13:00).
    @Test(arguments: [("2026-11-22 15:00", 160.0), ("2026-11-22 13:00", 170.0)])
    func aNightDoneBeforeTheRolloverEndsAtIt(dose1 text: String, dose2 minutes: Double) {
        var h = Self.afternoon(text)
        h.takeDose1()
        h.at(minutesAfterDose1: minutes)
        #expect(h.press(.single) == .accepted(.recorded(.dose2)))
        #expect(h.state.fallbackClose()?.at == Self.local("2026-11-22 18:00"))
        Self.jump(&h, to: "2026-11-22 17:59")
        #expect(h.state.night.isOpen)
        Self.jump(&h, to: "2026-11-22 18:00")
        #expect(h.state.night.closure?.reason == .prepTimeRollover)
        #expect(h.phase == .noDose1)
    }

    @Test func sleepEventCooldowns() {
        var h = Harness()
        #expect(h.cli(.logSleepEvent(.bathroom, notes: nil)) == .accepted(.loggedSleepEvent(.bathroom)))
        h.advance(.seconds(59))
        #expect(isRefused(h.cli(.logSleepEvent(.bathroom, notes: nil)), "425_EVENT_COOLDOWN"))
        #expect(h.cli(.logSleepEvent(.anxiety, notes: nil)) == .accepted(.loggedSleepEvent(.anxiety)))
        #expect(h.cli(.logSleepEvent(.anxiety, notes: nil)) == .accepted(.loggedSleepEvent(.anxiety)))
        h.advance(.seconds(1))
        #expect(h.cli(.logSleepEvent(.bathroom, notes: nil)) == .accepted(.loggedSleepEvent(.bathroom)))
        h.cli(.logSleepEvent(.wakeFinal, notes: nil))
        h.advance(minutes: 59)
        #expect(isRefused(h.cli(.logSleepEvent(.wakeFinal, notes: nil)), "425_EVENT_COOLDOWN"))
        #expect(h.state.night.sleepEvents.count == 5)
        #expect(h.state.night.dose1 == nil) // events open a session without a dose
    }

    @Test func aSecondButtonLogsSleepEvents() {
        var settings = BoxSettings(timeZone: Self.tz)
        settings.buttons["events"] = GestureMap(single: .log(.bathroom), double: .log(.water), hold: .log(.wakeFinal))
        var h = Harness(settings: settings)
        #expect(h.press(.single, button: "events") == .accepted(.loggedSleepEvent(.bathroom)))
        #expect(h.press(.double, button: "events") == .accepted(.loggedSleepEvent(.water)))
        #expect(h.press(.hold, button: "events") == .accepted(.loggedSleepEvent(.wakeFinal)))
        #expect(h.state.night.sleepEvents.map(\.source) == Array(repeating: .button("events"), count: 3))
        #expect(isRefused(h.press(.single, button: "nope"), "404_UNKNOWN_BUTTON"))
    }

    @Test func targetChangesNeedConfirmationAndAValidValue() {
        var h = Harness()
        #expect(isRefused(h.cli(.setTarget(minutes: 200, confirmed: true)), "400_INVALID_TARGET"))
        #expect(isRefused(h.cli(.setTarget(minutes: 180, confirmed: false)), "428_CONFIRMATION_REQUIRED"))
        h.takeDose1()
        #expect(h.cli(.setTarget(minutes: 180, confirmed: true)) == .accepted(.targetSet(180)))
        #expect(h.lastEffects.contains(.saveTarget(180)))
        #expect(h.state.plan.steps.first { $0.kind == .mainAlarm }?.offset == .minutes(180))
    }
}

@Suite struct FeedbackTests {
    static let steady: [LEDPattern] = [.slowPulse, .pulse, .fastBlink, .urgentBlink, .closedBlink, .slowGlow, .confirmEarly, .confirmLate, .fault,
                                       .doubt, .confirmDoubt, .checkIn, .confirmAlcohol]

    @Test func everySteadyPatternHasARhythmOfItsOwn() {
        #expect(Set(Self.steady.map(\.segments)).count == Self.steady.count)
        #expect(Self.steady.allSatisfy { $0.repeats && !$0.segments.isEmpty })
    }

    @Test func phasePatternsAreTheIssueOnes() {
        #expect(LEDPattern.forPhase(.noDose1) == .off)
        #expect(LEDPattern.forPhase(.beforeWindow).color == .blue)
        #expect(LEDPattern.forPhase(.active).color == .green)
        #expect(LEDPattern.forPhase(.nearClose).color == .red)
        #expect(LEDPattern.forPhase(.closed).color == .red)
        #expect(LEDPattern.forPhase(.finalizing).color == .white)
        #expect(LEDPattern.forPhase(.completed) == .off)
    }

    @Test func faultsShowOnTheLedButAPendingConfirmationShowsFirst() {
        var h = Harness()
        h.takeDose1()
        h.cli(.setFault(.audioUnavailable, active: true))
        #expect(h.lastEffects.contains(.led(.fault)))
        h.at(minutesAfterDose1: 130)
        h.press(.single)
        #expect(h.lastEffects.contains(.led(.confirmEarly)))
        h.cli(.setFault(.audioUnavailable, active: false))
        h.cli(.setFault(.clockUnsynced, active: true))
        h.advance(.seconds(20))
        #expect(h.lastEffects.contains(.led(.slowPulse)))
    }

    @Test func everyPressIsAcknowledgedAtOnce() {
        var h = Harness()
        h.press(.pressed)
        #expect(h.lastEffects == [.flash(.ack, duration: nil), .led(.off)])
    }

    @Test func aStuckButtonIsAFaultUntilItRecovers() {
        var h = Harness()
        h.press(.stuck)
        #expect(h.state.faults == [.buttonStuck("dose")])
        #expect(h.lastEffects.contains(.led(.fault)))
        h.press(.recovered)
        #expect(h.state.faults.isEmpty)
    }
}

/// Every stored timestamp is read back and written again (history, export, retiming): the
/// text must survive the round trip to the millisecond.
@Suite struct TimestampTextTests {
    @Test func storedTimestampsRoundTripToTheMillisecond() throws {
        for ms in [0, 1, 9, 10, 89, 99, 100, 500, 998, 999] {
            let text = "2026-11-03T21:46:03." + String(format: "%03d", ms) + "Z"
            let date = try #require(Date(iso8601: text))
            #expect(date.iso8601 == text)
        }
        // A live instant (microseconds) is rounded, and 999.6 ms carries into the next second.
        #expect(Date(timeIntervalSince1970: 1_700_000_000.0896).iso8601 == "2023-11-14T22:13:20.090Z")
        #expect(Date(timeIntervalSince1970: 1_700_000_000.9996).iso8601 == "2023-11-14T22:13:21.000Z")
    }
}
