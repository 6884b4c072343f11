import Foundation
import Testing
@testable import DoseCore

/// Drives the reducer like the daemon would, with a simulated clock and counting ids.
struct Harness {
    static let tz = TimeZone(identifier: "America/New_York")!
    /// 2026-11-21 22:00 local (EST, UTC-5).
    static let start = Moment(wall: Date(timeIntervalSince1970: 1_795_316_400), boot: "boot-A", monoNanos: 5_000_000_000)

    var state: BoxState
    var now: Moment
    var nextID = 0
    var persisted: [LogRecord] = []
    var lastEffects: [Effect] = []
    var allEffects: [Effect] = []

    init(settings: BoxSettings = BoxSettings(timeZone: Harness.tz), now: Moment = Harness.start) {
        state = BoxState(settings: settings)
        self.now = now
    }

    @discardableResult
    mutating func send(_ action: Action, from source: Source = .button("dose")) -> Outcome {
        var ids: [String] = []
        for _ in 0..<3 {
            nextID += 1
            ids.append("id-\(nextID)")
        }
        let t = DoseReducer.reduce(state, action, Context(now: now, source: source, ids: ids))
        state = t.state
        persisted += t.records
        lastEffects = t.effects
        allEffects += t.effects
        return t.outcome
    }

    @discardableResult
    mutating func press(_ g: Gesture, button: String = "dose") -> Outcome {
        send(.gesture(g, button: button), from: .button(button))
    }

    @discardableResult
    mutating func cli(_ action: Action) -> Outcome { send(action, from: .cli(uid: 1000)) }

    /// Moves both clocks and ticks, as the daemon's timer would.
    mutating func advance(_ d: Duration) {
        now = now.advanced(by: d)
        send(.tick, from: .system)
    }

    mutating func advance(minutes m: Double) { advance(.minutes(m)) }

    /// Moves to exactly `m` minutes after Dose 1.
    mutating func at(minutesAfterDose1 m: Double) {
        let d1 = state.night.dose1!.at
        now = d1.advanced(by: .minutes(m))
        send(.tick, from: .system)
    }

    var phase: Phase { state.phase(at: now) }
    var sounds: [Sound] { lastEffects.compactMap { if case .play(let s) = $0 { s } else { nil } } }
    var allSounds: [Sound] { allEffects.compactMap { if case .play(let s) = $0 { s } else { nil } } }
    var doses: [DoseRecord] { persisted.compactMap { if case .dose(let d) = $0 { d } else { nil } } }
    var liveDoses: [DoseRecord] { state.night.liveDoseEvents }

    /// Dose 1 now, by a single press.
    mutating func takeDose1() {
        let o = press(.single)
        #expect(o == .accepted(.recorded(.dose1)))
    }
}

func isRefused(_ o: Outcome, _ code: String) -> Bool {
    if case .refused(let r) = o { return r.code == code }
    return false
}
