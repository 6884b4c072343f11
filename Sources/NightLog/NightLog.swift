import DoseCore
import Foundation
import GRDB
// The SQLite C API, for one file control GRDB has no API for (see keepWALFiles).
import GRDBSQLite

/// The durable night log: every dose, sleep event, check-in, undo and session boundary,
/// in one SQLite file (`nightlog.sqlite` in the state directory, /var/lib/boxd on the box).
///
/// A `final class` and not an actor: `append` is the durability point, and the daemon
/// wants to call it synchronously and know the data is on disk when it returns. GRDB's
/// `DatabasePool` already serializes writes on its own queue and is `Sendable`, so an
/// actor would only add an `await` hop and a second queue in front of the first one.
/// All stored properties are immutable, which is what makes the class `Sendable`.
public final class NightLog: Sendable {
    public static let fileName = "nightlog.sqlite"

    /// The SQLite file.
    public let fileURL: URL
    /// Set when opening had to recover from a damaged file; nil on a normal open.
    public let fault: LogFault?
    /// True for `openReadOnly`: every write fails with `NightLogError.readOnly`.
    public let isReadOnly: Bool

    /// A `DatabasePool` (writer) or a read-only `DatabaseQueue`.
    let db: any DatabaseWriter

    var path: String { fileURL.path }

    /// The file a damaged log was moved to, if this open recovered from one.
    public var recoveredFrom: URL? {
        switch fault {
        case .recoveredFromCorruption(let url, _): url
        case nil: nil
        }
    }

    private init(fileURL: URL, db: any DatabaseWriter, fault: LogFault?, isReadOnly: Bool) {
        self.fileURL = fileURL
        self.db = db
        self.fault = fault
        self.isReadOnly = isReadOnly
    }

    // MARK: - Opening for writing (boxd)

    /// Opens (creating or migrating as needed) the log in `stateDirectory`.
    ///
    /// Runs `PRAGMA quick_check`. A file that is not a database or fails the check is
    /// renamed to `nightlog.sqlite.corrupt-<UTC time>` (its -wal/-shm follow it), a new
    /// log is started, and `fault` says so. Other failures (permissions, read-only file
    /// system, full disk) throw: moving a healthy file aside would lose the night.
    public static func open(stateDirectory: URL) throws(NightLogError) -> NightLog {
        try open(stateDirectory: stateDirectory, now: Date())
    }

    static func open(stateDirectory: URL, now: Date) throws(NightLogError) -> NightLog {
        let fileURL = stateDirectory.appendingPathComponent(fileName)
        let path = fileURL.path
        do {
            try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        } catch {
            throw .cannotOpen(path: path, detail: "cannot create the state directory \(stateDirectory.path): \(Self.reason(error))")
        }

        // Check first, through a read-only connection: it cannot checkpoint, delete the WAL or
        // write anything, so a damaged file is moved aside exactly as it was found.
        var fault: LogFault?
        if let damage = try damage(at: path) {
            fault = .recoveredFromCorruption(movedTo: try moveAside(fileURL, now: now), reason: damage)
        }
        do {
            return NightLog(fileURL: fileURL, db: try openWriter(path: path), fault: fault, isReadOnly: false)
        } catch where error.isCorruption && fault == nil {
            // Damage quick_check did not see, found while migrating: same treatment.
            let reason: String
            if case .corrupt(_, let detail) = error { reason = detail } else { reason = error.description }
            fault = .recoveredFromCorruption(movedTo: try moveAside(fileURL, now: now), reason: reason)
            return NightLog(fileURL: fileURL, db: try openWriter(path: path), fault: fault, isReadOnly: false)
        }
    }

