import BoxWords
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
            case .speak(let u): "say:\(Speech.words(u))"
            case .stopSound: "stop"
            default: nil
            }
        }
    }

    @Test func aButtonsDoseIsSaidAfterItsChime() {
        var h = Harness()
        h.takeDose1()
        #expect(Self.heard(h.lastEffects) == ["play:success", "say:Dose 1 taken at 10:00 PM. Remain in bed between doses for safety."])
        h.at(minutesAfterDose1: 167)
        h.press(.single)
        // The main alarm (165) and its follow-up (167) ring before the press; the press stops it.
        #expect(Self.heard(h.lastEffects) == ["stop", "play:success", "say:Dose 2 taken at 12:47 AM. Good night. Remain in bed for safety."])
    }

    /// #32: the stay-in-bed reminder is said once per dose, after it is recorded, and
    /// `voice.stay_in_bed = false` leaves it out; a status hold never repeats it.
    @Test func theStayInBedReminderFollowsEachDoseUnlessSwitchedOff() {
        var off = Harness(settings: BoxSettings(timeZone: Harness.tz, voice: VoiceSettings(stayInBed: false)))
        off.takeDose1()
        #expect(Self.heard(off.lastEffects) == ["play:success", "say:Dose 1 taken at 10:00 PM."])
        off.at(minutesAfterDose1: 170)
        off.press(.single)
        #expect(Self.heard(off.lastEffects).last == "say:Dose 2 taken at 12:50 AM. Good night.")

        var on = Harness()
        on.takeDose1()
        on.advance(.minutes(1))
        on.press(.hold)
        #expect(!Self.heard(on.lastEffects).contains { $0.contains("Remain in bed") }, "\(Self.heard(on.lastEffects))")
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

    @Test func everyAlertIsSaidOnceItHasRungOutNeverOverIt() {
        var h = Harness()
        h.takeDose1()
        var said: [String] = []
        for m in stride(from: 149.0, through: 242, by: 0.5) {
            h.at(minutesAfterDose1: m)
            let heard = Self.heard(h.lastEffects)
            // The alarm wins: words only after it stopped (or after a last minutes' tick, #32),
            // never in a transition that rings one.
            for (i, e) in heard.enumerated() where e.hasPrefix("say:") {
                #expect(i > 0 && (heard[i - 1] == "stop" || heard[i - 1] == "play:minute_tick"), "\(heard)")
                #expect(!heard.contains { $0.hasPrefix("play:") && $0 != "play:minute_tick" }, "\(heard)")
                said.append("\(m) \(e.dropFirst(4))")
            }
        }
        // Each alert rings 60 s; its words come then, with the time left then. Alerts a minute
        // apart or less (238, 239, 239.5) are cut short by the next and say nothing over it.
        #expect(said == [
            "151.0 Dose window open. Take Dose 2 now.",
            "161.0 Time for Dose 2. 1 hour 19 minutes left.",
            "166.0 Time for Dose 2. 1 hour 14 minutes left.",
            "168.0 Time for Dose 2. 1 hour 12 minutes left.",
            "170.0 Time for Dose 2. 1 hour 10 minutes left.",
            "172.0 Time for Dose 2. 1 hour 8 minutes left.",
            "211.0 Dose window closing in 29 minutes.",
            "226.0 Dose window closing in 14 minutes.",
            "236.0 Dose window closing in 4 minutes.",
            "237.0 Dose window closing in 3 minutes.",
            "241.0 Dose window closed.",
        ], "\(said)")
    }

    @Test func aHoldThatStopsAnAlarmSaysTheStatus() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 210)
        h.press(.hold)
        #expect(Self.heard(h.lastEffects) == ["stop", "say:Dose 1 at 10:00 PM. Window open. Take Dose 2 now; 30 minutes left. 3 snoozes left."])
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
        #expect(Self.heard(h.lastEffects).last == "say:Dose 1 taken at 22:00. Remain in bed between doses for safety.")
    }
}
