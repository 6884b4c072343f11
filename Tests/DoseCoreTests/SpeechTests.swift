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
        #expect(Speech.status(h.state, at: h.now, style: .twelveHour) == "Dose 1 at 10:00 PM. Window open. Take Dose 2 now; 41 minutes left.")
        #expect(Speech.status(h.state, at: h.now, style: .twentyFourHour) == "Dose 1 at 22:00. Window open. Take Dose 2 now; 41 minutes left.")
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

    @Test func theWindowsMilestonesAreTheSeeds() {
        // Window open (90 min before the close), −30, −15, −5, −1 and the close; nothing else.
        #expect(Speech.milestone(minutesLeft: 90) == "Dose window open. Take Dose 2 now.")
        #expect(Speech.milestone(minutesLeft: 30) == "Dose window closing in 30 minutes.")
        #expect(Speech.milestone(minutesLeft: 5) == "Dose window closing in 5 minutes.")
        #expect(Speech.milestone(minutesLeft: 1) == "Dose window closing in 1 minute.")
        #expect(Speech.milestone(minutesLeft: 0) == "Dose window closed.")
        let spoken = stride(from: 0.0, through: 120, by: 0.5).filter { Speech.milestone(minutesLeft: $0) != nil }
        #expect(spoken == [0, 1, 5, 15, 30, 90])
    }

    @Test func refusalsAreTheSeedsTextWithTheButtonsWords() {
        #expect(Speech.refusal(.needsConfirmation(.early), in: zone)
                == "The Dose 2 window is not open yet. Taking Dose 2 early needs confirmation; hold the button for 2 seconds to confirm.")
        #expect(Speech.refusal(.snoozeLimit(max: 3), in: zone) == "Maximum snoozes reached (3). Take dose now or skip.")
        #expect(!Speech.refusal(.recordInDoubt, in: zone).contains("--"))
    }

    @Test func faultsInTheWordsOfTheRoom() {
        #expect(Speech.fault(.gpioUnavailable) == "Sound is working, but the button is not. Check the cable.")
        #expect(Speech.fault(.audioUnavailable) == nil, "a broken speaker cannot say so")
        #expect(Speech.fault(.buttonStuck("dose")) == "The dose button seems stuck down. Check it.")
    }
}
