import DoseCore
import Foundation
import Testing
@testable import PacingCore

/// Take Care's engine (seed 002, "Tests": rolling-window helpers; 2 shots -> warning; 4 units
/// in 90 min -> escalation; hydration every 2 drinks; cooldown, the same warning not repeated;
/// sensitivity presets; good pace with no logs), and the edge of every window and cooldown.
@Suite struct PacingEngineTests {
    static let rules = DoseConstants.box.pacing
    static let t0 = Date(timeIntervalSince1970: 1_795_312_800) // an evening, 21:00 EST

    static func at(_ minutes: Double) -> Date { t0.addingTimeInterval(minutes * 60) }
    static func drink(_ type: DrinkType, _ minutes: Double, units: Double? = nil) -> DrinkLog {
        DrinkLog(id: "\(type)-\(minutes)", at: at(minutes), type: type, units: units)
    }
    static func run(_ logs: [DrinkLog], now minutes: Double, recent: [PacingEvent] = [],
                    settings: PacingSettings = PacingSettings()) -> PacingResult {
        PacingEngine.evaluate(logs, settings: settings, now: at(minutes), recentEvents: recent)
    }
    static func codes(_ r: PacingResult) -> [PacingCode] { r.events.map(\.code) }

    @Test func goodPaceWithNoLogs() {
        let r = Self.run([], now: 0)
        #expect(r.events.isEmpty && r.pace == .good && r.nextCheck == nil)
    }

    @Test func theRollingWindowHelpers() {
        let logs = [Self.drink(.beer, 0), Self.drink(.water, 5), Self.drink(.cocktail, 30), Self.drink(.shot, 59)]
        let w = Windows(logs: logs, now: Self.at(60))
        #expect(w.alcoholicCount(within: 60) == 2, "the beer at 0 is exactly 60 min old: out")
        #expect(w.alcoholicCount(within: 61) == 3)
        #expect(w.units(within: 60) == 2.5, "cocktail 1.5 + shot 1; water has none")
        #expect(w.count(.water, within: 56) == 1 && w.count(.water, within: 55) == 0)
        #expect(w.sinceLastAlcoholic == 60 && w.totalAlcoholic == 3)
    }

    /// Seed: two shots -> a warning. Within the balanced preset's window (30 min) both shot
    /// stacking and rapid repeat (2 drinks in 20 min) fire; the pace is caution.
    @Test func twoShotsAreAWarning() {
        let r = Self.run([Self.drink(.shot, 0), Self.drink(.shot, 10)], now: 10)
        #expect(Self.codes(r) == [.rapidRepeat, .shotStacking, .waterCheck])
        #expect(r.pace == .caution)
        // The edges of the windows: rapid repeat (20 min) and shot stacking (30 min).
        #expect(Self.codes(Self.run([Self.drink(.shot, 0), Self.drink(.shot, 19.99)], now: 19.99)).contains(.rapidRepeat))
        #expect(!Self.codes(Self.run([Self.drink(.shot, 0), Self.drink(.shot, 20)], now: 20)).contains(.rapidRepeat))
        #expect(Self.codes(Self.run([Self.drink(.shot, 0), Self.drink(.shot, 29.99)], now: 29.99)).contains(.shotStacking))
        #expect(!Self.codes(Self.run([Self.drink(.shot, 0), Self.drink(.shot, 30)], now: 30)).contains(.shotStacking))
    }

    /// Seed: 4 units in 90 minutes -> escalation (balanced: at or above 4), slow down; 3.9 is
    /// not, and a unit 90 minutes old has left the window.
    @Test func fourUnitsInNinetyMinutesEscalate() {
        let four = [Self.drink(.beer, 0), Self.drink(.beer, 31), Self.drink(.beer, 62), Self.drink(.beer, 89)]
        let r = Self.run(four, now: 89)
        #expect(Self.codes(r).contains(.escalation) && r.pace == .slowDown)
        #expect(!Self.codes(Self.run(four, now: 90)).contains(.escalation), "the first beer is 90 min old: 3 units")
        let almost = [Self.drink(.beer, 0), Self.drink(.beer, 31), Self.drink(.beer, 62), Self.drink(.wine, 89, units: 0.9)]
        #expect(!Self.codes(Self.run(almost, now: 89)).contains(.escalation))
    }

    /// Fast pace: above 2 units in the last 60 minutes (balanced); 2 exactly is not.
    @Test func fastPaceIsAboveTheThreshold() {
        let two = [Self.drink(.beer, 0), Self.drink(.beer, 40)]
        #expect(!Self.codes(Self.run(two, now: 40)).contains(.fastPace))
        let more = two + [Self.drink(.wine, 59, units: 0.1)]
        let r = Self.run(more, now: 59)
        #expect(Self.codes(r).contains(.fastPace) && r.pace == .slowDown)
        #expect(!Self.codes(Self.run(more, now: 60)).contains(.fastPace), "the first beer left the 60 min window")
    }