    /// Why the file at `path` is unusable, or nil if it is absent, empty or passes
    /// `PRAGMA quick_check`. Errors that are not damage (permissions, locks) throw.
    private static func damage(at path: String) throws(NightLogError) -> String? {
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
        guard let size, size.intValue > 0 else { return nil }
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(2)
        config.label = "NightLog.check"
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            defer { try? queue.close() }
            let check = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            return check == ["ok"] ? nil : "quick_check: " + check.prefix(3).joined(separator: "; ")
        } catch {
            let mapped = NightLogError(error, path: path)
            if case .corrupt(_, let detail) = mapped { return detail }
            throw mapped
        }
    }

    /// Opens the writer pool and migrates. The pool is closed again on failure so nothing
    /// holds the file if it has to be moved aside.
    private static func openWriter(path: String) throws(NightLogError) -> DatabasePool {
        var config = Configuration()
        config.busyMode = .timeout(2)
        config.label = "NightLog"
        config.prepareDatabase { db in
            guard !db.configuration.readonly else { return }
            // Every commit is fsynced before append returns (WAL + NORMAL can lose the last
            // commits on power loss; a dose must not be lost after the box acknowledged it).
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try keepWALFiles(db)
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: config)
        } catch {
            throw NightLogError(error, path: path)
        }
        do {
            // GRDB's WAL setup runs after prepareDatabase and sets synchronous = NORMAL on
            // the writer; set FULL again so the writer really fsyncs each commit.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            try Schema.migrator.migrate(pool)
            return pool
        } catch {
            try? pool.close()
            throw NightLogError(error, path: path)
        }
    }

    /// Keeps -wal and -shm in place when boxd closes the log (SQLITE_FCNTL_PERSIST_WAL), so
    /// boxctl, running as an ordinary user who cannot create files in /var/lib/boxd, can
    /// still open the WAL database read-only while boxd is down. The WAL is truncated to
    /// zero bytes on close and kept to a few MiB in between (journal_size_limit).
    private static func keepWALFiles(_ db: Database) throws {
        var persist: Int32 = 1
        let rc = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        if rc != SQLITE_OK {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: "SQLITE_FCNTL_PERSIST_WAL failed")
        }
        try db.execute(sql: "PRAGMA journal_size_limit = 4194304")
    }

    /// Renames the damaged file and its WAL siblings aside. Rename, never copy or delete:
    /// the old bytes stay exactly as they were for whoever investigates.
    /// Siblings become `<aside>-wal` / `<aside>-shm`, the names SQLite itself would look for
    /// if someone opens the moved file.
    private static func moveAside(_ fileURL: URL, now: Date) throws(NightLogError) -> URL {
        let fm = FileManager.default
        let stamp = corruptStamp(now)
        var aside = URL(fileURLWithPath: fileURL.path + ".corrupt-" + stamp)
        var n = 2
        while fm.fileExists(atPath: aside.path) || fm.fileExists(atPath: aside.path + "-wal") {
            aside = URL(fileURLWithPath: fileURL.path + ".corrupt-" + stamp + "-\(n)")
            n += 1
        }
        do {
            // Siblings first: a stale -wal left next to a new, empty log would be replayed into it.
            for suffix in ["-wal", "-shm"] where fm.fileExists(atPath: fileURL.path + suffix) {
                try fm.moveItem(atPath: fileURL.path + suffix, toPath: aside.path + suffix)
            }
            if fm.fileExists(atPath: fileURL.path) {
                try fm.moveItem(atPath: fileURL.path, toPath: aside.path)
            }
        } catch {
            throw .cannotOpen(path: fileURL.path, detail: "the log is damaged and could not be moved aside: \(reason(error))")
        }
        return aside
    }

    /// `20260114T031500Z`: sortable, no colons (safe in every file name).
    static func corruptStamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ v: Int?) -> String { let v = v ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(c.year ?? 0)\(two(c.month))\(two(c.day))T\(two(c.hour))\(two(c.minute))\(two(c.second))Z"
    }

    // MARK: - Opening for reading (boxctl)

    /// Opens an existing log for reading only, while boxd writes it or while boxd is down.
    ///
    /// Never creates, migrates or moves anything. A missing file throws `.notFound`, a file
    /// boxd has not migrated yet throws `.schemaNotReady`, a damaged one `.corrupt`.
    /// (boxd keeps the -wal/-shm sidecars in place, so SQLite finds them; only for a log
    /// last closed by something else does SQLite create them, if it is allowed to.)
    public static func openReadOnly(stateDirectory: URL) throws(NightLogError) -> NightLog {
        let fileURL = stateDirectory.appendingPathComponent(fileName)
        let path = fileURL.path
        guard FileManager.default.fileExists(atPath: path) else { throw .notFound(path: path) }
        var config = Configuration()
        config.readonly = true
        // boxd may hold the write lock for a moment (or be recovering the WAL after a crash).
        config.busyMode = .timeout(2)
        config.label = "NightLog.readonly"
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            try queue.read { db in
                let check = try String.fetchAll(db, sql: "PRAGMA quick_check")
                if check != ["ok"] {
                    throw NightLogError.corrupt(path: path, detail: "quick_check: " + check.prefix(3).joined(separator: "; "))
                }
                if try !Schema.migrator.hasCompletedMigrations(db) {
                    let applied = try Schema.migrator.appliedMigrations(db)
                    throw NightLogError.schemaNotReady(
                        path: path, detail: "applied migrations: [\(applied.joined(separator: ", "))], expected: [\(Schema.migrator.migrations.joined(separator: ", "))]")
                }
            }
            return NightLog(fileURL: fileURL, db: queue, fault: nil, isReadOnly: true)
        } catch {
            throw NightLogError(error, path: path)
        }
    }

    // MARK: - Helpers

    /// Runs a database access and translates whatever it throws.
    func guarded<T>(_ body: () throws -> T) throws(NightLogError) -> T {
        do {
            return try body()
        } catch {
            throw NightLogError(error, path: path)
        }
    }

    static func reason(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }
}

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
}
