import BoxWords
import Foundation
import Testing
@testable import DoseCore

/// Issue 16: where the box follows the seeds, and where it decided between them. Each test
/// cites the seed line it pins.
@Suite struct SeedFidelityTests {
    /// SSOT 2.4.3 (000_…, Notification Schedule): "30 min warning | 210 min | Yellow
    /// indicator", "15 min warning | 225 min | Red warning"; PRD "yellow → red". Closed keeps
    /// red but a rhythm of its own.
    @Test(arguments: [
        (209.99, LEDPattern.pulse), (210.0, .fastBlink), (224.99, .fastBlink),
        (225.0, .urgentBlink), (239.99, .urgentBlink), (240.0, .closedBlink),
    ])
    func theLEDEscalatesAt210_225_240(minute: Double, expected: LEDPattern) {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: minute)
        #expect(h.state.ledPattern(at: h.now) == expected)
    }

    @Test func closedIsNotTheRhythmOf15MinutesLeft() {
        #expect(LEDPattern.closedBlink.color == LEDPattern.urgentBlink.color)
        #expect(LEDPattern.closedBlink.segments != LEDPattern.urgentBlink.segments)
        #expect(LEDPattern.fastBlink.color == .yellow)
    }

    /// The LED changes at 210 on its own: 210 is a deadline the shell wakes for.
    @Test func theYellowEdgeIsADeadline() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 200) // the missed follow-up rings once, for a minute
        h.advance(minutes: 1)
        #expect(h.state.nextDeadline(at: h.now) == .minutes(9))
    }

    /// SSOT 2.4.3 (000_…, error table): `409_ALREADY_TAKEN` "This dose was already taken at
    /// [time]."; the seed's safety alert follows it. Cooldowns are not `429_RATE_LIMIT`
    /// ("Too many requests"), which is request throttling.
    @Test func refusalTextsAndCodes() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 170)
        h.press(.single)
        h.advance(.seconds(10))
        guard case .refused(let r) = h.press(.single) else { Issue.record("not refused"); return }
        #expect(r.code == "409_ALREADY_TAKEN")
        #expect(Written.refusal(r, in: Harness.tz) == "This dose was already taken at 00:50. STOP – another dose tonight is a health hazard.")
        h.cli(.logSleepEvent(.bathroom, notes: nil))
        guard case .refused(let c) = h.cli(.logSleepEvent(.bathroom, notes: nil)) else { Issue.record("not refused"); return }
        #expect(c.code == "425_EVENT_COOLDOWN")
        #expect(Written.refusal(c, in: Harness.tz) == "bathroom was logged moments ago; it can be logged again in 60 s.")
    }

    /// SSOT 3.0 (001_…): `is_late` when `timestamp > dose1 + 240` (strict), but also
    /// "nearClose -> closed: 240 minutes elapsed". Decision: 240:00 exactly is closed, so a
    /// dose then needs the late confirmation and is marked late (the conservative reading;
    /// 239:59.999 is still on time).
    @Test func exactly240IsClosedAndLate() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 240)
        #expect(h.phase == .closed)
        #expect(h.press(.single) == .accepted(.awaitingConfirmation(.late)))
        h.press(.confirmHold)
        #expect(h.liveDoses.last?.metadata.isLate == true)

        var g = Harness()
        g.takeDose1()
        g.at(minutesAfterDose1: 239.99)
        #expect(g.press(.single) == .accepted(.recorded(.dose2)))
    }

    /// SSOT 3.0 (001_…): "finalizing -> completed: morning check-in submitted". The closed
    /// night reads completed until the next night begins (the 18:00 rollover); a press
    /// still starts a new night.
    @Test func aCheckedInNightIsCompletedUntilTheRollover() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 170)
        h.press(.single)
        h.now = Harness.start.advanced(by: .minutes(9 * 60)) // 07:00
        h.cli(.logSleepEvent(.wakeFinal, notes: nil))
        h.cli(.checkIn(CheckInAnswers()))
        #expect(h.phase == .completed)
        h.advance(minutes: 10 * 60 + 59) // 17:59
        #expect(h.phase == .completed)
        h.advance(minutes: 1) // 18:00
        #expect(h.phase == .noDose1)
        #expect(h.press(.single) == .accepted(.recorded(.dose1)))
    }

    @Test func aPressAfterACheckInStartsANewNight() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 170)
        h.press(.single)
        h.now = Harness.start.advanced(by: .minutes(11 * 60)) // 09:00, 490 min after Dose 2
        h.cli(.checkIn(CheckInAnswers()))
        #expect(h.phase == .completed)
        #expect(h.press(.single) == .accepted(.recorded(.dose1)))
        #expect(h.phase == .beforeWindow)
    }
}