    /// Seed: hydration every 2 drinks: at the 2nd and the 4th alcoholic drink, once each; not
    /// when water was logged in the last 20 minutes.
    @Test func hydrationEveryTwoDrinks() {
        var logs = [Self.drink(.wine, 0)]
        #expect(!Self.codes(Self.run(logs, now: 0)).contains(.waterCheck))
        logs.append(Self.drink(.wine, 50))
        let second = Self.run(logs, now: 50)
        #expect(Self.codes(second) == [.waterCheck])
        #expect(!Self.codes(Self.run(logs, now: 80, recent: second.events)).contains(.waterCheck), "once for the 2nd drink")
        logs.append(Self.drink(.wine, 100))
        #expect(!Self.codes(Self.run(logs, now: 100, recent: second.events)).contains(.waterCheck), "3 drinks")
        logs.append(Self.drink(.wine, 150))
        #expect(Self.codes(Self.run(logs, now: 150, recent: second.events)).contains(.waterCheck), "the 4th")
        let withWater = logs + [Self.drink(.water, 140.01)]
        #expect(!Self.codes(Self.run(withWater, now: 150, recent: second.events)).contains(.waterCheck), "water 19.99 min ago")
        let olderWater = logs + [Self.drink(.water, 130)]
        #expect(Self.codes(Self.run(olderWater, now: 150, recent: second.events)).contains(.waterCheck), "water 20 min ago")
        #expect(!Self.codes(Self.run(logs, now: 150, recent: second.events, settings: PacingSettings(hydrationReminders: false)))
            .contains(.waterCheck))
    }

    /// Seed: a warning is not repeated within its cooldown (15 min), and is again after it.
    @Test func aWarningIsNotRepeatedWithinItsCooldown() {
        let logs = [Self.drink(.shot, 0), Self.drink(.shot, 5), Self.drink(.shot, 10)]
        let first = Self.run(Array(logs.prefix(2)), now: 5)
        #expect(Self.codes(first).contains(.shotStacking))
        let again = Self.run(logs, now: 19.99, recent: first.events)
        #expect(!Self.codes(again).contains(.shotStacking) && again.pace == .slowDown, "told once; the pace (3 units in the hour) still says it")
        #expect(Self.codes(Self.run(logs, now: 20, recent: first.events)).contains(.shotStacking))
    }

    /// Seed: the presets change the thresholds; strict warns where relaxed does not.
    @Test func sensitivityPresets() {
        let logs = [Self.drink(.beer, 0), Self.drink(.beer, 25)] // 2 drinks 25 min apart, 2 units
        func codes(_ s: Sensitivity) -> [PacingCode] { Self.codes(Self.run(logs, now: 25, settings: PacingSettings(sensitivity: s))) }
        #expect(!codes(.relaxed).contains(.rapidRepeat) && !codes(.balanced).contains(.rapidRepeat))
        #expect(codes(.strict).contains(.rapidRepeat), "strict: 2 in 30 min")
        #expect(codes(.strict).contains(.fastPace), "strict: above 1.5 units in an hour")
        #expect(!codes(.balanced).contains(.fastPace))
        let p = Self.rules.presets
        #expect(p.relaxed.escalationUnits > p.balanced.escalationUnits && p.balanced.escalationUnits > p.strict.escalationUnits)
    }

    /// Nice reset: after a warning, 20 drink-free minutes, with no rule holding; once an hour.
    @Test func aNiceResetAfterAQuietStretch() {
        let logs = [Self.drink(.beer, 0), Self.drink(.beer, 10)]
        let warned = Self.run(logs, now: 10).events
        #expect(Self.codes(Self.run(logs, now: 10)).contains(.rapidRepeat))
        #expect(!Self.codes(Self.run(logs, now: 29.99, recent: warned)).contains(.niceReset))
        let reset = Self.run(logs, now: 30, recent: warned)
        #expect(Self.codes(reset) == [.niceReset])
        #expect(!Self.codes(Self.run(logs, now: 45, recent: warned + reset.events)).contains(.niceReset), "once")
        #expect(!Self.codes(Self.run(logs, now: 70.01, recent: warned)).contains(.niceReset), "the warning is over an hour old")
    }

    /// The engine says when to look again: the next instant a window, a cooldown or a quiet
    /// time ends.
    @Test func itSaysWhenToLookAgain() {
        let logs = [Self.drink(.shot, 0), Self.drink(.shot, 10)]
        let r = Self.run(logs, now: 10)
        #expect(r.nextCheck == Self.at(20), "the first shot leaves the 20 min windows")
        #expect(Self.run(logs, now: 200, recent: r.events).nextCheck == nil, "everything is over")
    }

    /// The guardrails: no BAC and no driving advice, in any message.
    @Test func noBACAndNoDrivingWords() {
        for code in PacingCode.allCases {
            let m = code.message.lowercased()
            #expect(!m.contains("bac") && !m.contains("blood") && !m.contains("drive") && !m.contains("driving"), "\(code)")
        }
        #expect(DrinkType.allCases.map { $0.defaults().alcoholic } == [true, true, true, true, false])
    }
}

