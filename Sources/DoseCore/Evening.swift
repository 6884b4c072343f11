import Foundation

// The evening before a night (#33): Take Care's drinks (seed 002) as the box keeps them. The
// rules of pace are PacingCore's; what a drink is, where the evening's session begins and
// ends, and what the log keeps of it are here, beside the night they lead into.

/// Take Care's drink types (seed 002, "DrinkTypeConfig"), with their default standard units
/// and whether they count as alcohol from constants.json (`pacing.drinks`).
public enum DrinkType: String, Sendable, Hashable, CaseIterable, Codable {
    case shot, beer, wine, cocktail, water

    public func defaults(_ rules: DoseConstants.Pacing = DoseConstants.box.pacing) -> (units: Double, alcoholic: Bool) {
        guard let d = rules.drinks.first(where: { $0.type == rawValue }) else { return (0, self != .water) }
        return (d.units, d.alcoholic)
    }
}

/// The seed's sensitivity modes, each a preset of thresholds (`pacing.presets`); `[evening]
/// sensitivity` in boxd.toml.
public enum Sensitivity: String, Sendable, Hashable, CaseIterable, Codable {
    case relaxed, balanced, strict
}

/// The seed's pace status, worst last.
public enum PaceStatus: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case good, caution
    case slowDown = "slow_down"

    public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
}

/// One drink logged (seed 002, "DrinkLog"). `at` is when it was drunk (`boxctl drink add --at`
/// may say earlier); `logged` is when the box wrote it down, on the box's timeline.
public struct DrinkRecord: Sendable, Hashable {
    public var id: String
    /// The evening's pacing session (seed 002 "Session"), not a night's.
    public var sessionID: String
    /// The night this evening leads into (`SessionRules.eveningKey`).
    public var sessionDate: String
    public var at: Date
    public var logged: Moment
    public var type: DrinkType
    public var units: Double
    public var isAlcoholic: Bool
    public var source: Source

    public init(id: String, sessionID: String, sessionDate: String, at: Date, logged: Moment, type: DrinkType, units: Double,
                isAlcoholic: Bool, source: Source) {
        self.id = id
        self.sessionID = sessionID
        self.sessionDate = sessionDate
        self.at = at
        self.logged = logged
        self.type = type
        self.units = units
        self.isAlcoholic = isAlcoholic
        self.source = source
    }
}

/// The last drink taken back (seed 002 "undoLast"): the row stays, marked, as a dose's undo does.
public struct DrinkUndoRecord: Sendable, Hashable {
    public var drinkID: String
    public var at: Moment
    public var source: Source
    public init(drinkID: String, at: Moment, source: Source) {
        self.drinkID = drinkID
        self.at = at
        self.source = source
    }
}

/// One thing the pacing engine decided to say (PacingCore fills it; the core records and says it).
public struct PacingNote: Sendable, Hashable {
    /// rapid_repeat, fast_pace, escalation, shot_stacking, water_check, nice_reset.
    public var code: String
    public var message: String
    /// caution, warning or info.
    public var severity: String
    public init(code: String, message: String, severity: String) {
        self.code = code
        self.message = message
        self.severity = severity
    }
}

/// What the pacing engine told the person (seed 002 "PacingEvent"): its note, when, in which evening.
public struct PacingRecord: Sendable, Hashable {
    public var id: String
    public var sessionID: String
    public var sessionDate: String
    public var at: Moment
    public var note: PacingNote

    public init(id: String, sessionID: String, sessionDate: String, at: Moment, note: PacingNote) {
        self.id = id
        self.sessionID = sessionID
        self.sessionDate = sessionDate
        self.at = at
        self.note = note
    }

    public var code: String { note.code }
    public var message: String { note.message }
    public var severity: String { note.severity }
}

/// What one look of the pacing engine found (`Action.paced`).
public struct PacingVerdict: Sendable, Hashable {
    public var notes: [PacingNote]
    public var pace: PaceStatus
    /// When the engine must look again (a drink leaving a window, a cooldown ending).
    public var nextCheck: Date?
    public init(notes: [PacingNote], pace: PaceStatus, nextCheck: Date?) {
        self.notes = notes
        self.pace = pace
        self.nextCheck = nextCheck
    }
}

