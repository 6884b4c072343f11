import Foundation
import Testing
@testable import DoseCore

/// #32: the morning by the button. A hold from the wake time on records wake-final and asks the
/// check-in; answers are counts of presses; a hold goes back (at the first question it stops),
/// the long hold saves ("done"), and silence stops it. Half a check-in saves nothing.
@Suite struct CheckInByButtonTests {
    static let gap = Duration.milliseconds(DoseConstants.box.checkin.answerGapMs)
    static let wait = Duration.seconds(DoseConstants.box.checkin.questionWaitS)

    /// Dose 1 at 22:00, Dose 2 at 00:45, and now 07:00 the next morning (the wake time).
    static func morning(voice: Bool = true) -> Harness {
        var h = Harness(settings: BoxSettings(timeZone: Harness.tz, voice: VoiceSettings(enabled: voice)))
        h.takeDose1()
        h.at(minutesAfterDose1: 165)
        #expect(h.press(.single) == .accepted(.recorded(.dose2)))
        h.now = Harness.start.advanced(by: .seconds(9 * 3600))
        h.send(.tick, from: .system)
        return h
    }

    static func said(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .speak(.accepted(.checkInStep(let s), _, _)) = $0 { "\(s)" } else { nil } }
    }

    var checkIns: (Harness) -> [CheckInRecord] = { h in h.persisted.compactMap { if case .checkIn(let c) = $0 { c } else { nil } } }

    @Test func fromTheWakeTimeAHoldWakesTheBoxAndAsksTheFirstQuestion() {
        var h = Self.morning()
        h.now = h.now.advanced(by: .seconds(-1)) // 06:59:59: a hold is still the status
        #expect(h.press(.hold) == .accepted(.status))
        #expect(h.state.checkIn == nil)
        h.now = h.now.advanced(by: .seconds(1))
        #expect(h.press(.hold) == .accepted(.checkInStep(.started(.sleepQuality))))
        #expect(h.persisted.contains { if case .sleepEvent(let e) = $0 { e.type == .wakeFinal } else { false } })
        #expect(h.sounds == [.success])
        #expect(h.lastEffects.contains(.led(.checkIn)))
        #expect(h.state.checkIn?.question == .sleepQuality)
        #expect(h.state.doubleIsMeaningful(button: "dose", at: h.now) == false, "a check-in counts presses: no double gap")
    }

    @Test func noMorningWhileTheWindowRunsOrWithoutDose1() {
        var none = Harness()
        none.now = Harness.start.advanced(by: .seconds(9 * 3600))
        #expect(none.press(.hold) == .accepted(.status), "no Dose 1: nothing to check in")

        // Dose 1 at 05:00: at 07:00 the window has not even opened.
        var late = Harness(now: Harness.start.advanced(by: .seconds(7 * 3600)))
        late.takeDose1()
        late.now = late.now.advanced(by: .seconds(2 * 3600))
        #expect(late.press(.hold) == .accepted(.status))
        #expect(late.state.checkIn == nil)
    }

    /// The whole Quick Mode and two flags, by presses: each answer said back, counted back on the
    /// LED, and saved as `boxctl checkin` saves, by the button, closing the night.
    @Test func aFullCheckInByPressesWithTwoFlags() {
        var h = Self.morning()
        h.askCheckIn()
        let counts = [4, 4, 2, 7, 4, 2, 1, 1, 1, 2]
        var flashes: [LEDPattern] = []
        for n in counts {
            h.answer(n)
            flashes += h.lastEffects.compactMap { if case .flash(let p, _) = $0, p.name.hasPrefix("count_") { p } else { nil } }
        }
        #expect(flashes == counts.map { LEDPattern.count($0) })
        let saved = checkIns(h)
        #expect(saved.count == 1)
        let a = saved.first?.answers
        #expect(a == CheckInAnswers(sleepQuality: 4, feelRested: .well, grogginess: .mild, mentalClarity: 7, mood: .good,
                                    flags: [.sleepParalysis, .confusionOnWaking]))
        #expect(saved.first?.source == .button("dose"))
        #expect(h.state.checkIn == nil)
        #expect(!h.state.night.isOpen, "the check-in closed the night")
        #expect(h.sounds == [.success])
        #expect(Self.said(h.lastEffects) == ["saved(last: Optional(DoseCore.CheckInQuestion.confusionOnWaking), presses: Optional(2), early: false)"])
    }

    /// The count becomes the answer 1.5 s after the last press, not before: a press 1.499 s
    /// after the last one still adds to it.
    @Test func theAnswerGapsEdge() {
        var h = Self.morning()
        h.askCheckIn()
        h.tap(1)
        h.advance(Self.gap - .milliseconds(1))
        #expect(h.state.checkIn?.counts.isEmpty == true)
        h.tap(1)
        h.advance(Self.gap - .milliseconds(1))
        #expect(h.state.checkIn?.presses == 2)
        #expect(h.state.nextDeadline(at: h.now) == .milliseconds(1), "the engine's timer decides the answer")
        h.advance(.milliseconds(1))
        #expect(h.state.checkIn?.counts == [.sleepQuality: 2])
        #expect(h.state.checkIn?.question == .feelRested)
    }

    @Test func aHoldGoesBackAndAtTheFirstQuestionStops() {
        var h = Self.morning()
        h.askCheckIn()
        h.answer(3)
        #expect(h.state.checkIn?.question == .feelRested)
        // Two presses, then a hold: the hold takes them back and, let go, goes back a question.
        h.tap(2)
        h.press(.pressed)
        #expect(h.press(.hold) == .ignored)
        #expect(h.state.checkIn?.presses == 0)
        h.now = h.now.advanced(by: .seconds(5)) // held: no answer is decided meanwhile
        #expect((h.state.nextDeadline(at: h.now) ?? .zero) > Self.wait, "only the night's own close is due")
        #expect(h.press(.releasedAfterHold) == .accepted(.checkInStep(.back(.sleepQuality))))
        #expect(h.sounds == [.warning])
        #expect(h.state.checkIn?.counts == [.sleepQuality: 3], "going back forgets nothing")
        h.press(.pressed)
        h.press(.hold)
        #expect(h.press(.releasedAfterHold) == .accepted(.checkInStep(.stopped(answered: 1))))
        #expect(h.state.checkIn == nil)
        #expect(checkIns(h).isEmpty, "a stopped check-in saves nothing")
        #expect(h.state.night.isOpen)
        #expect(h.state.night.wakeFinal != nil, "the wake-final stays")
    }

    /// "Done": the long hold saves what was answered and the seed's defaults for the rest.
    @Test func theLongHoldSavesWithTheSeedsDefaultsForTheRest() {
        var h = Self.morning()
        h.askCheckIn()
        h.answer(2)
        h.press(.pressed)
        h.press(.hold)
        h.press(.confirmHold)
        #expect(h.press(.skipHold) == .accepted(.checkInStep(.saved(last: nil, presses: nil, early: true))))
        #expect(h.press(.releasedAfterHold) == .ignored)
        #expect(checkIns(h).map(\.answers) == [CheckInAnswers(sleepQuality: 2)])
    }

    @Test func aCheckInAbandonedHalfWaySavesNothing() {
        var h = Self.morning()
        h.askCheckIn()
        for n in [4, 3] {
            h.answer(n)
        }
        h.advance(Self.wait - .milliseconds(1))
        #expect(h.state.checkIn != nil)
        h.advance(.milliseconds(1))
        #expect(h.state.checkIn == nil)
        #expect(h.sounds == [.warning])
        #expect(Self.said(h.lastEffects) == ["stopped(answered: 2)"])
        #expect(checkIns(h).isEmpty)

        // Asked and never answered: it lapses without a word ("or wait to check in later").
        h.askCheckIn()
        h.advance(Self.wait)
        #expect(h.state.checkIn == nil)
        #expect(h.sounds.isEmpty && Self.said(h.lastEffects).isEmpty)

        // A restart in the middle: the check-in lived in memory only.
        h.askCheckIn()
        h.answer(5)
        let rebuilt = BoxState.rebuilt(settings: h.state.settings, records: h.persisted)
        #expect(rebuilt.checkIn == nil)
        #expect(checkIns(h).isEmpty)
    }

    @Test func aCountOutOfRangeIsAskedAgain() {
        var h = Self.morning()
        h.askCheckIn()
        h.answer(6)
        #expect(h.sounds == [.error])
        #expect(Self.said(h.lastEffects) == ["outOfRange(DoseCore.CheckInQuestion.sleepQuality, presses: 6)"])
        #expect(h.state.checkIn?.question == .sleepQuality)
        #expect(h.state.checkIn?.counts.isEmpty == true)
        for n in [5, 5, 1] { h.answer(n) }
        #expect(h.state.checkIn?.question == .mentalClarity)
        h.answer(10)
        #expect(h.state.checkIn?.counts[.mentalClarity] == 10, "clarity goes to 10")
        h.answer(3)
        h.answer(3) // a flag is once or twice
        #expect(h.sounds == [.error])
        #expect(h.state.checkIn?.question == .sleepParalysis)
    }

    /// The hold that starts the check-in, kept down to the long hold and let go, does nothing
    /// more: it neither saves nor stops.
    @Test func theStartingHoldKeptDownDoesNothingMore() {
        var h = Self.morning()
        h.press(.pressed)
        h.press(.hold)
        #expect(h.press(.confirmHold) == .ignored)
        #expect(h.press(.skipHold) == .ignored)
        #expect(h.press(.releasedAfterHold) == .ignored)
        #expect(h.state.checkIn?.question == .sleepQuality)
        #expect(checkIns(h).isEmpty)
    }

    /// With the voice off nothing is said: the LED counts each answer back.
    @Test func withTheVoiceOffTheLEDCountsBack() {
        var h = Self.morning(voice: false)
        h.askCheckIn()
        h.answer(3)
        #expect(h.lastEffects.contains(.flash(.count(3), duration: nil)))
        #expect(!h.allEffects.contains { if case .speak = $0 { true } else { false } })
        #expect(LEDPattern.count(3).segments == [250, 250, 250, 250, 250])
    }

    /// A press just after the check-in is saved (the last answer pressed once too often) is
    /// never tomorrow's Dose 1: "already saved" for the question's wait; a press after that
    /// begins a new night as any press after a closed night does.
    @Test func aPressTooManyAfterTheCheckInIsNoDose() {
        var h = Self.morning()
        h.askCheckIn()
        h.press(.pressed)
        h.press(.hold)
        h.press(.confirmHold)
        h.press(.skipHold)
        h.press(.releasedAfterHold)
        #expect(!h.state.night.isOpen)
        h.advance(Self.wait - .milliseconds(1))
        h.press(.pressed)
        #expect(h.press(.single) == .accepted(.checkInStep(.alreadySaved)))
        #expect(h.sounds == [.alreadyRecorded])
        #expect(h.doses.filter { $0.type == .dose1 }.count == 1, "no new Dose 1")
        h.advance(.milliseconds(1))
        #expect(h.press(.single) == .accepted(.recorded(.dose1)), "after the wait, a press is a new night's Dose 1")
    }

    /// The recogniser and the reducer together, with bouncy presses: three presses, each with
    /// contact bounce, are three, and one press is no double.
    @Test func bouncyPressesThroughTheRecogniserCountRight() {
        var h = Self.morning()
        h.askCheckIn()
        var b = Button(doubleEnabled: h.state.doubleIsMeaningful(button: "dose", at: h.now))
        for i in 0..<3 {
            let t = i * 350
            b.down(t); b.up(t + 3); b.down(t + 6) // bounce on the way down
            b.up(t + 120); b.down(t + 124); b.up(t + 127) // and on the way up
        }
        b.wait(until: 3 * 350 + 200)
        for e in b.events { h.press(e.gesture) }
        #expect(b.count(.pressed) == 3, "\(b.log)")
        h.advance(Self.gap)
        #expect(h.state.checkIn?.counts == [.sleepQuality: 3])
    }
}

extension Harness {
    /// The morning hold, let go: the check-in's first question.
    mutating func askCheckIn() {
        press(.hold)
        press(.releasedAfterHold)
    }

    /// An answer: `n` presses, then the answer gap.
    mutating func answer(_ n: Int) {
        tap(n)
        advance(.milliseconds(DoseConstants.box.checkin.answerGapMs))
    }

    /// `n` quick presses of the dose button, 300 ms apart, as the recogniser gives them.
    mutating func tap(_ n: Int, button: String = "dose") {
        for i in 0..<n {
            if i > 0 { now = now.advanced(by: .milliseconds(300)) }
            press(.pressed, button: button)
            press(.single, button: button)
        }
    }
}
