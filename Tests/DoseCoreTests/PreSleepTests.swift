import BoxWords
import Foundation
import Testing
@testable import DoseCore

/// #33, tonight's pre-sleep log (schema v6 `pre_sleep_logs`): one per evening, each answer
/// replaced when given again, closed at Dose 1, its drinks counted by the alcohol guard.
@Suite struct PreSleepTests {
    var logs: (Harness) -> [PreSleepLog] = { h in h.persisted.compactMap { if case .preSleep(let p) = $0 { p } else { nil } } }

    @Test func anEditReplacesWhatIsGivenAndKeepsTheRest() {
        var h = Harness()
        #expect(h.cli(.logPreSleep(PreSleepAnswers(caffeineCups: 2, stressLevel: 4))) != .ignored)
        h.advance(.minutes(10))
        h.cli(.logPreSleep(PreSleepAnswers(exerciseType: .light, stressLevel: 6)))
        #expect(logs(h).count == 2 && logs(h)[0].id == logs(h)[1].id, "the same evening's entry, written again")
        let a = logs(h)[1].answers
        #expect(a.caffeineCups == 2 && a.stressLevel == 6 && a.exerciseType == .light && a.alcoholDrinks == nil)
        #expect(logs(h)[1].sessionDate == "2026-11-21" && logs(h)[1].completedAt == h.now.wall)
    }

    @Test func afterDose1ItIsTheEveningBefore() {
        var h = Harness()
        h.takeDose1()
        #expect(isRefused(h.cli(.logPreSleep(PreSleepAnswers(stressLevel: 3))), "409_DOSE1_TAKEN") && logs(h).isEmpty)
    }

    @Test(arguments: [
        PreSleepAnswers(caffeineCups: -1), PreSleepAnswers(caffeineCups: 21), PreSleepAnswers(alcoholDrinks: 31),
        PreSleepAnswers(exerciseDuration: 601), PreSleepAnswers(stressLevel: 0), PreSleepAnswers(stressLevel: 11),
    ])
    func anAnswerOutOfRangeIsRefused(answers: PreSleepAnswers) {
        var h = Harness()
        #expect(isRefused(h.cli(.logPreSleep(answers)), "400_INVALID_PRESLEEP") && logs(h).isEmpty)
    }

    @Test(arguments: [
        PreSleepAnswers(caffeineCups: 0), PreSleepAnswers(caffeineCups: 20), PreSleepAnswers(alcoholDrinks: 30),
        PreSleepAnswers(exerciseDuration: 600), PreSleepAnswers(stressLevel: 1), PreSleepAnswers(stressLevel: 10),
    ])
    func anAnswerAtItsEdgeIsSaved(answers: PreSleepAnswers) {
        var h = Harness()
        #expect(h.cli(.logPreSleep(answers)) != .ignored && logs(h).count == 1)
    }

    /// Its drinks count for tonight's Dose 1 (the larger of its count and the drinks logged one by one).
    @Test func itsDrinksMakeDose1AskFirst() {
        var h = Harness()
        h.cli(.logPreSleep(PreSleepAnswers(alcoholDrinks: 2)))
        h.cli(.logDrink(.beer, units: nil, at: nil))
        #expect(h.state.drinksBefore(h.now) == 2)
        #expect(h.cli(.takeDose(confirmed: false)) == .refused(.alcoholLogged(drinks: 2)))
        h.cli(.logPreSleep(PreSleepAnswers(alcoholDrinks: 0)))
        #expect(h.state.drinksBefore(h.now) == 1, "the drink logged one by one still counts")
        #expect(h.cli(.takeDose(confirmed: true)) == .accepted(.recorded(.dose1)))
        #expect(h.doses.map(\.metadata.alcoholDrinks) == [1])
    }

    @Test func anotherEveningsDrinksDoNotCount() {
        var h = Harness()
        h.send(.restorePreSleep(PreSleepLog(id: "p", sessionDate: "2026-11-20", completedAt: h.now.wall.addingTimeInterval(-3600),
                                            answers: PreSleepAnswers(alcoholDrinks: 3))), from: .system)
        #expect(h.state.drinksBefore(h.now) == 0)
        #expect(h.press(.single) == .accepted(.recorded(.dose1)))
    }
}