/// The engine over the core's evening (`EveningPacing`): it looks after a drink, and when a
/// window or a cooldown ends; a look of time alone tells no warning, only the nice reset.
@Suite struct EveningPacingTests {
    static let tz = TimeZone(identifier: "America/New_York")!
    static let start = Moment(wall: Date(timeIntervalSince1970: 1_795_316_400), boot: "b", monoNanos: 1_000_000_000)

    static func reduce(_ state: BoxState, _ action: Action, at now: Moment) -> BoxState {
        DoseReducer.reduce(state, action, Context(now: now, source: .cli(uid: 1), ids: [UUID().uuidString])).state
    }

    @Test func noEveningNoLook() {
        let state = BoxState(settings: BoxSettings(timeZone: Self.tz))
        #expect(EveningPacing.action(for: state, settings: PacingSettings(), at: Self.start) == nil)
    }

    @Test func aWarningAnswersADrinkTheResetAnswersAQuietStretch() throws {
        var state = BoxState(settings: BoxSettings(timeZone: Self.tz))
        var now = Self.start
        for minutes in [0, 5] {
            now = Self.start.advanced(by: .minutes(Double(minutes)))
            state = Self.reduce(state, .logDrink(.shot, units: nil, at: nil), at: now)
            let action = try #require(EveningPacing.action(for: state, settings: PacingSettings(), at: now))
            state = Self.reduce(state, action, at: now)
            #expect(EveningPacing.action(for: state, settings: PacingSettings(), at: now) == nil, "looked: nothing more now")
        }
        #expect(state.evening?.told.map(\.code) == ["rapid_repeat", "shot_stacking", "water_check"])
        // 15 min later the warnings' cooldown is over and 4 units... are not there (2 units): nothing is told by time alone.
        let quiet = Self.start.advanced(by: .minutes(24))
        if let action = EveningPacing.action(for: state, settings: PacingSettings(), at: quiet), case .paced(let v) = action {
            #expect(v.notes.isEmpty)
        }
        // 20 drink-free minutes after the last drink: the nice reset, on time's own look.
        let reset = try #require(state.evening?.nextCheck.map { _ in Self.start.advanced(by: .minutes(25)) })
        let action = try #require(EveningPacing.action(for: state, settings: PacingSettings(), at: reset))
        guard case .paced(let v) = action else { Issue.record("not a verdict"); return }
        #expect(v.notes.map(\.code) == ["nice_reset"])
    }

    /// A restart is not a drink: the restored evening's first look sets the pace and tells nothing,
    /// and neither does taking a drink back.
    @Test func aRestartOrAnUndoTellsNoWarning() throws {
        let t = Self.start
        let shots = (0..<3).map { i in
            DrinkRecord(id: "s\(i)", sessionID: "E", sessionDate: "2026-11-21", at: t.wall.addingTimeInterval(Double(i) * 300),
                        logged: t.advanced(by: .minutes(Double(i) * 5)), type: .shot, units: 1, isAlcoholic: true, source: .system)
        }
        let now = t.advanced(by: .minutes(10))
        var state = Self.reduce(BoxState(settings: BoxSettings(timeZone: Self.tz)), .restoreEvening(Evening(sessionID: "E", sessionDate: "2026-11-21", drinks: shots)), at: now)
        let look = try #require(EveningPacing.action(for: state, settings: PacingSettings(), at: now))
        guard case .paced(let v) = look else { Issue.record("not a verdict"); return }
        #expect(v.notes.isEmpty && v.pace == .slowDown, "3 units in the hour: slow down, said at the drinks, not again")
        state = Self.reduce(state, look, at: now)
        state = Self.reduce(state, .undoDrink, at: now)
        let afterUndo = try #require(EveningPacing.action(for: state, settings: PacingSettings(), at: now))
        guard case .paced(let u) = afterUndo else { Issue.record("not a verdict"); return }
        #expect(u.notes.isEmpty && u.pace == .caution)
    }
}

