import Foundation
import Testing
@testable import DoseCore

/// #32: a soft tick each minute in the last five minutes of the window (SSOT 2.4.3,
/// accessibility), with "closing in N minutes"; never over an alarm, which always wins.
@Suite struct LastMinutesTests {
    /// Runs the night from `m` minutes after Dose 1 to `until`, deadline by deadline as the
    /// engine's timer would, and returns what was played and said, with the minute.
    static func night(_ h: inout Harness, from m: Double, until: Double) -> [String] {
        h.at(minutesAfterDose1: m)
        var heard: [String] = []
        let d1 = h.state.night.dose1!.at
        while let next = h.state.nextDeadline(at: h.now), h.now.elapsed(since: d1) + next <= .minutes(until) {
            h.advance(max(next, .milliseconds(1)))
            let minute = h.now.elapsed(since: d1).seconds / 60
            for effect in h.lastEffects {
                switch effect {
                case .play(let s): heard.append(String(format: "%.1f %@", minute, s.description))
                case .speak(let u): heard.append(String(format: "%.1f say %@", minute, "\(u)".contains("remainingWarning") ? "closing" : "other"))
                default: break
                }
            }
        }
        return heard
    }

    @Test func theTicksFallWhereNoAlertRings() {
        var h = Harness()
        h.takeDose1()
        // 235, 238 and 239 are the plan's alerts (5, 2 and 1 minutes left): 236 and 237 tick.
        #expect(h.state.minuteTicks == [.minutes(236), .minutes(237)])
    }

    @Test func aNightLeftAloneTicksAtFourAndThreeMinutesLeftWithTheirWords() {
        var h = Harness()
        h.takeDose1()
        let heard = Self.night(&h, from: 234, until: 238)
        let ticks = heard.filter { $0.hasSuffix("minute_tick") }
        #expect(ticks == ["236.0 minute_tick", "237.0 minute_tick"], "\(heard)")
        #expect(heard.contains("236.0 say closing") && heard.contains("237.0 say closing"), "\(heard)")
        if case .speak(let u)? = h.allEffects.last(where: { if case .speak = $0 { true } else { false } }) {
            #expect(u == .alert(.remainingWarning, elapsed: .minutes(237), rules: h.state.settings.rules))
        }
    }

    /// An alarm still ringing at a tick's minute wins: no tick then; the tick that falls as
    /// an alert rings out plays without words of its own (the alert's are said).
    @Test func theAlarmAlwaysWins() {
        var h = Harness(settings: BoxSettings(ringTime: .seconds(120), timeZone: Harness.tz))
        h.takeDose1()
        let heard = Self.night(&h, from: 234, until: 238)
        #expect(!heard.contains("236.0 minute_tick"), "the 235 alert rings until 237: \(heard)")
        #expect(heard.filter { $0.hasPrefix("237.0 say") }.count == 1, "one sentence at 237, the alert's: \(heard)")
    }

    @Test func noTicksOnceDose2IsTakenNorLateAfterARestart() {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 230)
        h.press(.single)
        #expect(h.state.minuteTicks.isEmpty)
        #expect(!Self.night(&h, from: 231, until: 241).contains { $0.contains("minute_tick") })

        var r = Harness()
        r.takeDose1()
        r.state = BoxState.rebuilt(settings: r.state.settings, records: r.persisted) // boxd restarted: no cursor
        r.at(minutesAfterDose1: 237.6)
        #expect(!r.sounds.contains(.minuteTick), "a tick 36 s late is not given")
    }
}
