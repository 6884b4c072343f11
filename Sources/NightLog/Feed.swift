import DoseCore
import Foundation
import GRDB

/// The event feed (`FeedEvent`), read from the log itself: one entry per seq given.
///
/// - sleep_sessions: `.nightStarted` (seq, start_utc; targetMinutes) and, once closed,
///   `.nightClosed` (end_seq, end_utc; terminalState, reason = close_reason).
/// - dose_events: the dose by its event_type (seq, timestamp; source and the metadata's
///   is_early, is_late, snooze_number, reason) and, once undone, `.undo` (undone_seq,
///   undone_at; eventType = the undone row's event_type, source = undone_source). The undone
///   dose keeps its own entry: it happened. (is_extra_dose has no field: the kind says it.)
/// - sleep_events: `.sleepEvent` (eventType, source, notes).
/// - morning_checkins: `.checkIn` (source).
/// - notices: the notice's kind (`.alarmRang`, `.alarmSilent`, `.alarmUnanswered`, `.dose2Missing`,
///   `.windowClosedWithoutDose2`; seq, timestamp; subject = dose1_id). For `.alarmRang` and
///   `.alarmSilent`, eventType is the alert that fell due (`main_alarm` …) and level how hard
///   (`gentle`, `standard`, `critical`); nil for the escalations. No source: the box gives notices.
///
/// - drink_logs (#33): `.drinkLogged` (seq, timestamp: when drunk; eventType = the drink's type,
///   units) and, once taken back, `.drinkUndone` (undone_seq, undone_at). No session: an
///   evening's, not a night's; sessionDate is the night it leads into.
/// - pacing_events: `.pacing` (eventType = its code, notes = its words, level = its severity).
///
/// `subject` is the dose event's, sleep event's or check-in's id (a notice's Dose 1); texts are as stored.
extension NightLog {
    /// Every feed entry with an id greater than `after`, in ascending id order, at most `limit`
    /// of them. Reading again with `after` = the last id returned continues without a gap or
    /// a repeat (ids are never reused).
    public func feed(after: Int64, limit: Int) throws(NightLogError) -> [FeedEvent] {
        guard limit > 0 else { return [] }
        let path = self.path
        return try guarded {
            try db.read { db in
                try Row.fetchAll(db, sql: Self.feedSQL, arguments: ["after": after, "limit": limit]).map { row in
                    try Self.feedEvent(row, path: path)
                }
            }
        }
    }

