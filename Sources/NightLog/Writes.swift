import DoseCore
import Foundation
import GRDB

extension NightLog {
    /// Writes `records`, in order, in one transaction, and returns only after the commit
    /// reached the disk (WAL + `synchronous = FULL`). This is the durability point: boxd
    /// acknowledges a dose only after `append` returns. All or nothing: if any record is
    /// refused, none of them is stored.
    ///
    /// Then the witness is rewritten (`afterCommit`); what fails there is returned as a
    /// warning, not thrown: the records are on the disk already. The checkpoint that follows a
    /// dose is the caller's (`checkpoint`), after its acknowledgement is under way.
    @discardableResult
    public func append(_ records: [LogRecord]) throws(NightLogError) -> String? {
        guard !records.isEmpty else { return nil }
        let path = self.path
        // A NUL byte never reaches the file: it is how a damaged overflow page reads back
        // (see `Salvage.textDamage`), so a stored one would look like damage.
        for record in records where Self.texts(of: record).contains(where: { $0.utf8.contains(0) }) {
            throw .invalidRecord(path: path, detail: "a text of record \(Self.texts(of: record)[0]) holds a NUL byte")
        }
        try guarded {
            try db.write { db in
                var seq = try Self.nextSeq(db)
                for record in records {
                    try Self.insert(record, seq: seq, db: db, path: path)
                    if record.takesSeq { seq += 1 }
                }
            }
        }
        return afterCommit()
    }

    /// Every text a record stores (JSON metadata escapes its own NULs, so it is left out).
    private static func texts(of record: LogRecord) -> [String] {
        switch record {
        case .sessionOpened(let s): [s.id, s.date, s.start.boot, s.timeZone ?? ""]
        case .dose(let d): [d.id, d.sessionID, d.sessionDate, d.source.description, d.at.boot]
        case .sleepEvent(let e): [e.id, e.sessionID, e.sessionDate, e.source.description, e.at.boot, e.notes ?? ""]
        case .checkIn(let c): [c.id, c.sessionID, c.sessionDate, c.source.description, c.at.boot, c.answers.notes ?? ""]
        case .undone(let u): [u.eventID, u.source.description, u.at.boot]
        case .sessionClosed(let c): [c.sessionID, c.at.boot]
        case .notice(let n): [n.id, n.sessionID, n.sessionDate, n.at.boot, n.dose1ID]
        case .fault(let f): [f.id, f.code, f.at.boot]
        case .medication(let m): [m.id, m.sessionID ?? "", m.sessionDate, m.medicationID, m.doseUnit, m.formulation, m.notes ?? "",
                                  m.source.description]
        case .supply(let x): [x.id, x.kind.rawValue, x.at.boot, x.sessionID ?? "", x.sessionDate ?? "", x.notes ?? "", x.source.description]
        case .drink(let d): [d.id, d.sessionID, d.sessionDate, d.source.description, d.logged.boot]
        case .drinkUndone(let u): [u.drinkID, u.source.description, u.at.boot]
        case .pacing(let p): [p.id, p.sessionID, p.sessionDate, p.at.boot, p.code, p.message, p.severity]
        case .preSleep(let p): [p.id, p.sessionDate, p.answers.notes ?? ""]
        }
    }

    /// One past the highest seq given so far: `seq` in any table (notices included), and the seqs of undos
    /// (`undone_seq`) and session closes (`end_seq`). Each MAX is a lookup in its UNIQUE index.
    static func nextSeq(_ db: Database) throws -> Int64 {
        let max = try Int64.fetchOne(db, sql: """
            SELECT MAX(m) FROM (
                SELECT MAX(seq) AS m FROM sleep_sessions
                UNION ALL SELECT MAX(end_seq) FROM sleep_sessions
                UNION ALL SELECT MAX(seq) FROM dose_events
                UNION ALL SELECT MAX(undone_seq) FROM dose_events
                UNION ALL SELECT MAX(seq) FROM sleep_events
                UNION ALL SELECT MAX(seq) FROM morning_checkins
                UNION ALL SELECT MAX(seq) FROM notices
                UNION ALL SELECT MAX(seq) FROM fault_events
                UNION ALL SELECT MAX(seq) FROM inventory_events
                UNION ALL SELECT MAX(seq) FROM drink_logs
                UNION ALL SELECT MAX(undone_seq) FROM drink_logs
                UNION ALL SELECT MAX(seq) FROM pacing_events
                UNION ALL SELECT MAX(value) FROM seq_floor)
            """)
        return (max ?? 0) + 1
    }

