import BoxWords
import Foundation
import Testing
@testable import DoseCore

/// #15's sentences (SSOT 2.4.3 "Accessibility": the announcements, "Dose 1 taken at 10:30 PM",
/// "Dose window closing in 5 minutes"), as strings, from the state and the time.
@Suite struct SpeechTests {
    let zone = Harness.tz

    @Test func timesAreSaidInThePatientsZoneAndStyle() {
        let at = { (h: Int, m: Int) in SessionRules.calendar(Harness.tz).date(from: DateComponents(year: 2026, month: 11, day: 22, hour: h, minute: m))! }
        #expect(Speech.time(at(22, 2), in: zone, .twelveHour) == "10:02 PM")
        #expect(Speech.time(at(0, 47), in: zone, .twelveHour) == "12:47 AM")
        #expect(Speech.time(at(12, 0), in: zone, .twelveHour) == "12:00 PM")
        #expect(Speech.time(at(0, 47), in: zone, .twentyFourHour) == "00:47")
        #expect(Speech.duration(.minutes(72)) == "1 hour 12 minutes")
        #expect(Speech.duration(.minutes(120)) == "2 hours")
        #expect(Speech.duration(.minutes(41.9)) == "41 minutes")
        #expect(Speech.duration(.minutes(1)) == "1 minute")
        #expect(Speech.duration(.seconds(30)) == "less than a minute")
    }

    @Test func theStatusThroughTheNight() {
        var h = Harness()  // 22:00 EST
        #expect(Speech.status(h.state, at: h.now, style: .twelveHour) == "No dose yet tonight. Press once to take Dose 1.")
        h.takeDose1()
        h.at(minutesAfterDose1: 78)
        #expect(Speech.status(h.state, at: h.now, style: .twelveHour) == "Dose 1 at 10:00 PM. Dose 2 from 12:30 AM, in 1 hour 12 minutes.")
        h.at(minutesAfterDose1: 199)
        #expect(Speech.status(h.state, at: h.now, style: .twelveHour) == "Dose 1 at 10:00 PM. Window open. Take Dose 2 now; 41 minutes left. 3 snoozes left.")
        #expect(Speech.status(h.state, at: h.now, style: .twentyFourHour) == "Dose 1 at 22:00. Window open. Take Dose 2 now; 41 minutes left. 3 snoozes left.")
        h.press(.double) // a snooze: one fewer
        #expect(Speech.status(h.state, at: h.now, style: .twelveHour).hasSuffix("; 41 minutes left. 2 snoozes left."))
        h.at(minutesAfterDose1: 226) // 14 minutes left: no snooze now, so none is offered
        #expect(Speech.status(h.state, at: h.now, style: .twelveHour) == "Dose 1 at 10:00 PM. Window open. Take Dose 2 now; 14 minutes left.")
        h.at(minutesAfterDose1: 241)
        #expect(Speech.status(h.state, at: h.now, style: .twelveHour) == "Dose 1 at 10:00 PM. The Dose 2 window has closed. Do not take Dose 2 without confirming.")
    }

    @Test func aNightWithDose2SaysGoodNight() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 167)
        h.press(.single)
        #expect(Speech.status(h.state, at: h.now, style: .twelveHour) == "Dose 2 taken at 12:47 AM. Good night.")
        #expect(Speech.recorded(.dose2, at: h.now.wall, in: zone, style: .twelveHour) == "Dose 2 taken at 12:47 AM. Good night.")
        #expect(Speech.recorded(.dose1, at: Harness.start.wall, in: zone, style: .twelveHour) == "Dose 1 taken at 10:00 PM.")
    }

    @Test func everyAlertOfThePlanSaysItsMilestone() {
        // SSOT 2.4.3: window open, −30, −15, −5, −1 and the close; the hard stops (−2, −0.5)
        // and the wake alarm say how long is left. At target 165, each step's words at its own
        // moment (the box says them once the alarm has rung out, with the time left then):
        let said = AlarmPlan.make(targetMinutes: 165, rules: .box).steps
            .map { "\($0.offset.minutes) \(Speech.alert($0.kind, elapsed: $0.offset))" }
        #expect(said == [
            "150.0 Dose window open. Take Dose 2 now.",
            "160.0 Time for Dose 2. 1 hour 20 minutes left.",
            "165.0 Time for Dose 2. 1 hour 15 minutes left.",
            "167.0 Time for Dose 2. 1 hour 13 minutes left.",
            "169.0 Time for Dose 2. 1 hour 11 minutes left.",
            "171.0 Time for Dose 2. 1 hour 9 minutes left.",
            "210.0 Dose window closing in 30 minutes.",
            "225.0 Dose window closing in 15 minutes.",
            "235.0 Dose window closing in 5 minutes.",
            "238.0 Dose window closing in 2 minutes.",
            "239.0 Dose window closing in 1 minute.",
            "239.5 Dose window closing in less than a minute.",
            "240.0 Dose window closed.",
        ], "\(said)")
    }

    @Test func refusalsAreTheSeedsTextWithTheButtonsWords() {
        #expect(Speech.refusal(.needsConfirmation(.early), in: zone)
                == "The Dose 2 window is not open yet. Taking Dose 2 early needs confirmation; hold the button for 2 seconds to confirm.")
        #expect(Speech.refusal(.snoozeLimit(max: 3), in: zone) == "Maximum snoozes reached (3). Take dose now or skip.")
        #expect(!Speech.refusal(.recordInDoubt, in: zone).contains("--"))
    }

    @Test func faultsInTheWordsOfTheRoom() {
        #expect(Speech.fault(.gpioUnavailable) == "Sound is working, but the button is not. Check the cable.")
        #expect(Utterance.raised(.audioUnavailable) == nil, "a broken speaker cannot say so")
        #expect(Speech.fault(.buttonStuck("dose")) == "The dose button seems stuck down. Check it.")
    }
}