    /// How many feed entries there are after `after` (a caregiver bridge's backlog).
    public func feedCount(after: Int64) throws(NightLogError) -> Int {
        try guarded {
            try db.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(Self.feedSQL))", arguments: ["after": after, "limit": Int64.max]) ?? 0
            }
        }
    }

    /// The highest id in the feed (the last seq given), 0 for an empty log: where a reader
    /// that wants only what comes next starts.
    public func lastFeedID() throws(NightLogError) -> Int64 {
        try guarded {
            try db.read { db in try Self.nextSeq(db) - 1 }
        }
    }

    /// A notice's feed kind, by its stored kind.
    static func feedKind(_ kind: NoticeRecord.Kind) -> FeedEvent.Kind {
        switch kind {
        case .alarmRang: .alarmRang
        case .alarmSilent: .alarmSilent
        case .alarmUnanswered: .alarmUnanswered
        case .dose2Missing: .dose2Missing
        case .windowClosedWithoutDose2: .windowClosedWithoutDose2
        }
    }

    /// notices.kind to the feed's kind, in SQL.
    private static let noticeKindSQL = "CASE kind "
        + NoticeRecord.Kind.allCases.map { "WHEN '\($0.rawValue)' THEN '\(feedKind($0).rawValue)'" }.joined(separator: " ") + " END"

    /// The notice kinds about one alarm (with its alert and level), as an SQL list.
    private static let alarmKindsSQL = Schema.sqlList([NoticeRecord.Kind.alarmRang, .alarmSilent].map(\.rawValue))

    /// notices.level (AlarmLevel's raw Int) to its name, in SQL; an alarm's notices only.
    private static let noticeLevelSQL = "CASE WHEN kind IN (\(alarmKindsSQL)) THEN CASE level "
        + AlarmLevel.allCases.map { "WHEN \($0.rawValue) THEN '\($0.description)'" }.joined(separator: " ") + " END END"

    /// One UNION ALL over the kinds of change. Each branch is limited on its own (a range
    /// of its UNIQUE seq index), then the union is ordered by id and limited again: a read
    /// costs about `limit` rows per branch, however long the log.
    /// Columns: id, kind, at, session_id, session_date, subject, source, event_type, notes,
    /// is_early, is_late, snooze_number, reason, terminal_state, target_minutes, level, doses, remaining_doses, units.
    static let feedSQL = """
        SELECT * FROM (
            SELECT seq AS id, '\(FeedEvent.Kind.nightStarted.rawValue)' AS kind, start_utc AS at, session_id, session_date,
                   NULL AS subject, NULL AS source, NULL AS event_type, NULL AS notes, NULL AS is_early, NULL AS is_late,
                   NULL AS snooze_number, NULL AS reason, NULL AS terminal_state, target_minutes, NULL AS level, NULL AS doses, NULL AS remaining_doses,
                   NULL AS units
            FROM sleep_sessions WHERE seq > :after ORDER BY seq LIMIT :limit)
        UNION ALL SELECT * FROM (
            SELECT seq, event_type, timestamp, session_id, session_date, id, source, NULL, NULL,
                   json_extract(metadata, '$.is_early'), json_extract(metadata, '$.is_late'),
                   json_extract(metadata, '$.snooze_number'), json_extract(metadata, '$.reason'), NULL, NULL, NULL, NULL, NULL, NULL
            FROM dose_events WHERE seq > :after ORDER BY seq LIMIT :limit)
        UNION ALL SELECT * FROM (
            SELECT undone_seq, '\(FeedEvent.Kind.undo.rawValue)', undone_at, session_id, session_date, id, undone_source, event_type,
                   NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
            FROM dose_events WHERE undone_seq > :after ORDER BY undone_seq LIMIT :limit)
        UNION ALL SELECT * FROM (
            SELECT seq, '\(FeedEvent.Kind.sleepEvent.rawValue)', timestamp, session_id, session_date, id, source, event_type, notes,
                   NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
            FROM sleep_events WHERE seq > :after ORDER BY seq LIMIT :limit)
        UNION ALL SELECT * FROM (
            SELECT seq, '\(FeedEvent.Kind.checkIn.rawValue)', timestamp, session_id, session_date, id, source, NULL, NULL,
                   NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
            FROM morning_checkins WHERE seq > :after ORDER BY seq LIMIT :limit)
        UNION ALL SELECT * FROM (
            SELECT end_seq, '\(FeedEvent.Kind.nightClosed.rawValue)', end_utc, session_id, session_date, NULL, NULL, NULL, NULL,
                   NULL, NULL, NULL, close_reason, terminal_state, NULL, NULL, NULL, NULL, NULL
            FROM sleep_sessions WHERE end_seq > :after ORDER BY end_seq LIMIT :limit)
        UNION ALL SELECT * FROM (
            SELECT seq, \(noticeKindSQL), timestamp, session_id, session_date, dose1_id, NULL,
                   CASE WHEN kind IN (\(alarmKindsSQL)) THEN alert END, NULL,
                   NULL, NULL, NULL, NULL, NULL, NULL, \(noticeLevelSQL), NULL, NULL, NULL
            FROM notices WHERE seq > :after ORDER BY seq LIMIT :limit)
        UNION ALL SELECT * FROM (
            SELECT seq, CASE state WHEN 'raised' THEN '\(FeedEvent.Kind.faultRaised.rawValue)' ELSE '\(FeedEvent.Kind.faultCleared.rawValue)' END,
                   timestamp, NULL, NULL, id, NULL, code, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
            FROM fault_events WHERE seq > :after ORDER BY seq LIMIT :limit)
        UNION ALL SELECT * FROM (
            SELECT seq, event_type, timestamp, session_id, session_date, id, source, NULL, notes,
                   NULL, NULL, NULL, NULL, NULL, NULL, NULL, doses, remaining_after, NULL
            FROM inventory_events WHERE seq > :after ORDER BY seq LIMIT :limit)
        UNION ALL SELECT * FROM (
            SELECT seq, '\(FeedEvent.Kind.drinkLogged.rawValue)', timestamp, NULL, session_date, id, source, drink_type_id, NULL,
                   NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, standard_drink_units
            FROM drink_logs WHERE seq > :after ORDER BY seq LIMIT :limit)
        UNION ALL SELECT * FROM (
            SELECT undone_seq, '\(FeedEvent.Kind.drinkUndone.rawValue)', undone_at, NULL, session_date, id, undone_source, drink_type_id,
                   NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, standard_drink_units
            FROM drink_logs WHERE undone_seq > :after ORDER BY undone_seq LIMIT :limit)
        UNION ALL SELECT * FROM (
            SELECT seq, '\(FeedEvent.Kind.pacing.rawValue)', timestamp, NULL, session_date, id, NULL, code, message,
                   NULL, NULL, NULL, NULL, NULL, NULL, severity, NULL, NULL, NULL
            FROM pacing_events WHERE seq > :after ORDER BY seq LIMIT :limit)
        ORDER BY id LIMIT :limit
        """

    /// One row of `feedSQL`; a value of the wrong type becomes `.unreadable` naming the entry.
    private static func feedEvent(_ row: Row, path: String) throws -> FeedEvent {
        let id = (try? row.decode(Int64?.self, atIndex: 0)) ?? nil
        let r = StoredRow(row, "feed entry \(id.map(String.init) ?? "NULL")", path: path)
        return FeedEvent(id: try r.int64("id"), kind: try r.value("kind"), at: try r.text("at"),
                         sessionID: try r.optionalText("session_id"), sessionDate: try r.optionalText("session_date"),
                         subject: try r.optionalText("subject"), source: try r.optionalText("source"),
                         eventType: try r.optionalText("event_type"), notes: try r.optionalText("notes"),
                         isEarly: try r.optionalBool("is_early"), isLate: try r.optionalBool("is_late"),
                         snoozeNumber: try r.optionalInt("snooze_number"), reason: try r.optionalText("reason"),
                         terminalState: try r.optionalText("terminal_state"), targetMinutes: try r.optionalInt("target_minutes"),
                         level: try r.optionalText("level"), doses: try r.optionalInt("doses"),
                         remainingDoses: try r.optionalInt("remaining_doses"), units: try r.optionalDouble("units"))
    }
}
