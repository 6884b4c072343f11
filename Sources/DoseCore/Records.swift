import Foundation

// The vocabulary of the night log: what the core asks the shell to persist, and what it
// folds back into state on start. Wire strings are the schema seed's.

public enum DoseEventType: String, Sendable, Hashable, CaseIterable, Codable {
    case dose1
    case dose2
    case extraDose = "extra_dose"
    case dose2Skipped = "dose2_skipped"
    case snooze

    /// Counted by the dose index rule (SSOT 3.0): dose1, dose2 and extra_dose only.
    public var countsAsDose: Bool { self == .dose1 || self == .dose2 || self == .extraDose }
}

public enum SleepEventType: String, Sendable, Hashable, CaseIterable, Codable {
    case bathroom, water, snack
    case inBed = "in_bed"
    case lightsOut = "lights_out"
    case wakeFinal = "wake_final"
    case wakeTemp = "wake_temp"
    case anxiety, dream
    case heartRacing = "heart_racing"
    case noise, temperature, pain
    case napStart = "nap_start"
    case napEnd = "nap_end"
}

/// Who caused an event: `button:NAME`, `boxctl:uid=N`, or the box itself (time rules).
public enum Source: Sendable, Hashable, CustomStringConvertible {
    case button(String)
    case cli(uid: UInt32)
    case system

    public var description: String {
        switch self {
        case .button(let name): "button:\(name)"
        case .cli(let uid): "boxctl:uid=\(uid)"
        case .system: "system"
        }
    }

    public init?(_ text: String) {
        if text == "system" {
            self = .system
        } else if text.hasPrefix("button:"), text.count > 7 {
            self = .button(String(text.dropFirst(7)))
        } else if text.hasPrefix("boxctl:uid="), let uid = UInt32(text.dropFirst(11)) {
            self = .cli(uid: uid)
        } else {
            return nil
        }
    }
}

public enum SkipReason: String, Sendable, Hashable, CaseIterable, Codable {
    case drowsy
    case sideEffects = "side_effects"
    case other
}

/// How a session ended (schema seed, sleep_sessions.terminal_state).
public enum TerminalState: String, Sendable, Hashable, CaseIterable, Codable {
    case completed, skipped, expired, aborted
}

/// Why a session was closed (SSOT 3.0 closure rules).
public enum CloseReason: String, Sendable, Hashable, CaseIterable, Codable {
    case checkIn = "checkin"
    case missedCheckInCutoff = "missed_checkin_cutoff"
    case prepTimeRollover = "prep_time_rollover"
}

/// dose_events.metadata, with the schema seed's JSON keys. Absent keys stay absent.
public struct DoseMetadata: Sendable, Hashable, Codable {
    public var isEarly: Bool?
    public var isLate: Bool?
    public var isExtraDose: Bool?
    public var snoozeNumber: Int?
    public var reason: String?
    /// "witness": the log had lost this dose and it was carried back from the witness (#29).
    public var restoredFrom: String?
    /// A Dose 1 confirmed after alcoholic drinks were logged: how many (#33).
    public var alcoholDrinks: Int?

    public init(isEarly: Bool? = nil, isLate: Bool? = nil, isExtraDose: Bool? = nil, snoozeNumber: Int? = nil, reason: String? = nil,
                restoredFrom: String? = nil, alcoholDrinks: Int? = nil) {
        self.isEarly = isEarly
        self.isLate = isLate
        self.isExtraDose = isExtraDose
        self.snoozeNumber = snoozeNumber
        self.reason = reason
        self.restoredFrom = restoredFrom
        self.alcoholDrinks = alcoholDrinks
    }

    enum CodingKeys: String, CodingKey {
        case isEarly = "is_early", isLate = "is_late", isExtraDose = "is_extra_dose"
        case snoozeNumber = "snooze_number", reason, restoredFrom = "restored_from", alcoholDrinks = "alcohol_drinks"
    }
}

/// SSOT 2.4.3's narcolepsy flags of the morning check-in, in its order; the raw value is the
/// column of its SQL (`morning_checkins.had_sleep_paralysis` …).
public enum NarcolepsyFlag: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case sleepParalysis = "had_sleep_paralysis"
    case hallucinations = "had_hallucinations"
    case automaticBehavior = "had_automatic_behavior"
    case fellOutOfBed = "fell_out_of_bed"
    case confusionOnWaking = "had_confusion_on_waking"

    public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
}

