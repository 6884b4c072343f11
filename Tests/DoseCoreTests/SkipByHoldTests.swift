import Foundation
import Testing
@testable import DoseCore

/// #32: Dose 2 skipped at the bedside by a long hold of the dose button (SSOT 2.4.3: Skip on
/// the window-open alert and the hard-stop alarms), never by a hold meant to stop an alarm.
@Suite struct SkipByHoldTests {
    static let skipMs = DoseConstants.box.gestures.skipHoldMs

    static func harness(voice: Bool) -> Harness {
        Harness(settings: BoxSettings(timeZone: Harness.tz, voice: VoiceSettings(enabled: voice)))
    }

    /// The recogniser at the skip hold's edge: released 1 ms before it, no skip hold; held to
    /// it, one, while still held, and the release after it is only a release.
    @Test func theSkipHoldFiresOnlyWhenHeldToItsTime() {
        var early = Button(doubleEnabled: true)
        early.down(0)
        early.wait(until: Self.skipMs - 1)
        early.up(Self.skipMs - 1)
        early.wait(until: Self.skipMs + 5000)
        #expect(early.count(.skipHold) == 0, "\(early.log)")

        var held = Button(doubleEnabled: true)
        held.down(0)
        held.wait(until: Self.skipMs - 1)
        #expect(held.count(.skipHold) == 0)
        held.wait(until: Self.skipMs)
        #expect(held.log == ["pressed@0", "hold@1000", "confirm_hold@2000", "skip_hold@\(Self.skipMs)"])
        held.up(Self.skipMs + 400)
        #expect(held.log.last == "released_after_hold@\(Self.skipMs + 400)")
    }

    /// The whole path, recogniser and reducer: an alarm ringing in the window, a hold that stops
    /// it and lets go at once records nothing; neither does one let go a millisecond before the
    /// skip hold. Held to it, with the voice off, Dose 2 is skipped (reason `other`) with the
    /// skip's own sound at that moment.
    @Test func aHoldThatStopsAnAlarmAndLetsGoNeverSkips() {
        for releaseMs in [1100, Self.skipMs - 1, Self.skipMs] {
            var h = Self.harness(voice: false)
            h.takeDose1()
            h.at(minutesAfterDose1: 165) // the main alarm rings
            #expect(h.state.ringing != nil)
            var b = Button(doubleEnabled: true)
            var sounds: [Sound] = []
            b.down(0)
            b.wait(until: releaseMs)
            b.up(releaseMs)
            b.wait(until: releaseMs + 1000)
            for e in b.events {
                h.press(e.gesture)
                sounds += h.sounds
            }
            #expect(h.state.ringing == nil, "the hold stopped the alarm")
            let skipped = h.doses.filter { $0.type == .dose2Skipped }
            if releaseMs < Self.skipMs {
                #expect(skipped.isEmpty, "released at \(releaseMs) ms: \(b.log)")
                #expect(!sounds.contains(.skipHold))
            } else {
                #expect(skipped.map(\.metadata.reason) == ["other"], "held to \(releaseMs) ms: \(b.log)")
                #expect(sounds.contains(.skipHold))
            }
        }
    }

    @Test func withTheVoiceTheReasonIsAskedAndNothingIsRecordedUntilTheAnswer() {
        for (answer, reason) in [(Gesture.single, "drowsy"), (.double, "side_effects")] {
            var h = Self.harness(voice: true)
            h.takeDose1()
            h.at(minutesAfterDose1: 170)
            #expect(h.press(.skipHold) == .accepted(.skipReasonAsked))
            #expect(h.sounds == [.skipHold])
            #expect(h.lastEffects.contains { if case .speak(.accepted(.skipReasonAsked, _, _)) = $0 { true } else { false } })
            #expect(h.press(.releasedAfterHold) == .ignored)
            #expect(h.doses.filter { $0.type == .dose2Skipped }.isEmpty, "nothing recorded while asked")
            #expect(h.state.doubleIsMeaningful(button: "dose", at: h.now), "two presses must be waited for")
            #expect(h.press(answer) == .accepted(.recorded(.dose2Skipped)))
            #expect(h.doses.filter { $0.type == .dose2Skipped }.map(\.metadata.reason) == [reason])
            #expect(h.state.skipQuestion == nil)
        }
    }

    @Test func waitingIsAnAnswerAndAHoldCancels() {
        var h = Self.harness(voice: true)
        h.takeDose1()
        h.at(minutesAfterDose1: 200)
        h.press(.skipHold)
        let wait = Duration.seconds(DoseConstants.box.gestures.skipReasonWaitS)
        #expect(h.state.nextDeadline(at: h.now) == wait, "the engine's timer ends the wait")
        h.advance(wait - .milliseconds(1))
        #expect(h.doses.filter { $0.type == .dose2Skipped }.isEmpty)
        h.advance(.milliseconds(1))
        #expect(h.doses.filter { $0.type == .dose2Skipped }.map(\.metadata.reason) == ["other"])
        #expect(h.sounds == [.success], "the skip is told when it is recorded")

        var c = Self.harness(voice: true)
        c.takeDose1()
        c.at(minutesAfterDose1: 200)
        c.press(.skipHold)
        #expect(c.press(.hold) == .accepted(.skipCancelled))
        // The cancelling hold kept down past 3 s does not ask again; a new long hold does.
        #expect(c.press(.confirmHold) == .ignored)
        #expect(c.press(.skipHold) == .ignored)
        #expect(c.press(.releasedAfterHold) == .ignored)
        #expect(c.state.skipQuestion == nil)
        c.press(.pressed)
        #expect(c.press(.skipHold) == .accepted(.skipReasonAsked))
        #expect(c.press(.hold) == .accepted(.skipCancelled))
        c.advance(.minutes(1))
        #expect(c.doses.filter { $0.type == .dose2Skipped }.isEmpty, "a cancelled skip records nothing, then or later")
        #expect(c.press(.single) == .accepted(.recorded(.dose2)), "and the button takes Dose 2 again")
    }

    /// Only in the window with Dose 2 owed, and only on the dose button.
    @Test func theLongHoldSkipsNothingOutsideTheWindow() {
        var h = Self.harness(voice: false)
        #expect(h.press(.skipHold) == .ignored, "no Dose 1")
        h.takeDose1()
        h.at(minutesAfterDose1: 149)
        #expect(h.press(.skipHold) == .ignored, "before the window")
        h.at(minutesAfterDose1: 160)
        #expect(h.press(.single) == .accepted(.recorded(.dose2)))
        #expect(h.press(.skipHold) == .ignored, "Dose 2 taken: a skip must never hide it")
        #expect(h.doses.filter { $0.type == .dose2Skipped }.isEmpty)
        var late = Self.harness(voice: false)
        late.takeDose1()
        late.at(minutesAfterDose1: 241)
        #expect(late.press(.skipHold) == .ignored, "the window has closed")
    }

    /// A skip by the button is undone like any dose, within the undo window.
    @Test func aSkipByTheButtonIsUndoneLikeAnyDose() {
        var h = Self.harness(voice: false)
        h.takeDose1()
        h.at(minutesAfterDose1: 180)
        h.press(.skipHold)
        #expect(h.press(.hold) == .accepted(.undone(.dose2Skipped)))
        #expect(h.liveDoses.filter { $0.type == .dose2Skipped }.isEmpty)
    }
}
