import BoxWords
import DoseCore
import Foundation
import Testing

/// The seeds' own words, pinned where they are rendered: the written words (boxctl, status, the
/// bridge) and the spoken ones say the seed's text wherever the seed gives one (SSOT 2.4.3,
/// 000_…: "Error Codes & UX" and "Accessibility").
@Suite struct SeedTextsTests {
    static let zone = TimeZone(identifier: "America/New_York")!
    /// 00:50 in New York on 2026-11-23.
    static let at = SessionRules.calendar(zone).date(from: DateComponents(year: 2026, month: 11, day: 23, hour: 0, minute: 50))!

    /// The seed's error table: 422_WINDOW_EXCEEDED, 422_SNOOZE_LIMIT, 422_DOSE1_REQUIRED,
    /// 409_ALREADY_TAKEN ("This dose was already taken at [time]."), in both voices.
    @Test(arguments: [
        (Refusal.windowExceeded, "422_WINDOW_EXCEEDED", "Dose 2 window has expired. Please skip this dose."),
        (.snoozeLimit(max: 3), "422_SNOOZE_LIMIT", "Maximum snoozes reached (3). Take dose now or skip."),
        (.dose1Required, "422_DOSE1_REQUIRED", "Please take Dose 1 first."),
    ])
    func theErrorTablesMessages(refusal: Refusal, code: String, seed: String) {
        #expect(refusal.code == code)
        #expect(Written.refusal(refusal, in: Self.zone) == seed)
        #expect(Speech.refusal(refusal, in: Self.zone) == seed)
    }

    /// 409_ALREADY_TAKEN, then the seed's blocking alert ("STOP - Dose 2 Already Taken", with
    /// its health-hazard framing). The time is said the way each edge says a time.
    @Test func alreadyTakenSaysTheTimeEachWay() {
        let r = Refusal.dose2AlreadyTaken(at: Self.at)
        #expect(r.code == "409_ALREADY_TAKEN")
        #expect(Written.refusal(r, in: Self.zone) == "This dose was already taken at 00:50. STOP – another dose tonight is a health hazard.")
        #expect(Speech.refusal(r, in: Self.zone, style: .twelveHour)
                == "This dose was already taken at 12:50 AM. STOP – another dose tonight is a health hazard.")
    }

    /// "Accessibility": "Dose 1 taken at 10:30 PM", "Dose window closing in 5 minutes".
    @Test func theAnnouncementsExamples() {
        let d1 = SessionRules.calendar(Self.zone).date(from: DateComponents(year: 2026, month: 11, day: 22, hour: 22, minute: 30))!
        #expect(Speech.recorded(.dose1, at: d1, in: Self.zone, style: .twelveHour) == "Dose 1 taken at 10:30 PM.")
        let fiveLeft = Duration.minutes(DoseConstants.box.window.closeMin - 5)
        #expect(Speech.words(.alert(.hardStop, elapsed: fiveLeft, rules: .box)) == "Dose window closing in 5 minutes.")
    }

    /// Each edge asks for a confirmation its own way: the command line names its flag, the
    /// voice never does (a hand on the button has no flags).
    @Test(arguments: [
        Refusal.needsConfirmation(.early), .needsConfirmation(.late), .needsConfirmation(.doubt), .recordInDoubt,
        .targetNeedsConfirmation(180), .extraDoseNeedsConfirmation, .extraDoseOnlyFromCLI,
        .dose2Owed(windowOpens: at, windowCloses: at.addingTimeInterval(5400)),
        .tooSoonAfterLastDose(lastAt: at, minutesAgo: 30), .duplicateMedication(name: "Adderall IR", at: at),
    ])
    func aConfirmationIsAskedForInEachEdgesWords(refusal: Refusal) {
        #expect(Written.refusal(refusal, in: Self.zone).contains("--confirm"))
        let said = Speech.refusal(refusal, in: Self.zone)
        #expect(!said.contains("--") && !said.contains("boxctl"), "\(said)")
    }

    /// What the core hands over as facts comes out as one sentence with its numbers.
    @Test func problemsAreSaidFromTheirFacts() {
        #expect(Written.refusal(.invalidMedication(.dose(.notPositive)), in: Self.zone) == "Not logged: the dose must be positive.")
        #expect(Written.doseProblem(.outOfRange(unit: "mcg", minMg: 1.25, maxMg: 60, perUnit: 0.001))
                == "must be from 1.25 to 60 mg (1250 to 60000 mcg), the range of a real dose of Adderall")
        #expect(Written.refusal(.invalidSupply(.belowZero(wouldBe: -2, now: 3)), in: Self.zone)
                == "Not logged: the count would be -2; there are 3 doses.")
        #expect(Written.refusal(.invalidMedication(.inFuture(Self.at)), in: Self.zone) == "Not logged: 00:50 is in the future.")
    }

    /// Issue 19 item 10: the clock fault says what an unsynchronised clock really affects.
    @Test func theClockFaultDoesNotClaimTheWindowIsUnaffected() {
        let advice = Written.advice(.clockUnsynced)
        #expect(!advice.contains("not affected"))
        #expect(advice.contains("after a reboot the dose window is measured on this clock"))
    }
}
