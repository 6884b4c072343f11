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
        /// The session closed; `detail` has terminal_state and reason.
        case nightClosed = "night_closed"
    }

    /// The log's seq of this record (for an undo or a close: the seq given to that change).
    public var id: Int64
    public var kind: Kind
    /// When it happened: ISO 8601 UTC with milliseconds, as stored.
    public var at: String
    public var sessionID: String
    public var sessionDate: String
    /// The record it is about: the dose event's, sleep event's or check-in's id (for an
    /// undo, the undone dose event's); nil for a session's start and close.
    public var subject: String?
    /// The record's own facts by the log's names (source, event_type, terminal_state,
    /// reason, the dose metadata keys); only what the record has.
    public var detail: [String: String]

    public init(id: Int64, kind: Kind, at: String, sessionID: String, sessionDate: String, subject: String? = nil,
                detail: [String: String] = [:]) {
        self.id = id
        self.kind = kind
        self.at = at
        self.sessionID = sessionID
        self.sessionDate = sessionDate
        self.subject = subject
        self.detail = detail
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, at, subject, detail
        case sessionID = "session_id"
        case sessionDate = "session_date"
    }
}
