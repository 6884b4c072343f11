import DoseCore
import Foundation
import GRDB

/// One session as the records that recreate it, ready to be folded by the core.
public struct SessionSnapshot: Sendable, Hashable {
    /// In fold order: `.sessionOpened` first; then dose events, sleep events, the check-in
    /// and notices in the order they were appended (the order the core applied them live,
    /// whatever the wall clock said), each undone dose event followed directly by its
    /// `.undone`; `.sessionClosed` last if the session is closed (a notice written after
    /// the close comes before it here; `Night` folds a notice whether or not it is closed).
    public var records: [LogRecord]

    public init(records: [LogRecord]) {
        self.records = records
    }

    public var sessionID: String? {
        if case .sessionOpened(let s) = records.first { return s.id }
        return nil
    }

    public var isClosed: Bool {
        if case .sessionClosed = records.last { return true }
        return false
    }
}

/// One night in the history list. Undone events never count.
public struct NightSummary: Sendable, Hashable {
    public var sessionDate: String
    public var sessionID: String
    public var dose1: Date?
    /// The dose2 event only; an extra_dose never fills it.
    public var dose2: Date?
    /// Dose 1 to Dose 2, measured like `Moment.elapsed`: monotonic within one boot, wall clock across a reboot.
    public var intervalMinutes: Double?
    /// |interval - target| <= the on-time threshold (target: the default target, the log does not store per-night targets).
    public var onTime: Bool
    public var snoozeCount: Int
    public var skipped: Bool
    /// Nil while the session is open.
    public var terminalState: TerminalState?
}

extension NightLog {
    // MARK: - Rebuild

    /// The latest recovery from a damaged file: when (on the box's clock) and whether
    /// tonight's doses were established. The daemon doubts tonight's record after an
    /// uncertain one until that night ends, across restarts.
    public func lastRecovery() throws(NightLogError) -> (at: Date, doseRecordCertain: Bool)? {
        try guarded {
            try db.read { db in
                guard try db.tableExists("log_recoveries"),
                      let row = try Row.fetchOne(db, sql: "SELECT recovered_at, dose_record_certain FROM log_recoveries ORDER BY id DESC LIMIT 1"),
                      let text = row[0] as String?, let at = Date(iso8601: text) else { return nil }
                return (at, (row[1] as Int? ?? 0) == 1)
            }
        }
    }

    /// The most recently opened session (open or closed), or nil on an empty log.
    /// "Most recent" is the last one appended (highest seq), not the latest wall-clock
    /// start: a wall clock that was wrong when a session opened must not hide it.
    public func latestSession() throws(NightLogError) -> SessionSnapshot? {
        let path = self.path
        return try guarded {
            try db.read { db in
                guard let id = try String.fetchOne(db, sql: "SELECT session_id FROM sleep_sessions ORDER BY seq DESC LIMIT 1") else {
                    return nil
                }
                return try Self.snapshot(sessionID: id, db: db, path: path)
            }
        }
    }

    /// What boxd starts from (`PersistedNight`): the latest session's records and the last
    /// dose taken in the whole log, in one read transaction. The last dose is one lookup in
    /// the partial index `dose_events_taken` (migration v12), newest seq first.
    public func persistedNight() throws(NightLogError) -> PersistedNight {
        let path = self.path
        return try guarded {
            try db.read { db in
                var night = PersistedNight()
                if let id = try String.fetchOne(db, sql: "SELECT session_id FROM sleep_sessions ORDER BY seq DESC LIMIT 1") {
                    night.records = try Self.snapshot(sessionID: id, db: db, path: path)?.records ?? []
                }
                night.lastDoseTaken = try Self.lastDoseTaken(db, path: path)
                return night
            }
        }
    }