/// The quick-mode morning check-in of SSOT 2.5, plus notes and the narcolepsy flags.
public struct CheckInAnswers: Sendable, Hashable, Codable {
    public enum FeelRested: String, Sendable, Hashable, CaseIterable, Codable {
        case notAtAll, slightly, moderate, well, veryWell

        /// Schema v6's integer `feeling_rested`, "1-5 scale": not at all = 1 … very well = 5.
        public var scale: Int { Self.allCases.firstIndex(of: self)! + 1 }
    }
    public enum Grogginess: String, Sendable, Hashable, CaseIterable, Codable { case none, mild, moderate, severe, cantFunction }
    public enum Mood: String, Sendable, Hashable, CaseIterable, Codable { case veryLow, low, neutral, good, great }

    public static let qualityRange = 1...5
    public static let clarityRange = 1...10

    public var sleepQuality: Int
    public var feelRested: FeelRested
    public var grogginess: Grogginess
    public var mentalClarity: Int
    public var mood: Mood
    public var notes: String?
    /// The narcolepsy flags said yes to (SSOT 2.4.3 "Narcolepsy-Specific Flags"); the seed's
    /// default is none.
    public var flags: Set<NarcolepsyFlag>

    /// The seed's defaults: 3 stars, moderate, mild, 5, neutral, no flags.
    public init(sleepQuality: Int = 3, feelRested: FeelRested = .moderate, grogginess: Grogginess = .mild,
                mentalClarity: Int = 5, mood: Mood = .neutral, notes: String? = nil, flags: Set<NarcolepsyFlag> = []) {
        self.sleepQuality = sleepQuality
        self.feelRested = feelRested
        self.grogginess = grogginess
        self.mentalClarity = mentalClarity
        self.mood = mood
        self.notes = notes
        self.flags = flags
    }

    enum CodingKeys: String, CodingKey { case sleepQuality, feelRested, grogginess, mentalClarity, mood, notes, flags }

    /// A frame from a boxctl older than the flags has none: the seed's default.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(sleepQuality: try c.decode(Int.self, forKey: .sleepQuality), feelRested: try c.decode(FeelRested.self, forKey: .feelRested),
                  grogginess: try c.decode(Grogginess.self, forKey: .grogginess), mentalClarity: try c.decode(Int.self, forKey: .mentalClarity),
                  mood: try c.decode(Mood.self, forKey: .mood), notes: try c.decodeIfPresent(String.self, forKey: .notes),
                  flags: try c.decodeIfPresent(Set<NarcolepsyFlag>.self, forKey: .flags) ?? [])
    }

    /// The flags in the seed's order, so the same answers always make the same bytes.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sleepQuality, forKey: .sleepQuality)
        try c.encode(feelRested, forKey: .feelRested)
        try c.encode(grogginess, forKey: .grogginess)
        try c.encode(mentalClarity, forKey: .mentalClarity)
        try c.encode(mood, forKey: .mood)
        try c.encodeIfPresent(notes, forKey: .notes)
        try c.encode(flags.sorted(), forKey: .flags)
    }

    public var isValid: Bool {
        Self.qualityRange.contains(sleepQuality) && Self.clarityRange.contains(mentalClarity)
    }
}

public struct SessionRecord: Sendable, Hashable {
    public var id: String
    /// The grouping key, YYYY-MM-DD (sessionKey with the 18:00 rollover).
    public var date: String
    public var start: Moment
    /// The target interval set when the night began, for adherence (on time) in history and export.
    public var targetMinutes: Int
    /// The patient's zone when the night began (an IANA identifier): what the log says of local
    /// times when boxd is not there to say it. Nil in nights logged before it was kept.
    public var timeZone: String?
    public init(id: String, date: String, start: Moment, targetMinutes: Int = DoseConstants.box.window.defaultTargetMin,
                timeZone: String? = nil) {
        self.id = id
        self.date = date
        self.start = start
        self.targetMinutes = targetMinutes
        self.timeZone = timeZone
    }
}

public struct DoseRecord: Sendable, Hashable {
    public var id: String
    public var sessionID: String
    public var sessionDate: String
    public var type: DoseEventType
    public var at: Moment
    public var metadata: DoseMetadata
    public var source: Source
    public init(id: String, sessionID: String, sessionDate: String, type: DoseEventType, at: Moment, metadata: DoseMetadata = .init(), source: Source) {
        self.id = id
        self.sessionID = sessionID
        self.sessionDate = sessionDate
        self.type = type
        self.at = at
        self.metadata = metadata
        self.source = source
    }
}

