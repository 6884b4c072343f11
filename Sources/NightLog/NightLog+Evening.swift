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
                     at: try r.moment("timestamp", boot: "boot_id", mono: "mono_ns"), code: try r.text("code"),
                     message: try r.text("message"), severity: try r.text("severity"))
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