/// The evening's open pacing session: one per evening, from its first drink until
/// `pacing.session_timeout_min` after its last, or until Dose 1 (the evening is over).
public struct Evening: Sendable, Hashable {
    public var sessionID: String
    public var sessionDate: String
    /// The session's drinks not taken back, in the order they were logged.
    public internal(set) var drinks: [DrinkRecord]
    /// What was told in this session, for the engine's cooldowns.
    public internal(set) var told: [PacingRecord]
    public internal(set) var pace: PaceStatus
    /// When the engine looks again; nil once it has looked and nothing can change.
    public internal(set) var nextCheck: Date?
    /// A drink came or went since the engine last looked (or the evening was just restored).
    public internal(set) var needsLook: Bool
    /// A drink came since the engine last looked: only then may it warn (`PacingEngine.evaluate`'s
    /// `afterDrink`). Not after an undo or a restart: neither is a drink.
    public internal(set) var drinkSinceLook = false

    public init(sessionID: String, sessionDate: String, drinks: [DrinkRecord], told: [PacingRecord] = [], pace: PaceStatus = .good,
                nextCheck: Date? = nil, needsLook: Bool = true) {
        self.sessionID = sessionID
        self.sessionDate = sessionDate
        self.drinks = drinks
        self.told = told
        self.pace = pace
        self.nextCheck = nextCheck
        self.needsLook = needsLook
    }

    /// When the session ends by itself: the timeout after its last drink logged (a drink said
    /// to be earlier, `--at`, still opens the evening now; none is drunk after it is logged).
    public func endsAt(_ rules: DoseConstants.Pacing) -> Date? {
        guard let last = drinks.map(\.logged.wall).max() else { return nil }
        return last.addingTimeInterval(rules.sessionTimeoutMin * 60)
    }

    /// Whether the engine should look now.
    public func dueForLook(at now: Date) -> Bool { needsLook || nextCheck.map { $0 <= now } ?? false }

    public var alcoholicDrinks: Int { drinks.filter(\.isAlcoholic).count }
    public var alcoholicUnits: Double { drinks.filter(\.isAlcoholic).map(\.units).reduce(0, +) }
}

/// What the evening before a night held, for history and the report (#33).
public struct EveningFacts: Sendable, Hashable {
    /// Alcoholic drinks: the larger of those logged one by one and the pre-sleep log's count
    /// (as the guard at Dose 1 counts them).
    public var alcoholicDrinks: Int
    /// The standard units of the drinks logged one by one.
    public var units: Double
    public var preSleep: PreSleepAnswers?

    public init(alcoholicDrinks: Int, units: Double, preSleep: PreSleepAnswers?) {
        self.alcoholicDrinks = alcoholicDrinks
        self.units = units
        self.preSleep = preSleep
    }

    public var hadAlcohol: Bool { alcoholicDrinks > 0 }
}

/// The alcohol guard's counts (#33): what a dose now would ask about.
extension BoxState {
    /// The alcoholic drinks logged within `safety.alcohol_lookback_h` before now (#33): a Dose 1
    /// then asks for a confirmation. A drink logged ahead of the clock counts too.
    public func drinksBefore(_ now: Moment) -> Int {
        let lookback = settings.rules.safety.alcoholLookbackH * 3600
        let logged = drinks.filter { now.wall.timeIntervalSince($0) < lookback }.count
        // Tonight's pre-sleep log may count the same drinks again: the larger count, never the sum.
        // By its night, not its clock time (pre_sleep_logs keeps no boot time to re-derive after a clock step).
        guard let p = preSleep, p.sessionDate == SessionRules.eveningKey(for: now.wall, timeZone: settings.timeZone, rules: settings.rules.session)
        else { return logged }
        return max(logged, p.answers.alcoholDrinks ?? 0)
    }

    /// The alcoholic drinks logged since tonight's Dose 1 (#33): Dose 2 then asks first.
    public func drinksSinceDose1(_ now: Moment) -> Int {
        guard night.isOpen, let d1 = night.dose1 else { return 0 }
        return drinks.filter { $0 > d1.at.wall }.count
    }

    /// The drinks a dose now would ask about: since Dose 1 for Dose 2, else the look-back's.
    public func drinksAsked(_ now: Moment) -> Int { night.isOpen && night.dose1 != nil ? drinksSinceDose1(now) : drinksBefore(now) }
}
