import Foundation
import Testing
@testable import DoseCore

/// When the box speaks (#15): `Effect.speak` after the sound it explains, for what a button did
/// and for every alert; never for boxctl (its reply speaks), never with the voice off.
@Suite struct SpokenNightTests {
    /// The sounds and sentences of the last transition, in order: "play:success", "say:…".
    static func heard(_ effects: [Effect]) -> [String] {
        effects.compactMap {
            switch $0 {
            case .play(let s): "play:\(s)"
            case .speak(let t): "say:\(t)"
            case .stopSound: "stop"
            default: nil
            }
        }
    }

    @Test func aButtonsDoseIsSaidAfterItsChime() {
        var h = Harness()
        h.takeDose1()
        #expect(Self.heard(h.lastEffects) == ["play:success", "say:Dose 1 taken at 10:00 PM."])
        h.at(minutesAfterDose1: 167)
        h.press(.single)
        // The main alarm (165) and its follow-up (167) ring before the press; the press stops it.
        #expect(Self.heard(h.lastEffects) == ["stop", "play:success", "say:Dose 2 taken at 12:47 AM. Good night."])
    }

    @Test func boxctlIsNeverSpokenAloud() {
        var h = Harness()
        h.cli(.takeDose(confirmed: false))
        #expect(Self.heard(h.lastEffects).isEmpty)
        h.at(minutesAfterDose1: 100)
        h.cli(.takeDose(confirmed: true))
        #expect(Self.heard(h.lastEffects).isEmpty)
    }

    @Test func aHoldSaysTheStatusAfterItsChirp() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 78)
        h.press(.hold)
        #expect(Self.heard(h.lastEffects) == ["play:status", "say:Dose 1 at 10:00 PM. Dose 2 from 12:30 AM, in 1 hour 12 minutes."])
    }

    @Test func everyAlertOfTheNightIsSaidAfterItsTone() {
        var h = Harness()
        h.takeDose1()
        var said: [String] = []
        for m in stride(from: 149.0, through: 241, by: 0.5) {
            h.at(minutesAfterDose1: m)
            let heard = Self.heard(h.lastEffects)
            // A sentence only right after an alarm's tone.
            for (i, e) in heard.enumerated() where e.hasPrefix("say:") {
                #expect(i > 0 && heard[i - 1].hasPrefix("play:"), "\(heard)")
                said.append("\(m) \(e.dropFirst(4))")
            }
        }
        #expect(said.first == "150.0 Dose window open. Take Dose 2 now.")
        #expect(said.contains("235.0 Dose window closing in 5 minutes."))
        #expect(said.last == "240.0 Dose window closed.")
        #expect(said.count == AlarmPlan.make(targetMinutes: 165, rules: .box).steps.count)
    }

    @Test func refusalsAndConfirmationsAreSaid() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 100)
        h.press(.single)
        // Below the Dose 2 floor a press is a repeat of Dose 1, in the voice's clock.
        #expect(Self.heard(h.lastEffects) == ["play:already_recorded", "say:This dose was already taken at 10:00 PM. Dose 2 is due from 12:30 AM."])
        h.at(minutesAfterDose1: 140)
        h.press(.single)
        #expect(Self.heard(h.lastEffects) == ["play:warning", "say:Dose 2 is early. Hold the button for 2 seconds to take it now."])
        h.at(minutesAfterDose1: 160)
        h.press(.single)
        h.at(minutesAfterDose1: 180)
        h.press(.single)
        #expect(Self.heard(h.lastEffects).last == "say:This dose was already taken at 12:40 AM. STOP – another dose tonight is a health hazard.",
                "\(Self.heard(h.lastEffects))")
    }

    @Test func aFaultIsSaidWhenItIsRaised() {
        var h = Harness()
        h.send(.setFault(.gpioUnavailable, active: true), from: .system)
        #expect(Self.heard(h.lastEffects) == ["say:Sound is working, but the button is not. Check the cable."])
        h.send(.setFault(.gpioUnavailable, active: true), from: .system)
        #expect(Self.heard(h.lastEffects).isEmpty, "once, when raised")
        h.send(.setFault(.audioUnavailable, active: true), from: .system)
        #expect(Self.heard(h.lastEffects).isEmpty, "a broken speaker cannot say so")
    }

    @Test func withTheVoiceOffNothingIsSaid() {
        var h = Harness(settings: BoxSettings(timeZone: Harness.tz, voice: VoiceSettings(enabled: false)))
        h.takeDose1()
        for m in stride(from: 140.0, through: 241, by: 1) { h.at(minutesAfterDose1: m) }
        h.press(.hold)
        h.send(.setFault(.gpioUnavailable, active: true), from: .system)
        #expect(!h.allEffects.contains { if case .speak = $0 { true } else { false } })
        #expect(!h.allSounds.isEmpty, "the tones are unchanged")
    }

    @Test func twentyFourHourTimesWhenAsked() {
        var h = Harness(settings: BoxSettings(timeZone: Harness.tz, voice: VoiceSettings(clock: .twentyFourHour)))
        h.takeDose1()
        #expect(Self.heard(h.lastEffects).last == "say:Dose 1 taken at 22:00.")
    }
}
