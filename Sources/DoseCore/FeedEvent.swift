/// One entry of the night log's event feed: what `boxctl watch` prints and what a caregiver
/// bridge forwards. The feed is read from the log itself (the night log stays the one source
/// of truth), in the order the records were written.
///
/// `id` is the log's `seq`: one sequence over every table, strictly increasing and never
/// reused, so "every event after id N" is a complete answer for a reader that saw up to N,
/// and a consumer can drop a message whose id it has seen.
public struct FeedEvent: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// A session opened (Dose 1 or a sleep event started the night).
        case nightStarted = "night_started"
        case dose1
        case dose2
        case extraDose = "extra_dose"
        /// Dose 2 skipped on purpose.
        case dose2Skipped = "dose2_skipped"
        case snooze
        /// A dose event was undone; `subject` is the undone event's id.
        case undo
        case sleepEvent = "sleep_event"
        case checkIn = "checkin"
        /// The session closed; terminalState and reason say how.
        case nightClosed = "night_closed"
        /// An alert of the night's plan rang; eventType is the alert (main_alarm …), level how hard.
        case alarmRang = "alarm_rang"
        /// An alert of the plan fell due but could not sound (the speaker failed): nobody was
        /// woken. eventType and level as for alarmRang.
        case alarmSilent = "alarm_silent"
        /// Caregiver escalations (`CaregiverPlan`); subject is the Dose 1 they count from.
        case alarmUnanswered = "alarm_unanswered"
        case dose2Missing = "dose2_missing"
        case windowClosedWithoutDose2 = "window_closed_without_dose2"
        /// A fault of the box raised or cleared (`FaultRecord`); eventType is its code. No session.
        case faultRaised = "fault_raised"
        case faultCleared = "fault_cleared"
        /// The supply (`SupplyRecord`): a refill, a correction of the count, a refill
        /// reminder given at Dose 1 (that one with the night's session). eventType is unset.
        case refillLogged = "refill_logged"
        case inventoryAdjustment = "inventory_adjustment"
        case refillReminder = "refill_reminder"
        /// The evening before (#33): a drink (eventType its type, units), one taken back, and
        /// what the pacing engine told (eventType its code, notes its words, level its severity).
        /// An evening's, not a night's: no session.
        case drinkLogged = "drink_logged"
        case drinkUndone = "drink_undone"
        case pacing
    }

    /// The log's seq of this record (for an undo or a close: the seq given to that change).
    public var id: Int64
    public var kind: Kind
    /// When it happened: ISO 8601 UTC with milliseconds, as stored.
    public var at: String
    /// nil for a fault (the box's, not a night's).
    public var sessionID: String?
    public var sessionDate: String?
    /// The record it is about: the dose event's, sleep event's or check-in's id (for an
    /// undo, the undone dose event's); nil for a session's start and close.
    public var subject: String?
    /// Who made the change (`button:dose`, `boxctl:uid=1000`, `system`): the record's source.
    public var source: String?
    /// A sleep event's type; for an undo, the undone event's type (`snooze`, `dose2` …); for
    /// an alarm, the alert that rang (`main_alarm` …).
    public var eventType: String?
    public var notes: String?
    /// A dose's metadata (schema seed): early, late, the snooze's number, a skip's reason.
    public var isEarly: Bool?
    public var isLate: Bool?
    public var snoozeNumber: Int?
    /// A skip's reason, or why a session closed.
    public var reason: String?
    /// How a session ended (completed, skipped, expired, aborted).
    public var terminalState: String?
    /// The target in effect when a session began.
    public var targetMinutes: Int?
    /// How hard an alarm rang (gentle, standard, critical).
    public var level: String?
    /// For the supply's entries: the change in doses, and the count after it.
    public var doses: Int?
    public var remainingDoses: Int?
    /// A drink's standard units.
    public var units: Double?

    public init(id: Int64, kind: Kind, at: String, sessionID: String?, sessionDate: String?, subject: String? = nil,
                source: String? = nil, eventType: String? = nil, notes: String? = nil, isEarly: Bool? = nil,
                isLate: Bool? = nil, snoozeNumber: Int? = nil, reason: String? = nil, terminalState: String? = nil,
                targetMinutes: Int? = nil, level: String? = nil, doses: Int? = nil, remainingDoses: Int? = nil, units: Double? = nil) {
        self.id = id
        self.kind = kind
        self.at = at
        self.sessionID = sessionID
        self.sessionDate = sessionDate
        self.subject = subject
        self.source = source
        self.eventType = eventType
        self.notes = notes
        self.isEarly = isEarly
        self.isLate = isLate
        self.snoozeNumber = snoozeNumber
        self.reason = reason
        self.terminalState = terminalState
        self.targetMinutes = targetMinutes
        self.level = level
        self.doses = doses
        self.remainingDoses = remainingDoses
        self.units = units
    }

    // camelCase here; the control protocol's coders put snake_case on the wire (session_id …).
    enum CodingKeys: String, CodingKey {
        case id, kind, at, subject, source, eventType, notes, isEarly, isLate, snoozeNumber, reason, terminalState, targetMinutes, level
        case doses, remainingDoses, units
        case sessionID = "sessionId"
        case sessionDate
    }
}
