import BoxWords
import Foundation
import Testing
@testable import DoseCore

/// #32: what the voice says in the morning: the night in a sentence, each question with the
/// presses that answer it, each answer said back, and the status before the wake time.
@Suite struct CheckInWordsTests {
    @Test func theNightsSummary() {
        var h = CheckInByButtonTests.morning()
        #expect(CheckInWords.summary(h.state, at: h.now) == "Good morning. Dose 1 at 10:00 PM; Dose 2 at 12:45 AM.")
        var skipped = Harness()
        skipped.takeDose1()
        skipped.at(minutesAfterDose1: 200)
        skipped.cli(.skipDose2(reason: .drowsy))
        #expect(CheckInWords.summary(skipped.state, at: skipped.now) == "Good morning. Dose 1 at 10:00 PM; Dose 2 skipped (drowsy).")
        var missed = Harness()
        missed.takeDose1()
        missed.at(minutesAfterDose1: 300)
        #expect(CheckInWords.summary(missed.state, at: missed.now) == "Good morning. Dose 1 at 10:00 PM; Dose 2 was not taken.")
        // Before the wake time (wake-final by boxctl), the status says when the hold asks.
        h.now = h.now.advanced(by: .seconds(-3600))
        h.cli(.logSleepEvent(.wakeFinal, notes: nil))
        #expect(Speech.status(h.state, at: h.now, style: .twelveHour) == "Good morning. From 7:00 AM, hold the button to check in.")
        #expect(Speech.status(h.state, at: h.now, style: .twentyFourHour) == "Good morning. From 07:00, hold the button to check in.")
    }

    @Test func everyQuestionSaysItsPressesAndEveryAnswerIsSaidBack() {
        #expect(CheckInWords.question(.sleepQuality) == "Question 1: how well did you sleep? Press 1 to 5 times; 5 is best.")
        #expect(CheckInWords.question(.mentalClarity) == "Question 4: how clear is your mind? 1 to 10; 10 is clearest.")
        #expect(CheckInWords.question(.fellOutOfBed) == "Question 9: Fell out of bed? Once for no, twice for yes.")
        for q in CheckInQuestion.allCases {
            #expect(CheckInWords.question(q).hasPrefix("Question \(q.number):"))
        }
        #expect(CheckInWords.echo(.sleepQuality, 4) == "Sleep 4 of 5.")
        #expect(CheckInWords.echo(.feelRested, 1) == "Rested: not at all.")
        #expect(CheckInWords.echo(.grogginess, 5) == "Groggy: cannot function.")
        #expect(CheckInWords.echo(.mentalClarity, 10) == "Clarity 10 of 10.")
        #expect(CheckInWords.echo(.mood, 3) == "Mood: neutral.")
        #expect(CheckInWords.echo(.hallucinations, 2) == "Hallucinations: yes.")
        #expect(CheckInWords.echo(.confusionOnWaking, 1) == "Confusion on waking: no.")
    }

    /// The press counts are the seeds' scales in order, and the flags their column names.
    @Test func pressCountsMapOntoTheSeedsScales() {
        let a = CheckInQuestion.answers([.sleepQuality: 1, .feelRested: 5, .grogginess: 1, .mentalClarity: 10, .mood: 5,
                                         .sleepParalysis: 2, .hallucinations: 1, .automaticBehavior: 2, .fellOutOfBed: 1, .confusionOnWaking: 2])
        #expect(a == CheckInAnswers(sleepQuality: 1, feelRested: .veryWell, grogginess: .none, mentalClarity: 10, mood: .great,
                                    flags: [.sleepParalysis, .automaticBehavior, .confusionOnWaking]))
        #expect(CheckInQuestion.answers([:]) == CheckInAnswers(), "nothing answered: the seed's defaults")
        #expect(NarcolepsyFlag.allCases.map(\.rawValue)
            == ["had_sleep_paralysis", "had_hallucinations", "had_automatic_behavior", "fell_out_of_bed", "had_confusion_on_waking"])
    }
}