public struct SleepEventRecord: Sendable, Hashable {
    public var id: String
    public var sessionID: String
    public var sessionDate: String
    public var type: SleepEventType
    public var at: Moment
    public var notes: String?
    public var source: Source
    public init(id: String, sessionID: String, sessionDate: String, type: SleepEventType, at: Moment, notes: String? = nil, source: Source) {
        self.id = id
        self.sessionID = sessionID
        self.sessionDate = sessionDate
        self.type = type
        self.at = at
        self.notes = notes
        self.source = source
    }
}

public struct CheckInRecord: Sendable, Hashable {
    public var id: String
    public var sessionID: String
    public var sessionDate: String
    public var at: Moment
    public var answers: CheckInAnswers
    public var source: Source
    public init(id: String, sessionID: String, sessionDate: String, at: Moment, answers: CheckInAnswers, source: Source) {
        self.id = id
        self.sessionID = sessionID
        self.sessionDate = sessionDate
        self.at = at
        self.answers = answers
        self.source = source
    }
}

/// Undo marks a dose event undone; the row stays.
public struct UndoRecord: Sendable, Hashable {
    public var eventID: String
    public var at: Moment
    public var source: Source
    public init(eventID: String, at: Moment, source: Source) {
        self.eventID = eventID
        self.at = at
        self.source = source
    }
}

public struct SessionCloseRecord: Sendable, Hashable {
    public var sessionID: String
    public var at: Moment
    public var terminalState: TerminalState
    public var reason: CloseReason
    public init(sessionID: String, at: Moment, terminalState: TerminalState, reason: CloseReason) {
        self.sessionID = sessionID
        self.at = at
        self.terminalState = terminalState
        self.reason = reason
    }
}

/// Something the box did or decided that a person elsewhere may need to know, kept in the
/// log so the event feed (and a caregiver behind it) learns it even after an outage: an
/// alarm rang, an alarm fell due and could not sound, or a caregiver escalation fell due
/// (`CaregiverPlan`).
public struct NoticeRecord: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case alarmRang = "alarm_rang"
        /// An alarm fell due but the speaker could not play it: the box could not wake the
        /// patient. Never written as `alarmRang` (see `Action.alarmNotHeard`).
        case alarmSilent = "alarm_silent"
        case alarmUnanswered = "alarm_unanswered"
        case dose2Missing = "dose2_missing"
        case windowClosedWithoutDose2 = "window_closed_without_dose2"

        public init(_ alert: CaregiverPlan.Alert) { self = Kind(rawValue: alert.rawValue)! }
    }
    public var id: String
    public var sessionID: String
    public var sessionDate: String
    public var kind: Kind
    public var at: Moment
    /// The Dose 1 the night's alarms and escalations count from.
    public var dose1ID: String
    /// For `alarmRang` and `alarmSilent`: which alert fell due, and how hard.
    public var alert: AlertKind?
    public var level: AlarmLevel?
    public init(id: String, sessionID: String, sessionDate: String, kind: Kind, at: Moment, dose1ID: String,
                alert: AlertKind? = nil, level: AlarmLevel? = nil) {
        self.id = id
        self.sessionID = sessionID
        self.sessionDate = sessionDate
        self.kind = kind
        self.at = at
        self.dose1ID = dose1ID
        self.alert = alert
        self.level = level
    }
}

/// One thing to write. A transition's records are written in one transaction, in order.
public enum LogRecord: Sendable, Hashable {
    case sessionOpened(SessionRecord)
    case dose(DoseRecord)
    case sleepEvent(SleepEventRecord)
    case checkIn(CheckInRecord)
    case undone(UndoRecord)
    case sessionClosed(SessionCloseRecord)
    case notice(NoticeRecord)
    case fault(FaultRecord)
    /// A medication taken (`MedicationLog`); the patient's record, not the night's state.
    case medication(MedicationRecord)
    /// A refill, an adjustment of the count, or a refill reminder given (`Supply`).
    case supply(SupplyRecord)
    /// The evening before (#33, `Evening`): a drink, a drink taken back, a pacing message.
    case drink(DrinkRecord)
    case drinkUndone(DrinkUndoRecord)
    case pacing(PacingRecord)
    /// An evening's pre-sleep log, written whole (a new one or an edit of that evening's).
    case preSleep(PreSleepLog)
}
