import DoseCore
import Foundation
import GRDB
import GRDBSQLite

/// Salvage: copies every readable row of a damaged log into the new one.
///
/// Why this way. A failed `quick_check` says some page is bad, not that the night is lost:
/// most often the damage is in an index or a free page and every row is still readable.
/// Debian's libsqlite3 does not export the sqlite3_recover API, so the rows are read with
/// plain SQL, one table at a time:
/// - through the table's own b-tree, by rowid (`NOT INDEXED ... WHERE rowid >= ? ORDER BY
///   rowid`): indexes are redundant copies and are never trusted or needed;
/// - from a private copy of the moved-aside file and its WAL (the -shm is left behind, so
///   SQLite rebuilds the WAL index from the WAL's own checksums: committed frames are seen,
///   torn or foreign ones are not). The moved-aside files are only ever read, byte for byte.
/// - with `writable_schema` (a damaged schema page costs the tables it described, not all
///   of them) and `cell_size_check` (a page whose cells do not fit is an error, not data);
/// - when a read fails, the rowids after the last good row are probed (1, 2, 4, … further,
///   then a binary search back) for the first place a seek succeeds, and reading resumes
///   there. A damaged leaf costs its own rows, a damaged overflow page the one row that
///   used it; the rest of the table is read.
///
/// Rows go into the new, fully migrated log in one transaction, sessions first. The new
/// schema is the judge: a row it refuses (CHECK, foreign key, json_valid, NOT NULL, a
/// value whose type does not match its column, a duplicate id) is counted as refused and
/// left out. Nothing is invented or repaired: a row is either carried over exactly (same
/// rowid, ids, `seq` and every column) or not at all.
enum Salvage {
    struct TableRead {
        var name: String
        /// The damaged file's column names (after the rowid).
        var columns: [String] = []
        var rows: [(rowid: Int64, values: [DatabaseValue])] = []
        var complete = false
        var readErrors = 0
        var exists = false
    }

    struct Read {
        var tables: [TableRead]
        var recoveries: TableRead?
        var walCommitsLost: Bool
    }

