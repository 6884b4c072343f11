import DoseCore
import Foundation
import GRDB

/// What forgetting nights removes, table by table.
public typealias ForgetCounts = Forgetting.Counts

extension NightLog {
    /// The nights with a session date in the range, with the last dose taken in each.
    public func nightsToForget(from: String?, to: String?) throws(NightLogError) -> [Forgetting.Night] {
        let range = try ExportRange(from: from, to: to)
        let path = self.path
        return try guarded {
            try db.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT s.session_id, s.session_date,
                           (SELECT max(d.timestamp) FROM dose_events d WHERE d.session_id = s.session_id
                                AND d.event_type IN ('dose1', 'dose2', 'extra_dose') AND d.undone_at IS NULL) AS last_dose
                    FROM sleep_sessions s \(range.whereClause("s.session_date")) ORDER BY s.session_date, s.seq
                    """, arguments: range.arguments).map { row in
                    let r = StoredRow(row, "sleep_sessions", path: path)
                    return Forgetting.Night(sessionID: try r.text("session_id"), sessionDate: try r.text("session_date"),
                                            lastDose: try r.optionalText("last_dose").map { try r.date($0) })
                }
            }
        }
    }

    /// Counts what `forget` would remove (nothing is changed).
    public func forgetCounts(_ plan: Forgetting.Plan, from: String?, to: String?) throws(NightLogError) -> ForgetCounts {
        let range = try ExportRange(from: from, to: to)
        return try guarded { try db.read { db in try Self.forgetting(plan, range: range, db: db, delete: false) } }
    }

    /// Removes the plan's nights with everything recorded in them (dose and sleep events,
    /// check-ins, notices, their medication entries, and unlinked medication entries, drinks and pre-sleep logs dated in
    /// the range but not on a kept night), in one transaction. The freed pages are zeroed
    /// (`secure_delete`) and the WAL is checkpointed, so the rows do not linger in the file.
    /// The feed's seq high-water is kept (`seq_floor`).
    public func forget(_ plan: Forgetting.Plan, from: String?, to: String?) throws(NightLogError) -> ForgetCounts {
        let range = try ExportRange(from: from, to: to)
        let counts = try guarded {
            try db.write { db in
                try db.execute(sql: "PRAGMA secure_delete = ON")
                try db.execute(sql: "INSERT INTO seq_floor (id, value) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET value = max(value, excluded.value)",
                               arguments: [try Self.nextSeq(db) - 1])
                return try Self.forgetting(plan, range: range, db: db, delete: true)
            }
        }
        // Best effort: a reader holding the WAL only delays it to the next checkpoint.
        try? db.writeWithoutTransaction { db in _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        // The witness must not name a dose that was forgotten on purpose.
        try? writeWitness()
        return counts
    }

    private static func forgetting(_ plan: Forgetting.Plan, range: ExportRange, db: Database, delete: Bool) throws -> ForgetCounts {
        var counts = ForgetCounts()
        counts.nights = plan.forget.count
        let ids = plan.forget.map(\.sessionID)
        let keptDates = plan.kept.map(\.night.sessionDate)
        let inIDs = "session_id IN (\(Array(repeating: "?", count: max(ids.count, 1)).joined(separator: ", ")))"
        let idArgs = StatementArguments(ids.isEmpty ? [""] : ids)
        func run(_ table: String, _ condition: String, _ arguments: StatementArguments) throws -> Int {
            if delete {
                try db.execute(sql: "DELETE FROM \(table) WHERE \(condition)", arguments: arguments)
                return db.changesCount
            }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(condition)", arguments: arguments) ?? 0
        }
        // Unlinked medication entries dated in the range, but not on a night that is kept.
        var unlinked = "session_id IS NULL"
        if range.from != nil { unlinked += " AND session_date >= ?" }
        if range.to != nil { unlinked += " AND session_date <= ?" }
        var medArgs = idArgs + range.arguments
        if !keptDates.isEmpty {
            unlinked += " AND session_date NOT IN (\(Array(repeating: "?", count: keptDates.count).joined(separator: ", ")))"
            medArgs += StatementArguments(keptDates)
        }
        counts.medications = try run("medication_events", "\(inIDs) OR (\(unlinked))", medArgs)
        // The evenings (#33) go with the nights they led into, and only those: tonight's, whose
        // night has not begun, is never in a plan (nor is the latest night).
        let dates = plan.forget.map(\.sessionDate)
        let inDates = "session_date IN (\(Array(repeating: "?", count: max(dates.count, 1)).joined(separator: ", ")))"
        let dateArgs = StatementArguments(dates.isEmpty ? [""] : dates)
        for table in ["pacing_events", "drink_logs", "pre_sleep_logs"] { _ = try run(table, inDates, dateArgs) }
        counts.notices = try run("notices", inIDs, idArgs)
        // A refill reminder goes with its night; refills and adjustments belong to none.
        _ = try run("inventory_events", inIDs, idArgs)
        counts.checkIns = try run("morning_checkins", inIDs, idArgs)
        counts.sleepEvents = try run("sleep_events", inIDs, idArgs)
        counts.doseEvents = try run("dose_events", inIDs, idArgs)
        _ = try run("sleep_sessions", inIDs, idArgs)
        return counts
    }
}
