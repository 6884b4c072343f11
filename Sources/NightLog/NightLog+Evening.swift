import DoseCore
import Foundation
import GRDB

/// The evening before (#33): drinks and pacing messages in the log (`Schema` v16), and the
/// evening's open session read back at start.
extension NightLog {
    static func insertEvening(_ record: LogRecord, seq: Int64, db: Database, path: String) throws {
        switch record {
        case .drink(let d):
            try db.cachedStatement(sql: """
                INSERT INTO drink_logs (id, seq, session_id, session_date, timestamp, drink_type_id, standard_drink_units, is_alcoholic,
                                        source, logged_at, boot_id, mono_ns)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [d.id, seq, d.sessionID, d.sessionDate, d.at.iso8601, d.type.rawValue, d.units, d.isAlcoholic,
                                         d.source.description, d.logged.wall.iso8601, d.logged.boot, d.logged.monoNanos])
        case .drinkUndone(let u):
            try db.cachedStatement(sql: """
                UPDATE drink_logs SET undone_at = ?, undone_source = ?, undone_seq = ? WHERE id = ? AND undone_at IS NULL
                """).execute(arguments: [u.at.wall.iso8601, u.source.description, seq, u.drinkID])
            if db.changesCount == 0 { throw NightLogError.invalidRecord(path: path, detail: "no drink \(u.drinkID) to undo") }
        case .pacing(let p):
            try db.cachedStatement(sql: """
                INSERT INTO pacing_events (id, seq, session_id, session_date, timestamp, boot_id, mono_ns, code, message, severity)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [p.id, seq, p.sessionID, p.sessionDate, p.at.wall.iso8601, p.at.boot, p.at.monoNanos, p.code,
                                         p.message, p.severity])
        case .preSleep(let p):
            // One per evening: an edit rewrites that evening's row, its id and created_at kept, and
            // an answer it does not give kept too (the core merges; this holds if it could not).
            let a = p.answers
            try db.cachedStatement(sql: """
                INSERT INTO pre_sleep_logs (id, session_date, completed_at, caffeine_cups, caffeine_cutoff, alcohol_drinks, exercise_type,
                                            exercise_duration, stress_level, notes, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(session_date) DO UPDATE SET completed_at = excluded.completed_at,
                    caffeine_cups = COALESCE(excluded.caffeine_cups, caffeine_cups),
                    caffeine_cutoff = COALESCE(excluded.caffeine_cutoff, caffeine_cutoff),
                    alcohol_drinks = COALESCE(excluded.alcohol_drinks, alcohol_drinks),
                    exercise_type = COALESCE(excluded.exercise_type, exercise_type),
                    exercise_duration = COALESCE(excluded.exercise_duration, exercise_duration),
                    stress_level = COALESCE(excluded.stress_level, stress_level), notes = COALESCE(excluded.notes, notes)
                """).execute(arguments: [p.id, p.sessionDate, p.completedAt.iso8601, a.caffeineCups, a.caffeineCutoff?.iso8601,
                                         a.alcoholDrinks, a.exerciseType?.rawValue, a.exerciseDuration, a.stressLevel, a.notes,
                                         p.completedAt.iso8601])
        default:
            throw NightLogError.invalidRecord(path: path, detail: "not an evening record")
        }
    }

    static func drinkRecord(_ r: StoredRow) throws -> DrinkRecord {
        DrinkRecord(id: try r.text("id"), sessionID: try r.text("session_id"), sessionDate: try r.text("session_date"),
                    at: try r.date(try r.text("timestamp")), logged: try r.moment("logged_at", boot: "boot_id", mono: "mono_ns"),
                    type: try r.value("drink_type_id"), units: try r.double("standard_drink_units"),
                    isAlcoholic: try r.int("is_alcoholic") == 1, source: try r.source("source"))
    }

    static func pacingRecord(_ r: StoredRow) throws -> PacingRecord {
        PacingRecord(id: try r.text("id"), sessionID: try r.text("session_id"), sessionDate: try r.text("session_date"),
                     at: try r.moment("timestamp", boot: "boot_id", mono: "mono_ns"),
                     note: PacingNote(code: try r.text("code"), message: try r.text("message"), severity: try r.text("severity")))
    }

    /// The latest evening session as the log holds it: its drinks not taken back and what
    /// was told in it (the core decides whether it is still open: `Action.restoreEvening`);
    /// nil when no drink was ever logged, or the latest session's were all taken back.
    public func latestEvening() throws(NightLogError) -> Evening? {
        let path = self.path
        return try guarded {
            try db.read { db in
                guard let id = try String.fetchOne(db, sql: "SELECT session_id FROM drink_logs ORDER BY seq DESC LIMIT 1") else { return nil }
                let drinks = try Row.fetchAll(db, sql: "SELECT * FROM drink_logs WHERE session_id = ? AND undone_at IS NULL ORDER BY seq",
                                              arguments: [id]).map { try Self.drinkRecord(StoredRow($0, "drink_logs", path: path)) }
                guard let first = drinks.first else { return nil }
                let told = try Row.fetchAll(db, sql: "SELECT * FROM pacing_events WHERE session_id = ? ORDER BY seq", arguments: [id])
                    .map { try Self.pacingRecord(StoredRow($0, "pacing_events", path: path)) }
                return Evening(sessionID: id, sessionDate: first.sessionDate, drinks: drinks, told: told)
            }
        }
    }

    static func preSleepLog(_ r: StoredRow) throws -> PreSleepLog {
        let cutoff = try r.optionalText("caffeine_cutoff")
        let exercise = try r.optionalText("exercise_type")
        return PreSleepLog(id: try r.text("id"), sessionDate: try r.text("session_date"), completedAt: try r.date(try r.text("completed_at")),
                           answers: PreSleepAnswers(caffeineCups: try r.optionalInt("caffeine_cups"),
                                                    caffeineCutoff: try cutoff.map { try r.date($0) },
                                                    alcoholDrinks: try r.optionalInt("alcohol_drinks"),
                                                    exerciseType: try exercise.map { try r.parse($0, "exercise_type") },
                                                    exerciseDuration: try r.optionalInt("exercise_duration"),
                                                    stressLevel: try r.optionalInt("stress_level"), notes: try r.optionalText("notes")))
    }

    /// The pre-sleep log of `sessionDate`, or the latest one when nil.
    public func preSleepLog(sessionDate: String? = nil) throws(NightLogError) -> PreSleepLog? {
        let path = self.path
        return try guarded {
            try db.read { db in
                let row = try sessionDate.map { try Row.fetchOne(db, sql: "SELECT * FROM pre_sleep_logs WHERE session_date = ?", arguments: [$0]) }
                    ?? Row.fetchOne(db, sql: "SELECT * FROM pre_sleep_logs ORDER BY session_date DESC LIMIT 1")
                return try row.map { try Self.preSleepLog(StoredRow($0, "pre_sleep_logs", path: path)) }
            }
        }
    }

    /// When the alcoholic drinks not taken back were drunk, from `since` on (the alcohol guard's look-back).
    public func alcoholicDrinks(since: Date) throws(NightLogError) -> [Date] {
        let path = self.path
        return try guarded {
            try db.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT timestamp FROM drink_logs WHERE is_alcoholic = 1 AND undone_at IS NULL AND timestamp >= ? ORDER BY timestamp
                    """, arguments: [since.iso8601]).map { row in let r = StoredRow(row, "drink_logs", path: path); return try r.date(try r.text("timestamp")) }
            }
        }
    }
}
