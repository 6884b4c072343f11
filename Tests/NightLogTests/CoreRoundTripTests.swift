import DoseCore
import Foundation
import Testing
@testable import NightLog

/// One source of truth: what the core asked to persist, folded back from the log, is the
/// night the core had live; and the state a restart rebuilds plans the same alarms.
@Suite struct CoreRoundTripTests {
    static let tz = TimeZone(identifier: "America/New_York")!
    static let t0 = Moment(wall: Date(timeIntervalSince1970: 1_795_316_400), boot: "boot-a", monoNanos: 7_000_000_000)

    @Test func aNightThroughTheReducerAndBackIsTheSameNight() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            var state = BoxState(settings: BoxSettings(timeZone: Self.tz))
            var n = 0
            func step(_ action: Action, at minutes: Double, _ source: Source = .button("dose")) throws {
                n += 1
                let ctx = Context(now: Self.t0.advanced(by: .minutes(minutes)), source: source, ids: ["e\(n)a", "e\(n)b", "e\(n)c"])
                let t = DoseReducer.reduce(state, action, ctx)
                if !t.records.isEmpty { try log.append(t.records) } // commit, then accept the new state
                state = t.state
            }
            try step(.gesture(.single, button: "dose"), at: 0)
            try step(.logSleepEvent(.bathroom, notes: "a, \"quoted\" note"), at: 40, .cli(uid: 1000))
            try step(.gesture(.single, button: "dose"), at: 100) // early: pending, nothing written
            try step(.tick, at: 101)
            try step(.gesture(.double, button: "dose"), at: 160)
            try step(.gesture(.single, button: "dose"), at: 175)
            try step(.undo, at: 175.05, .cli(uid: 1000))
            try step(.gesture(.single, button: "dose"), at: 176)

            let snapshot = try #require(try log.latestSession())
            let rebuilt = BoxState.rebuilt(settings: state.settings, records: snapshot.records)
            #expect(rebuilt.night == state.night)
            #expect(rebuilt.night.dose2?.at == state.night.dose2?.at)
            #expect(rebuilt.night.snoozeCount == 1)
            #expect(rebuilt.night.doseEvents.count == 4) // the undone dose2 keeps its row
            let now = Self.t0.advanced(by: .minutes(180))
            #expect(rebuilt.phase(at: now) == .completed)
            #expect(try log.recentNights(limit: 1).first?.snoozeCount == 1)
        }
    }

    @Test func aRebuiltNightPlansTheSameAlarms() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            let live = DoseReducer.reduce(BoxState(settings: BoxSettings(timeZone: Self.tz)), .gesture(.single, button: "dose"),
                                          Context(now: Self.t0, source: .button("dose"), ids: ["s", "d"]))
            try log.append(live.records)
            let reopened = try NightLog.open(stateDirectory: dir)
            let rebuilt = BoxState.rebuilt(settings: live.state.settings, records: try #require(try reopened.latestSession()).records)
            let later = Self.t0.advanced(by: .seconds(10))
            #expect(rebuilt.plan == live.state.plan)
            #expect(rebuilt.nextDeadline(at: later) == live.state.nextDeadline(at: later))
        }
    }
}