    static func insert(_ record: LogRecord, seq: Int64, db: Database, path: String) throws {
        switch record {
        case .sessionOpened(let s):
            try db.cachedStatement(sql: """
                INSERT INTO sleep_sessions (session_id, seq, session_date, start_utc, start_boot_id, start_mono_ns, target_minutes, time_zone)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [s.id, seq, s.date, s.start.wall.iso8601, s.start.boot, s.start.monoNanos, s.targetMinutes,
                                         s.timeZone])

        case .dose(let d):
            try db.cachedStatement(sql: """
                INSERT INTO dose_events (id, seq, session_id, session_date, event_type, timestamp, metadata, source, boot_id, mono_ns)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [d.id, seq, d.sessionID, d.sessionDate, d.type.rawValue, d.at.wall.iso8601,
                                         try metadataJSON(d.metadata), d.source.description, d.at.boot, d.at.monoNanos])

        case .sleepEvent(let e):
            try db.cachedStatement(sql: """
                INSERT INTO sleep_events (id, seq, session_id, session_date, event_type, timestamp, notes, source, boot_id, mono_ns)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [e.id, seq, e.sessionID, e.sessionDate, e.type.rawValue, e.at.wall.iso8601,
                                         e.notes, e.source.description, e.at.boot, e.at.monoNanos])

        case .checkIn(let c):
            let a = c.answers
            let answers: [(any DatabaseValueConvertible)?] = [
                c.id, seq, c.sessionID, c.sessionDate, c.at.wall.iso8601, c.at.boot, c.at.monoNanos,
                a.sleepQuality, a.feelRested.rawValue, a.grogginess.rawValue, a.mentalClarity, a.mood.rawValue, a.notes, c.source.description,
                // Schema v6's names for the same answers (see Schema "v5").
                c.at.wall.iso8601, a.sleepQuality, a.feelRested.scale, c.sessionID,
            ]
            let flags: [(any DatabaseValueConvertible)?] = NarcolepsyFlag.allCases.map { a.flags.contains($0) ? 1 : 0 }
            try db.cachedStatement(sql: """
                INSERT INTO morning_checkins (id, seq, session_id, session_date, timestamp, boot_id, mono_ns,
                    sleep_quality, feel_rested, grogginess, mental_clarity, mood, notes, source,
                    completed_at, overall_quality, feeling_rested, wake_count, \(Self.flagColumns))
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, \(Schema.wakeCountSQL("?")), \(Self.flagPlaces))
                """).execute(arguments: StatementArguments(answers + flags))

        case .undone(let u):
            // Undo marks the row; it stays for the record and is skipped by state, history and export.
            // undone_seq: this record's place in the sequence (the feed lists the undo there).
            try db.cachedStatement(sql: """
                UPDATE dose_events SET undone_at = ?, undone_source = ?, undone_boot_id = ?, undone_mono_ns = ?, undone_seq = ?
                WHERE id = ? AND undone_at IS NULL
                """).execute(arguments: [u.at.wall.iso8601, u.source.description, u.at.boot, u.at.monoNanos, seq, u.eventID])
            if db.changesCount == 0 {
                let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM dose_events WHERE id = ?", arguments: [u.eventID]) ?? false
                throw NightLogError.invalidRecord(
                    path: path, detail: exists ? "dose event \(u.eventID) is already undone" : "no dose event \(u.eventID) to undo")
            }

        case .sessionClosed(let c):
            // end_seq: this record's place in the sequence (the feed lists the close there).
            try db.cachedStatement(sql: """
                UPDATE sleep_sessions SET end_utc = ?, end_boot_id = ?, end_mono_ns = ?, terminal_state = ?, close_reason = ?, end_seq = ?
                WHERE session_id = ? AND end_utc IS NULL
                """).execute(arguments: [c.at.wall.iso8601, c.at.boot, c.at.monoNanos, c.terminalState.rawValue,
                                         c.reason.rawValue, seq, c.sessionID])
            if db.changesCount == 0 {
                let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM sleep_sessions WHERE session_id = ?", arguments: [c.sessionID]) ?? false
                throw NightLogError.invalidRecord(
                    path: path, detail: exists ? "session \(c.sessionID) is already closed" : "no session \(c.sessionID) to close")
            }

        case .notice(let n):
            // The foreign key refuses a notice for a session that was never opened (and with it the whole append).
            try db.cachedStatement(sql: """
                INSERT INTO notices (id, seq, session_id, session_date, kind, timestamp, boot_id, mono_ns, dose1_id, alert, level)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [n.id, seq, n.sessionID, n.sessionDate, n.kind.rawValue, n.at.wall.iso8601, n.at.boot,
                                         n.at.monoNanos, n.dose1ID, n.alert?.rawValue, n.level?.rawValue])

        case .fault(let f):
            try db.cachedStatement(sql: """
                INSERT INTO fault_events (id, seq, code, state, timestamp, boot_id, mono_ns) VALUES (?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [f.id, seq, f.code, f.raised ? "raised" : "cleared", f.at.wall.iso8601, f.at.boot, f.at.monoNanos])

        case .supply(let x):
            try db.cachedStatement(sql: """
                INSERT INTO inventory_events (id, seq, event_type, timestamp, boot_id, mono_ns, session_id, session_date, doses,
                                              remaining_after, notes, source)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [x.id, seq, x.kind.rawValue, x.at.wall.iso8601, x.at.boot, x.at.monoNanos, x.sessionID,
                                         x.sessionDate, x.doses, x.remainingAfter, x.notes, x.source.description])

        case .drink, .drinkUndone, .pacing, .preSleep:
            try insertEvening(record, seq: seq, db: db, path: path)

        case .medication(let m):
            try db.cachedStatement(sql: """
                INSERT INTO medication_events (id, session_id, session_date, medication_id, dose_value, dose_unit, formulation,
                                               taken_at_utc, local_offset_minutes, notes, confirmed_duplicate, created_at, source)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [m.id, m.sessionID, m.sessionDate, m.medicationID, m.doseValue, m.doseUnit, m.formulation,
                                         m.takenAt.iso8601, m.localOffsetMinutes, m.notes, m.confirmedDuplicate, m.createdAt.iso8601,
                                         m.source.description])
        }
    }

    /// The narcolepsy flags' columns (v15) and their placeholders, in `NarcolepsyFlag` order.
    static let flagColumns = NarcolepsyFlag.allCases.map(\.rawValue).joined(separator: ", ")
    static let flagPlaces = NarcolepsyFlag.allCases.map { _ in "?" }.joined(separator: ", ")

    /// Sorted keys, so the same metadata always gives the same bytes; absent keys stay absent.
    static func metadataJSON(_ metadata: DoseMetadata) throws -> String {
        if metadata == DoseMetadata() { return "{}" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(metadata), as: UTF8.self)
    }
}

extension LogRecord {
    /// A dose taken, undone or skipped, or a night's end: checkpointed (`NightLog.checkpoint`)
    /// right after its acknowledgement.
    public var securesDoses: Bool {
        switch self {
        case .dose, .undone, .sessionClosed: true
        default: false
        }
    }

    /// Takes the next seq (the event feed's order); a medication entry or a pre-sleep log is
    /// the patient's record, outside the feed, and takes none.
    var takesSeq: Bool {
        switch self {
        case .medication, .preSleep: false
        default: true
        }
    }
}
