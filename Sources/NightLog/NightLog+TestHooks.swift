import Foundation
import GRDB

// MARK: - Hooks for the tests (internal; the test target does not import GRDB)

extension NightLog {
    /// Runs one statement on the writer connection, outside a transaction, and returns the
    /// first column of the first row as text (PRAGMAs, simulated faults).
    func writerScalar(_ sql: String) throws -> String? {
        try db.writeWithoutTransaction { db in try String.fetchOne(db, sql: sql) }
    }

    /// The first column of the first row of a read, as text.
    func readScalar(_ sql: String) throws -> String? {
        try db.read { db in try String.fetchOne(db, sql: sql) }
    }

    /// SQLite's plan for `sql`, its `detail` lines joined.
    func queryPlan(_ sql: String) throws -> String {
        try db.read { db in try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)").map { $0["detail"] as String? ?? "" }.joined(separator: "; ") }
    }

    /// Every row of `table` in rowid order, rowid included, each column as its storage class
    /// and value ("i:3", "t:abc", "r:1.5", "b:<hex>", "null"), so two dumps compare exactly.
    func dumpRows(_ table: String) throws -> [[String: String]] {
        try db.read { db in try Self.dump(table, db: db) }
    }

    /// `dumpRows` of a file opened read-only as it is: no migration runs (a log written by an
    /// older build, before this build's `open` migrates it).
    static func dumpRows(path: String, table: String) throws -> [[String: String]] {
        var config = Configuration()
        config.readonly = true
        return try DatabaseQueue(path: path, configuration: config).read { db in try dump(table, db: db) }
    }

    /// Creates a log at `path` as an older build left it: migrated up to `migration` only,
    /// then `sql` run on it (rows that build would have written).
    static func createOlderLog(path: String, upTo migration: String, sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(queue, upTo: migration)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
    }

    private static func dump(_ table: String, db: Database) throws -> [[String: String]] {
        try Row.fetchAll(db, sql: "SELECT rowid AS rowid, * FROM \(table) ORDER BY rowid").map { row in
            var out: [String: String] = [:]
            for (column, value) in row {
                switch value.storage {
                case .null: out[column] = "null"
                case .int64(let i): out[column] = "i:\(i)"
                case .double(let d): out[column] = "r:\(d)"
                case .string(let t): out[column] = "t:" + t
                case .blob(let b): out[column] = "b:" + b.map { String(format: "%02x", $0) }.joined()
                }
            }
            return out
        }
    }
}