    static func lastDoseTaken(_ db: Database, path: String) throws -> DoseRecord? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT * FROM dose_events WHERE \(Schema.doseTakenCondition) ORDER BY seq DESC LIMIT 1
            """) else { return nil }
        let r = StoredRow(row, "dose_events", path: path)
        guard case .dose(let d)? = try doseRecords(r, sessionID: try r.text("session_id")).first else { return nil }
        return d
    }

    /// The records of one session, in the same order as `latestSession`; nil if unknown.
    public func records(sessionID: String) throws(NightLogError) -> SessionSnapshot? {
        let path = self.path
        return try guarded {
            try db.read { db in try Self.snapshot(sessionID: sessionID, db: db, path: path) }
        }
    }

    private static func snapshot(sessionID: String, db: Database, path: String) throws -> SessionSnapshot? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sleep_sessions WHERE session_id = ?", arguments: [sessionID]) else {
            return nil
        }
        let session = try sessionRecords(StoredRow(row, "sleep_sessions \(sessionID)", path: path), sessionID: sessionID)
        var records: [LogRecord] = [session.opened]

        // Append order (seq), not timestamps: a wall clock stepped back mid-night must not reorder the fold.
        var timed: [(timestamp: String, seq: Int64, records: [LogRecord])] = []

        for row in try Row.fetchAll(db, sql: "SELECT * FROM dose_events WHERE session_id = ?", arguments: [sessionID]) {
            let r = StoredRow(row, "dose_events", path: path)
            timed.append((try r.text("timestamp"), try r.int64("seq"), try doseRecords(r, sessionID: sessionID)))
        }

        for row in try Row.fetchAll(db, sql: "SELECT * FROM sleep_events WHERE session_id = ?", arguments: [sessionID]) {
            let r = StoredRow(row, "sleep_events", path: path)
            timed.append((try r.text("timestamp"), try r.int64("seq"), [try sleepEventRecord(r, sessionID: sessionID)]))
        }

        for row in try Row.fetchAll(db, sql: "SELECT * FROM morning_checkins WHERE session_id = ?", arguments: [sessionID]) {
            let r = StoredRow(row, "morning_checkins", path: path)
            timed.append((try r.text("timestamp"), try r.int64("seq"), [try checkInRecord(r, sessionID: sessionID)]))
        }

        for row in try Row.fetchAll(db, sql: "SELECT * FROM notices WHERE session_id = ?", arguments: [sessionID]) {
            let r = StoredRow(row, "notices", path: path)
            timed.append((try r.text("timestamp"), try r.int64("seq"), [try noticeRecord(r, sessionID: sessionID)]))
        }

        timed.sort { $0.seq < $1.seq }
        records += timed.flatMap(\.records)
        if let closed = session.closed { records.append(closed) }
        return SessionSnapshot(records: records)
    }

    // MARK: - One stored row back to its records (also how a salvage judges a row)

    /// A sleep_sessions row: its `.sessionOpened`, and its `.sessionClosed` if it is closed.
    static func sessionRecords(_ session: StoredRow, sessionID: String) throws -> (opened: LogRecord, closed: LogRecord?) {
        let opened = LogRecord.sessionOpened(SessionRecord(
            id: sessionID, date: try session.text("session_date"),
            start: try session.moment("start_utc", boot: "start_boot_id", mono: "start_mono_ns"),
            targetMinutes: try session.int("target_minutes"),
            // A salvage reads rows of the file as it was, which may predate the column.
            timeZone: session.row.hasColumn("time_zone") ? try session.optionalText("time_zone") : nil))
        guard try session.optionalText("end_utc") != nil else { return (opened, nil) }
        return (opened, .sessionClosed(SessionCloseRecord(
            sessionID: sessionID, at: try session.moment("end_utc", boot: "end_boot_id", mono: "end_mono_ns"),
            terminalState: try session.value("terminal_state"), reason: try session.value("close_reason"))))
    }

    /// A dose_events row: its `.dose`, followed by its `.undone` if it was undone.
    static func doseRecords(_ r: StoredRow, sessionID: String) throws -> [LogRecord] {
        let id = try r.text("id")
        let dose = DoseRecord(id: id, sessionID: sessionID, sessionDate: try r.text("session_date"), type: try r.value("event_type"),
                              at: try r.moment("timestamp", boot: "boot_id", mono: "mono_ns"),
                              metadata: try r.metadata("metadata"), source: try r.source("source"))
        var group: [LogRecord] = [.dose(dose)]
        if try r.optionalText("undone_at") != nil {
            group.append(.undone(UndoRecord(eventID: id, at: try r.moment("undone_at", boot: "undone_boot_id", mono: "undone_mono_ns"),
                                            source: try r.source("undone_source"))))
        }
        return group
    }

    static func sleepEventRecord(_ r: StoredRow, sessionID: String) throws -> LogRecord {
        .sleepEvent(SleepEventRecord(id: try r.text("id"), sessionID: sessionID, sessionDate: try r.text("session_date"),
                                     type: try r.value("event_type"), at: try r.moment("timestamp", boot: "boot_id", mono: "mono_ns"),
                                     notes: try r.optionalText("notes"), source: try r.source("source")))
    }

    static func checkInRecord(_ r: StoredRow, sessionID: String) throws -> LogRecord {
        let answers = CheckInAnswers(sleepQuality: try r.int("sleep_quality"), feelRested: try r.value("feel_rested"),
                                     grogginess: try r.value("grogginess"), mentalClarity: try r.int("mental_clarity"),
                                     mood: try r.value("mood"), notes: try r.optionalText("notes"),
                                     flags: Set(try NarcolepsyFlag.allCases.filter { try r.int($0.rawValue) != 0 }))
        return .checkIn(CheckInRecord(id: try r.text("id"), sessionID: sessionID, sessionDate: try r.text("session_date"),
                                      at: try r.moment("timestamp", boot: "boot_id", mono: "mono_ns"),
                                      answers: answers, source: try r.source("source")))
    }

    /// A notices row. alert and level are read back as stored (NULL stays nil); a value
    /// this build does not know makes the row unreadable, like any other enum column.
    static func noticeRecord(_ r: StoredRow, sessionID: String) throws -> LogRecord {
        let alert: AlertKind? = try r.optionalText("alert").map { try r.parse($0, "alert") }
        let level: AlarmLevel? = try r.optionalInt("level").map { raw in
            guard let level = AlarmLevel(rawValue: raw) else { throw r.bad("level", String(raw)) }
            return level
        }
        return .notice(NoticeRecord(id: try r.text("id"), sessionID: sessionID, sessionDate: try r.text("session_date"),
                                    kind: try r.value("kind"), at: try r.moment("timestamp", boot: "boot_id", mono: "mono_ns"),
                                    dose1ID: try r.text("dose1_id"), alert: alert, level: level))
    }

    /// A fault_events row. state must be 'raised' or 'cleared' (the table's CHECK); code is
    /// kept as written (a fault this build does not know is still a fault).
    static func faultRecord(_ r: StoredRow) throws -> LogRecord {
        let state = try r.text("state")
        guard state == "raised" || state == "cleared" else { throw r.bad("state", state) }
        return .fault(FaultRecord(id: try r.text("id"), code: try r.text("code"), raised: state == "raised",
                                  at: try r.moment("timestamp", boot: "boot_id", mono: "mono_ns")))
    }

    // MARK: - History

    /// One summary per session, newest first (by session date, then by append order).
    public func recentNights(limit: Int) throws(NightLogError) -> [NightSummary] {
        guard limit > 0 else { return [] }
        let path = self.path
        return try guarded {
            try db.read { db in
                let sql = SessionQuery.sql(naturalWake: false, filter: "", order: "s.session_date DESC, s.seq DESC") + " LIMIT ?"
                return try Row.fetchAll(db, sql: sql, arguments: [limit]).map { row in
                    let id: String = try row.decode(atIndex: SessionQuery.sessionID)
                    let r = StoredRow(row, "sleep_sessions \(id)", path: path)
                    let interval: Double? = try row.decode(atIndex: SessionQuery.intervalMin)
                    let state: String? = try row.decode(atIndex: SessionQuery.terminalState)
                    return NightSummary(
                        sessionDate: try row.decode(atIndex: SessionQuery.sessionDate), sessionID: id,
                        dose1: try (row.decode(atIndex: SessionQuery.dose1) as String?).map { try r.date($0) },
                        dose2: try (row.decode(atIndex: SessionQuery.dose2) as String?).map { try r.date($0) },
                        intervalMinutes: interval, onTime: try SessionQuery.isOnTime(row),
                        snoozeCount: try row.decode(atIndex: SessionQuery.snoozes),
                        skipped: try row.decode(atIndex: SessionQuery.skipped),
                        terminalState: try state.map { try r.parse($0, "terminal_state") })
                }
            }
        }
    }
}

/// One stored row read back column by column. Odd data (a NULL, a wrong type, an unknown
/// enum string) becomes `NightLogError.unreadable` naming the row, never a crash.
struct StoredRow {
    let row: Row
    let location: String
    let path: String

    init(_ row: Row, _ table: String, path: String) {
        self.row = row
        self.path = path
        let id = (try? row.decode(String?.self, forColumn: "id")) ?? nil
        location = id.map { "\(table) \($0)" } ?? table
    }

    func bad(_ column: String, _ value: String?) -> NightLogError {
        .unreadable(path: path, detail: "\(location): \(column) = \(value.map { "'\($0)'" } ?? "NULL")")
    }

    private func column<T: DatabaseValueConvertible>(_ column: String) throws -> T {
        do {
            return try row.decode(forColumn: column)
        } catch {
            throw bad(column, (row[column] as DatabaseValue?).map(\.description))
        }
    }

    func text(_ c: String) throws -> String { try column(c) }
    func optionalText(_ c: String) throws -> String? { try column(c) }
    func int(_ c: String) throws -> Int { try column(c) }
    func int64(_ c: String) throws -> Int64 { try column(c) }
    func double(_ c: String) throws -> Double { try column(c) }
    func optionalInt(_ c: String) throws -> Int? { try column(c) }
    func optionalDouble(_ c: String) throws -> Double? { try column(c) }
    func optionalBool(_ c: String) throws -> Bool? { try column(c) }

    /// A stored enum (wire string) back to its Swift case.
    func value<T: RawRepresentable>(_ c: String) throws -> T where T.RawValue == String {
        let raw: String? = try column(c)
        return try parse(raw, c)
    }

    func parse<T: RawRepresentable>(_ raw: String?, _ c: String) throws -> T where T.RawValue == String {
        guard let raw, let value = T(rawValue: raw) else { throw bad(c, raw) }
        return value
    }

    func date(_ text: String) throws -> Date {
        guard let date = Date(iso8601: text) else { throw bad("timestamp", text) }
        return date
    }

    func moment(_ wall: String, boot: String, mono: String) throws -> Moment {
        Moment(wall: try date(try text(wall)), boot: try text(boot), monoNanos: try int64(mono))
    }

    func source(_ c: String) throws -> Source {
        let raw = try text(c)
        guard let source = Source(raw) else { throw bad(c, raw) }
        return source
    }

    func metadata(_ c: String) throws -> DoseMetadata {
        let raw = try text(c)
        guard raw != "{}" else { return DoseMetadata() }
        do {
            return try JSONDecoder().decode(DoseMetadata.self, from: Data(raw.utf8))
        } catch {
            throw bad(c, raw)
        }
    }
}