    /// Reads what it can of the damaged log at `aside` (and its `-wal`). Never throws:
    /// whatever cannot be read is reported as such. `scratch` is a path the copy may use.
    static func read(aside: String, scratch: String) -> Read {
        let fm = FileManager.default
        var walLost = walCommitsLost(walPath: aside + "-wal")
        let empty = Read(tables: SalvageReport.tableNames.map { TableRead(name: $0) }, recoveries: nil, walCommitsLost: walLost)

        // A private copy, so that nothing (not even the -shm) of the moved-aside files changes.
        try? fm.removeItem(atPath: scratch)
        var source = aside
        do {
            try fm.createDirectory(atPath: scratch, withIntermediateDirectories: false)
            let copy = scratch + "/" + NightLog.fileName
            try fm.copyItem(atPath: aside, toPath: copy)
            if fm.fileExists(atPath: aside + "-wal") {
                try fm.copyItem(atPath: aside + "-wal", toPath: copy + "-wal")
            }
            source = copy
        } catch {
            // No room for a copy: read the moved-aside file in place (read-only; SQLite
            // may rewrite its -shm, which holds nothing but a cache of the WAL's index).
            source = aside
        }
        defer { try? fm.removeItem(atPath: scratch) }

        var config = Configuration()
        config.readonly = true
        config.foreignKeysEnabled = false
        config.busyMode = .timeout(2)
        config.label = "NightLog.salvage"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "PRAGMA cell_size_check = ON")
        }
        guard let queue = try? DatabaseQueue(path: source, configuration: config) else { return empty }
        defer { try? queue.close() }

        return queue.inDatabase { db in
            if !walLost, walHasCommits(walPath: aside + "-wal"),
               (try? String.fetchOne(db, sql: "PRAGMA journal_mode")) != "wal" {
                // The header no longer says WAL, so SQLite ignored a WAL that held commits.
                walLost = true
            }
            var tables = SalvageReport.tableNames.map { readTable($0, db: db) }
            // A table that a later migration added was never in a log that did not run it:
            // nothing to read, so nothing is missing. Only when the migrations table was read
            // whole and shows the log's first migration but not that one.
            let migrations = readTable("grdb_migrations", db: db)
            let applied = Set(migrations.rows.compactMap { row -> String? in
                if case .string(let name) = row.values.first?.storage { return name }
                return nil
            })
            for i in tables.indices where !tables[i].exists {
                if let migration = addedBy[tables[i].name], migrations.complete, applied.contains("v1-initial"), !applied.contains(migration) {
                    tables[i].complete = true
                }
            }
            let recoveries = readTable("log_recoveries", db: db)
            return Read(tables: tables, recoveries: recoveries.exists ? recoveries : nil, walCommitsLost: walLost)
        }
    }

    /// The salvaged tables a later migration created, by that migration's name.
    static let addedBy = ["notices": "v7-notices", "fault_events": "v8-fault-events", "medication_events": "v9-medication-events",
                          "inventory_events": "v11-inventory-events", "drink_logs": "v16-evening-drinks",
                          "pacing_events": "v16-evening-drinks", "pre_sleep_logs": "v17-pre-sleep-logs"]

    /// Reads one table by rowid, skipping damaged stretches.
    static func readTable(_ name: String, db: Database) -> TableRead {
        var table = TableRead(name: name)
        // The parsed schema (what SQLite could read of it); no columns: the table is gone.
        guard let info = try? Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted(name)))"), !info.isEmpty else {
            return table
        }
        table.exists = true
        table.columns = info.compactMap { $0["name"] as String? }
        // Driven through the C API: a probe is one seek, so it must cost no more than one.
        let sql = "SELECT rowid, * FROM \(quoted(name)) NOT INDEXED WHERE rowid >= ? ORDER BY rowid"
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &prepared, nil) == SQLITE_OK, let statement = prepared else {
            sqlite3_finalize(prepared)
            table.readErrors = 1
            return table
        }
        defer { sqlite3_finalize(statement) }

        enum RunEnd { case end, failed(at: Int64) }
        var badRows = 0

        /// Reads from `start` on, until the end or the first read error.
        func run(from start: Int64) -> RunEnd {
            sqlite3_reset(statement)
            sqlite3_bind_int64(statement, 1, start)
            defer { sqlite3_reset(statement) }
            var next = start
            while true {
                let rc = sqlite3_step(statement)
                if rc == SQLITE_DONE { return .end }
                guard rc == SQLITE_ROW else { return .failed(at: next) }
                var damagedText = false
                let values = rawValues(statement, damagedText: &damagedText)
                // A rowid that goes backwards is a damaged b-tree, not data.
                guard values.count == table.columns.count + 1, case .int64(let rowid) = values[0].storage, rowid >= next else {
                    return .failed(at: next)
                }
                if damagedText {
                    // Text that is not UTF-8 or holds NUL bytes: the row's overflow pages were
                    // damaged (SQLite reads a zeroed or foreign overflow page as content).
                    badRows += 1
                } else {
                    table.rows.append((rowid, Array(values.dropFirst())))
                }
                if rowid == Int64.max { return .end }
                next = rowid + 1
            }
        }

        /// True when a read from `start` gets past the seek: a first row, or the end.
        var probes = 0
        let maxProbes = 20_000
        func readable(from start: Int64) -> Bool {
            probes += 1
            sqlite3_reset(statement)
            sqlite3_bind_int64(statement, 1, start)
            defer { sqlite3_reset(statement) }
            switch sqlite3_step(statement) {
            case SQLITE_DONE: return true
            case SQLITE_ROW: return sqlite3_column_type(statement, 0) == SQLITE_INTEGER && sqlite3_column_int64(statement, 0) >= start
            default: return false
            }
        }

        var start = Int64.min
        var errors = 0
        reading: while true {
            guard case .failed(let failed) = run(from: start) else { break }
            errors += 1
            // Probe further and further on (1, 2, 4, … rowids) for a place where reading works again.
            let room = UInt64(bitPattern: Int64.max &- failed) // exact: Int64.max - failed, which may not fit an Int64
            var lastFailed = failed
            var distance: UInt64 = 1
            var found: Int64?
            while probes < maxProbes {
                let probe = distance >= room ? Int64.max : failed &+ Int64(bitPattern: distance)
                if readable(from: probe) { found = probe; break }
                lastFailed = probe
                if probe == Int64.max { break }
                distance = distance > UInt64.max / 2 ? UInt64.max : distance * 2
            }
            guard var high = found else { break reading }
            // Then back: the first rowid after the damage where a seek succeeds.
            var low = lastFailed
            while UInt64(bitPattern: high &- low) > 1, probes < maxProbes {
                let mid = low &+ Int64(bitPattern: UInt64(bitPattern: high &- low) / 2)
                if readable(from: mid) { high = mid } else { low = mid }
            }
            start = high
        }
        table.readErrors = errors + badRows
        table.complete = table.readErrors == 0
        return table
    }

    /// The first stored text that cannot be what `append` wrote (not UTF-8, or holding a NUL
    /// byte, which `append` refuses): what a zeroed or foreign overflow page looks like once
    /// SQLite reads it as a row's content. quick_check cannot see it (zeros are a valid end
    /// of an overflow chain). Nil when every row of the salvaged tables is clean.
    static func textDamage(_ db: Database) throws -> String? {
        for table in SalvageReport.tableNames where try db.tableExists(table) {
            let statement = try db.makeStatement(sql: "SELECT rowid, * FROM \(quoted(table))")
            let rows = try Row.fetchCursor(statement)
            while try rows.next() != nil {
                var damaged = false
                let values = rawValues(statement.sqliteStatement, damagedText: &damaged)
                if damaged {
                    return "\(table) row \(values.first?.description ?? "?") holds text that is not UTF-8 (a damaged overflow page)"
                }
            }
        }
        return nil
    }

    /// The current row's values, read from SQLite without any conversion that could hide
    /// damage: a TEXT that is not valid UTF-8 or holds a NUL byte (which GRDB's String would
    /// repair or cut short) sets `damagedText` instead of becoming a different string.
    private static func rawValues(_ raw: OpaquePointer, damagedText: inout Bool) -> [DatabaseValue] {
        let count = sqlite3_column_count(raw)
        var values: [DatabaseValue] = []
        values.reserveCapacity(Int(count))
        for i in 0..<count {
            switch sqlite3_column_type(raw, i) {
            case SQLITE_NULL:
                values.append(.null)
            case SQLITE_INTEGER:
                values.append(sqlite3_column_int64(raw, i).databaseValue)
            case SQLITE_FLOAT:
                values.append(sqlite3_column_double(raw, i).databaseValue)
            case SQLITE_TEXT:
                let length = Int(sqlite3_column_bytes(raw, i))
                guard let text = sqlite3_column_text(raw, i) else {
                    damagedText = damagedText || length != 0
                    values.append("".databaseValue)
                    continue
                }
                var string = String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
                // String(decoding:) replaces invalid UTF-8, so it is valid iff the bytes survive unchanged.
                let intact = memchr(text, 0, length) == nil && string.utf8.count == length
                    && string.withUTF8 { utf8 in utf8.baseAddress.map { memcmp($0, text, length) == 0 } ?? (length == 0) }
                if !intact { damagedText = true }
                values.append(string.databaseValue)
            default:
                let length = Int(sqlite3_column_bytes(raw, i))
                let blob = sqlite3_column_blob(raw, i)
                values.append(blob.map { Data(bytes: $0, count: length) }.map(\.databaseValue) ?? Data().databaseValue)
            }
        }
        return values
    }

    static func quoted(_ name: String) -> String {
        "\"" + name.replacingEvery("\"", with: "\"\"") + "\""
    }
}
