import Foundation
import GRDB
import Testing
@testable import NightLog

/// A new log is made from `Schema.current` in one transaction instead of by the migrations one
/// by one (#34). Both ways must give the same log, object for object, or a new box and an old
/// one would hold different schemas under the same migration names.
@Suite struct SchemaSnapshotTests {
    /// Every object SQLite keeps (tables, indexes, the view, their SQL) and the migrations recorded.
    static func schema(_ writer: some DatabaseWriter) throws -> [String] {
        try writer.read { db in
            try String.fetchAll(db, sql: "SELECT type || ' ' || name || ' ON ' || tbl_name || ': ' || ifnull(sql, '') FROM sqlite_master ORDER BY type, name")
                + String.fetchAll(db, sql: "SELECT 'migration ' || identifier FROM grdb_migrations ORDER BY rowid")
        }
    }

    @Test func theCurrentSchemaIsWhatTheMigrationsMake() throws {
        let stepped = try DatabaseQueue()
        try Schema.migrator.migrate(stepped, upTo: Schema.currentThrough)
        let made = try DatabaseQueue()
        try Schema.makeCurrentIfEmpty(made)
        let expected = try Self.schema(stepped)
        #expect(expected.count > 50)
        #expect(try Self.schema(made) == expected)
        // The migrator finds nothing left to run, and every migration counts as applied.
        try Schema.migrator.migrate(made)
        #expect(try made.read(Schema.migrator.hasCompletedMigrations))
    }

    @Test func aNewLogOnDiskHasTheMigratedSchema() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            let stepped = try DatabaseQueue()
            try Schema.migrator.migrate(stepped)
            let onDisk = try DatabaseQueue(path: log.fileURL.path, configuration: {
                var c = Configuration(); c.readonly = true; return c
            }())
            #expect(try Self.schema(onDisk) == Self.schema(stepped))
        }
    }

    /// A file that already holds tables is never given the snapshot: its own migrations run.
    @Test func aFileWithTablesIsLeftToTheMigrator() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE other (x)") }
        try Schema.makeCurrentIfEmpty(queue)
        #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") } == ["other"])
    }
}
