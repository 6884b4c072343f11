import DoseCore
import Foundation
import GRDB

// Salvage, second half: what was read goes into the new log (see `Salvage`).
extension Salvage {
    /// Inserts what `read` found into the new log, with the report, in one transaction.
    /// Throws only for the new log's own failures (disk full, I/O), never for a refused row.
    static func store(_ read: Read, into db: Database, movedTo: String, reason: String, now: Date,
                      lostRecords: Bool = false) throws -> SalvageReport {
        var figures: [SalvageReport.Table] = []
        for table in read.tables {
            let (salvaged, refused) = try insert(table, db: db)
            figures.append(SalvageReport.Table(name: table.name, salvaged: salvaged, refused: refused,
                                               complete: table.complete, readErrors: table.readErrors))
        }
        // Rows from a log written before the v6 migration: their undos and closes get their
        // seqs here, as the migration would have given them (the new log ran it empty).
        try Schema.backfillChangeSeqs(db)
        // Earlier recoveries' records, best effort: history, not part of the figures.
        if let recoveries = read.recoveries { _ = try insert(recoveries, db: db) }

        var report = SalvageReport(tables: figures, walCommitsLost: read.walCommitsLost)
        report.lostRecords = lostRecords
        try db.execute(sql: """
            INSERT INTO log_recoveries (recovered_at, moved_to, reason, dose_record_certain, figures) VALUES (?, ?, ?, ?, ?)
            """, arguments: [now.iso8601, movedTo, reason, report.doseRecordCertain, report.figuresJSON])
        return report
    }

    /// Inserts the rows of one table; returns (stored, refused).
    private static func insert(_ table: TableRead, db: Database) throws -> (Int, Int) {
        guard !table.rows.isEmpty else { return (0, 0) }
        // The new table's columns and their declared types.
        var declared: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted(table.name)))") {
            if let name: String = row["name"] { declared[name] = (row["type"] as String? ?? "").uppercased() }
        }
        // Columns the new table does not have (a newer build's) are dropped; the others keep their value.
        let kept = table.columns.enumerated().filter { declared[$0.element] != nil }
        let names = ["rowid"] + kept.map { quoted($0.element) }
        let sql = "INSERT INTO \(quoted(table.name)) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
        let statement = try db.makeStatement(sql: sql)

        var stored = 0
        var refused = 0
        for row in table.rows {
            let values = kept.map { row.values[$0.offset] }
            let typesMatch = zip(kept, values).allSatisfy { column, value in
                fits(value, declared: declared[column.element] ?? "")
            }
            guard typesMatch else { refused += 1; continue }
            do {
                let arguments: [(any DatabaseValueConvertible)?] = [row.rowid] + values.map { $0 }
                try statement.execute(arguments: StatementArguments(arguments))
                // And this build must be able to read it back as a record, or the night
                // could not be rebuilt from the new log at all.
                guard try readable(table.name, rowid: row.rowid, db: db) else {
                    try db.execute(sql: "DELETE FROM \(quoted(table.name)) WHERE rowid = ?", arguments: [row.rowid])
                    refused += 1
                    continue
                }
                stored += 1
            } catch let error as DatabaseError where [.SQLITE_CONSTRAINT, .SQLITE_MISMATCH, .SQLITE_TOOBIG].contains(error.resultCode) {
                // The statement is undone, the transaction goes on.
                refused += 1
            }
        }
        return (stored, refused)
    }

    /// True when the row reads back as the records `latestSession` would make of it.
    private static func readable(_ table: String, rowid: Int64, db: Database) throws -> Bool {
        let statement = try db.cachedStatement(sql: "SELECT * FROM \(quoted(table)) WHERE rowid = ?")
        guard let row = try Row.fetchOne(statement, arguments: [rowid]) else {
            return false
        }
        let r = StoredRow(row, table, path: "")
        do {
            switch table {
            case "sleep_sessions": _ = try NightLog.sessionRecords(r, sessionID: try r.text("session_id"))
            case "dose_events": _ = try NightLog.doseRecords(r, sessionID: try r.text("session_id"))
            case "sleep_events": _ = try NightLog.sleepEventRecord(r, sessionID: try r.text("session_id"))
            case "morning_checkins": _ = try NightLog.checkInRecord(r, sessionID: try r.text("session_id"))
            case "notices": _ = try NightLog.noticeRecord(r, sessionID: try r.text("session_id"))
            case "fault_events": _ = try NightLog.faultRecord(r)
            case "medication_events": _ = try NightLog.medicationRecord(r)
            case "inventory_events": _ = try NightLog.supplyRecord(r)
            case "drink_logs": _ = try NightLog.drinkRecord(r)
            case "pacing_events": _ = try NightLog.pacingRecord(r)
            case "pre_sleep_logs": _ = try NightLog.preSleepLog(r)
            default: break
            }
            return true
        } catch {
            return false
        }
    }

    /// NULL is left to NOT NULL to judge; otherwise the storage class must be the column's.
    private static func fits(_ value: DatabaseValue, declared: String) -> Bool {
        switch value.storage {
        case .null: true
        case .int64: declared.contains("INT")
        case .string: declared.contains("TEXT") || declared.contains("CHAR") || declared.contains("CLOB")
        case .double: declared.contains("REAL") || declared.contains("FLOA") || declared.contains("DOUB")
        case .blob: declared.isEmpty || declared.contains("BLOB")
        }
    }
}
