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
            let tables = SalvageReport.tableNames.map { readTable($0, db: db) }
            let recoveries = readTable("log_recoveries", db: db)
            return Read(tables: tables, recoveries: recoveries.exists ? recoveries : nil, walCommitsLost: walLost)
        }
    }

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
    /// of an overflow chain). Nil when every row of the four tables is clean.
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

    /// Inserts what `read` found into the new log, with the report, in one transaction.
    /// Throws only for the new log's own failures (disk full, I/O), never for a refused row.
    static func store(_ read: Read, into db: Database, movedTo: String, reason: String, now: Date) throws -> SalvageReport {
        var figures: [SalvageReport.Table] = []
        for table in read.tables {
            let (salvaged, refused) = try insert(table, db: db)
            figures.append(SalvageReport.Table(name: table.name, salvaged: salvaged, refused: refused,
                                               complete: table.exists && table.complete, readErrors: table.readErrors))
        }
        // Earlier recoveries' records, best effort: history, not part of the figures.
        if let recoveries = read.recoveries { _ = try insert(recoveries, db: db) }

        let report = SalvageReport(tables: figures, walCommitsLost: read.walCommitsLost)
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

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: - The WAL

    /// The frames of a WAL file as SQLite judges them (https://sqlite.org/fileformat2.html#walformat).
    struct WALScan {
        /// The header is valid.
        var headerValid = false
        /// Bytes after the header that can hold at least one frame.
        var hasFrames = false
        /// Commit frames in the valid prefix (what SQLite replays).
        var validCommits = 0
        /// A commit frame of the current generation (header's salts) after the valid prefix.
        var commitPastDamage = false
    }

    static func scanWAL(_ bytes: [UInt8]) -> WALScan {
        var scan = WALScan()
        guard bytes.count >= 32 else { return scan }
        func word(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
        }
        let magic = word(0)
        let pageSize = Int(word(8))
        scan.hasFrames = bytes.count >= 32 + 24 + 512
        guard magic == 0x377F_0682 || magic == 0x377F_0683,
              pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { return scan }
        let bigEndian = magic & 1 == 1
        /// SQLite's checksum: over 32-bit words (in the order the magic says), two at a time.
        func checksum(_ ranges: [Range<Int>], _ s: (UInt32, UInt32)) -> (UInt32, UInt32) {
            var (s0, s1) = s
            for range in ranges {
                var i = range.lowerBound
                while i + 8 <= range.upperBound {
                    let x0 = bigEndian ? word(i) : word(i).byteSwapped
                    let x1 = bigEndian ? word(i + 4) : word(i + 4).byteSwapped
                    s0 = s0 &+ x0 &+ s1
                    s1 = s1 &+ x1 &+ s0
                    i += 8
                }
            }
            return (s0, s1)
        }
        var sum = checksum([0..<24], (0, 0))
        guard sum == (word(24), word(28)) else { return scan }
        scan.headerValid = true
        let salts = (word(16), word(20))
        let frameSize = 24 + pageSize
        var offset = 32
        var chainIntact = true
        while offset + frameSize <= bytes.count {
            let page = word(offset)
            let commit = word(offset + 4) != 0
            let current = (word(offset + 8), word(offset + 12)) == salts
            if chainIntact {
                let next = checksum([offset..<(offset + 8), (offset + 24)..<(offset + frameSize)], sum)
                if current, page != 0, next == (word(offset + 16), word(offset + 20)) {
                    sum = next
                    if commit { scan.validCommits += 1 }
                } else {
                    chainIntact = false
                    if current && commit { scan.commitPastDamage = true }
                }
            } else if current && commit {
                scan.commitPastDamage = true
            }
            offset += frameSize
        }
        return scan
    }

    /// True when the WAL at `walPath` holds committed writes SQLite will not replay.
    static func walCommitsLost(walPath: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: walPath) else { return false }
        let scan = scanWAL([UInt8](data))
        return scan.headerValid ? scan.commitPastDamage : scan.hasFrames
    }

    static func walHasCommits(walPath: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: walPath) else { return false }
        return scanWAL([UInt8](data)).validCommits > 0
    }
}
