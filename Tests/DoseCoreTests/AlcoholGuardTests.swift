import BoxWords
import Foundation
import Testing
@testable import DoseCore

/// #33: no Dose 1 after a logged drink without a confirmation. The XYWAV label warns that
/// alcohol with oxybate can slow breathing dangerously; a press asks first, and the confirm
/// hold (or `boxctl take --confirm`) records Dose 1 with the drinks noted on it.
@Suite struct AlcoholGuardTests {
    static let lookback = Duration.seconds(DoseConstants.box.safety.alcoholLookbackH * 3600)

    /// The evening's drinks, `ago` before now, told to the core as the shell would.
    static func harness(drinksAgo ago: [Duration], voice: Bool = true) -> Harness {
        var h = Harness(settings: BoxSettings(timeZone: Harness.tz, voice: VoiceSettings(enabled: voice)))
        h.send(.drinksChanged(ago.map { h.now.wall.addingTimeInterval(-$0.seconds) }), from: .system)
        return h
    }

    var dose1s: (Harness) -> [DoseRecord] = { h in h.doses.filter { $0.type == .dose1 } }

    @Test func withoutDrinksDose1IsRecordedAtTheFirstPress() {
        var h = Self.harness(drinksAgo: [])
        h.takeDose1()
        #expect(dose1s(h).map(\.metadata.alcoholDrinks) == [nil])
    }

    @Test func afterADrinkAPressAsksAndTheConfirmHoldRecordsWithTheDrinksNoted() {
        var h = Self.harness(drinksAgo: [.seconds(2 * 3600), .seconds(3600)])
        #expect(h.press(.single) == .accepted(.awaitingConfirmation(.alcohol)))
        #expect(dose1s(h).isEmpty, "nothing recorded at first")
        #expect(h.sounds == [.warning])
        #expect(h.lastEffects.contains(.led(.confirmAlcohol)))
        let said = h.lastEffects.compactMap { if case .speak(let u) = $0 { Speech.words(u) } else { nil } }
        #expect(said == ["You logged 2 drinks today. XYWAV must not be taken with alcohol. Hold the button for 2 seconds only if you are sure."])
        #expect(h.press(.hold) == .ignored, "on the way to the confirm hold")
        #expect(h.press(.confirmHold) == .accepted(.recorded(.dose1)))
        #expect(dose1s(h).map(\.metadata.alcoholDrinks) == [2])
    }

    /// The look-back's edge: a drink logged 12 h minus a second ago counts; 12 h ago, not.
    @Test func theLookbacksEdge() {
        var inside = Self.harness(drinksAgo: [Self.lookback - .seconds(1)])
        #expect(inside.press(.single) == .accepted(.awaitingConfirmation(.alcohol)))
        var outside = Self.harness(drinksAgo: [Self.lookback])
        #expect(outside.press(.single) == .accepted(.recorded(.dose1)))
    }

    @Test func overSSHItIsARefusalThatConfirmAnswers() {
        var h = Self.harness(drinksAgo: [.seconds(600)])
        let o = h.cli(.takeDose(confirmed: false))
        #expect(o == .refused(.alcoholLogged(drinks: 1)) && dose1s(h).isEmpty)
        #expect(Speech.refusal(.alcoholLogged(drinks: 1), in: Harness.tz).contains("XYWAV must not be taken with alcohol"))
        #expect(h.cli(.takeDose(confirmed: true)) == .accepted(.recorded(.dose1)))
        #expect(dose1s(h).map(\.metadata.alcoholDrinks) == [1])
    }

    /// Unanswered, the question lapses after 15 s and nothing is recorded; a later press asks again.
    @Test func anUnansweredQuestionRecordsNothing() {
        var h = Self.harness(drinksAgo: [.seconds(600)])
        h.press(.single)
        h.advance(.seconds(DoseConstants.box.gestures.confirmationWindowS))
        #expect(h.state.pending == nil && dose1s(h).isEmpty)
        #expect(h.press(.single) == .accepted(.awaitingConfirmation(.alcohol)))
    }

    /// With tonight's record in doubt too, the doubt is asked first, then the drinks; each hold
    /// answers one, and Dose 1 is recorded once, never in a loop of questions.
    @Test func withADoubtTooBothAreAskedInTurn() {
        var h = Self.harness(drinksAgo: [.seconds(600)])
        h.send(.enterDoubt(since: h.now.wall), from: .system)
        #expect(h.press(.single) == .accepted(.awaitingConfirmation(.doubt)))
        #expect(h.press(.confirmHold) == .accepted(.awaitingConfirmation(.alcohol)))
        h.press(.releasedAfterHold)
        h.press(.pressed)
        h.press(.hold)
        #expect(h.press(.confirmHold) == .accepted(.recorded(.dose1)))
        #expect(dose1s(h).count == 1)
    }
}

/// A drink logged after Dose 1 (#33): Dose 2 asks first too, and carries the drinks since Dose 1.
@Suite struct AlcoholGuardAtDose2Tests {
    @Test func inTheWindowAPressAsksAndTheConfirmHoldRecords() {
        var h = Harness()
        h.takeDose1()
        h.advance(minutes: 30)
        h.cli(.logDrink(.wine, units: nil, at: nil))
        h.at(minutesAfterDose1: 170)
        #expect(h.press(.single) == .accepted(.awaitingConfirmation(.alcohol)))
        #expect(h.doses.filter { $0.type == .dose2 }.isEmpty)
        let said = h.lastEffects.compactMap { if case .speak(let u) = $0 { Speech.words(u) } else { nil } }
        #expect(said.first?.hasPrefix("You logged 1 drink today. XYWAV must not be taken with alcohol.") == true)
        #expect(h.press(.confirmHold) == .accepted(.recorded(.dose2)))
        #expect(h.doses.filter { $0.type == .dose2 }.map(\.metadata.alcoholDrinks) == [1])
    }

    @Test func aDrinkBeforeDose1IsNotAskedAgainAtDose2() {
        var h = Harness()
        h.cli(.logDrink(.beer, units: nil, at: nil))
        h.cli(.takeDose(confirmed: true))
        h.at(minutesAfterDose1: 170)
        #expect(h.press(.single) == .accepted(.recorded(.dose2)))
    }

    /// Early and after a drink: the drink is asked first, then the early Dose 2; the first
    /// confirm hold's release keeps the second question, a second confirm hold answers it.
    @Test func earlyAfterADrinkAsksBothInTurn() {
        var h = Harness()
        h.takeDose1()
        h.advance(minutes: 1)
        h.cli(.logDrink(.beer, units: nil, at: nil))
        h.at(minutesAfterDose1: 140)
        #expect(h.press(.single) == .accepted(.awaitingConfirmation(.alcohol)))
        #expect(h.press(.confirmHold) == .accepted(.awaitingConfirmation(.early)))
        #expect(h.press(.releasedAfterHold) == .ignored, "the release of the hold that asked keeps the question")
        #expect(h.press(.confirmHold) == .accepted(.recordedEarly(minutesAfterDose1: 140)))
        #expect(h.doses.filter { $0.type == .dose2 }.map(\.metadata.alcoholDrinks) == [1])
    }

    @Test func overSSHARefusalThatConfirmAnswers() {
        var h = Harness()
        h.takeDose1()
        h.advance(minutes: 1)
        h.cli(.logDrink(.shot, units: nil, at: nil))
        h.at(minutesAfterDose1: 165)
        #expect(h.cli(.takeDose(confirmed: false)) == .refused(.alcoholLogged(drinks: 1)))
        #expect(h.cli(.takeDose(confirmed: true)) == .accepted(.recorded(.dose2)))
    }
}
