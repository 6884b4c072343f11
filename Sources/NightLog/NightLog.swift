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
/// All stored properties are immutable, which is what makes the class `Sendable` (the pool
/// itself lives in `LogStore`, which swaps it under a lock when its files had to be reopened).
public final class NightLog: Sendable {
    public static let fileName = "nightlog.sqlite"

    /// The SQLite file.
    public let fileURL: URL
    /// Set when opening had to recover from a damaged file; nil on a normal open.
    public let fault: LogFault?
    /// What that recovery carried over from the damaged file (nil on a normal open). When
    /// `salvage?.doseRecordCertain == false`, a dose may be missing from this log.
    public let salvage: SalvageReport?
    /// True for `openReadOnly`: every write fails with `NightLogError.readOnly`.
    public let isReadOnly: Bool
    /// What the open found of the witness beside the log (see `Witness`); nil when it agreed.
    public let witnessFault: WitnessFault?

    /// The connection(s) and, for the writer, the watch over the files (see `LogStore`).
    let store: LogStore

    /// A `DatabasePool` (writer) or a read-only `DatabaseQueue`.
    var db: any DatabaseWriter { store.writer }

    var path: String { fileURL.path }

    /// The file a damaged log was moved to, if this open recovered from one.
    public var recoveredFrom: URL? {
        switch fault {
        case .recoveredFromCorruption(let url, _): url
        case nil: nil
        }
    }

    private init(fileURL: URL, db: any DatabaseWriter, fault: LogFault?, salvage: SalvageReport? = nil, isReadOnly: Bool,
                 witnessFault: WitnessFault? = nil) {
        self.fileURL = fileURL
        self.store = LogStore(path: fileURL.path, writer: db, watchSidecars: !isReadOnly)
        self.fault = fault
        self.salvage = salvage
        self.isReadOnly = isReadOnly
        self.witnessFault = witnessFault
    }

    // MARK: - Opening for writing (boxd)

    /// Opens (creating or migrating as needed) the log in `stateDirectory`.
    ///
    /// Runs `PRAGMA quick_check`. A file that is not a database or fails the check is
    /// renamed to `nightlog.sqlite.corrupt-<UTC time>` (its -wal/-shm follow it), a new
    /// log is started with every row that could still be read from it (see `Salvage`),
    /// `fault` says so and `salvage` says what was carried over. Other failures
    /// (permissions, read-only file system, full disk) throw: moving a healthy file aside
    /// would lose the night. If the recovery itself fails that way, the damaged file is
    /// put back where it was (so the next open tries again) and the error is thrown.
    public static func open(stateDirectory: URL) throws(NightLogError) -> NightLog {
        try open(stateDirectory: stateDirectory, now: Date())
    }

    /// `now` on the box's own clock: it dates a recovery (`log_recoveries.recovered_at`).
    public static func open(stateDirectory: URL, now: Date) throws(NightLogError) -> NightLog {
        let fileURL = stateDirectory.appendingPathComponent(fileName)
        let path = fileURL.path
        do {
            try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        } catch {
            throw .cannotOpen(path: path, detail: "cannot create the state directory \(stateDirectory.path): \(Self.reason(error))")
        }

        // An unwritable -shm would be mapped by SQLite and written through the map: SIGBUS.
        try LogStore.checkBeforeOpen(path)
        let witness = Witness.read(in: stateDirectory)
        // Check first, through a read-only connection: it cannot checkpoint, delete the WAL or
        // write anything, so a damaged file, or one behind its witness, is moved aside exactly
        // as it was found.
        if let damage = try damage(at: path) {
            return try recover(fileURL, reason: damage, now: now, witness: witness.found)
        }
        if let w = witness.found, let gap = try behind(path: path, witness: w) {
            return try recover(fileURL, reason: "the log is behind its witness: \(gap)", now: now, witness: w, behind: true)
        }
        let log: NightLog
        do {
            let pool = try openWriter(path: path)
            let hadWitness = (try? pool.read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM log_witness") ?? false }) ?? false
            var witnessFault: WitnessFault?
            switch witness {
            case .found: break
            case .absent where hadWitness: witnessFault = .witnessRebuilt("was missing")
            case .damaged(let why): witnessFault = .witnessRebuilt("was damaged (\(why))")
            case .absent: break // a log from before witnesses: its first one, no news
            }
            log = NightLog(fileURL: fileURL, db: pool, fault: nil, isReadOnly: false, witnessFault: witnessFault)
        } catch where error.isCorruption {
            // Damage quick_check did not see, found while migrating: same treatment.
            let reason: String
            if case .corrupt(_, let detail) = error { reason = detail } else { reason = error.description }
            return try recover(fileURL, reason: reason, now: now, witness: witness.found)
        }
        // Best effort (a full disk): the next commit writes it again.
        if witness.found == nil { try? log.writeWitness() }
        return log
    }

    /// Moves the damaged log (or one behind its witness) aside, starts a new one, salvages
    /// into it what can be read and carries into it the doses the witness names that it lacks.
    private static func recover(_ fileURL: URL, reason: String, now: Date, witness: Witness?,
                                behind: Bool = false) throws(NightLogError) -> NightLog {
        let path = fileURL.path
        let aside = try moveAside(fileURL, now: now, label: behind ? "behind" : "corrupt")
        do {
            let found = Salvage.read(aside: aside.path, scratch: path + ".salvage")
            let pool = try openWriter(path: path)
            do {
                let (report, restored) = try pool.write { db in
                    var report = try Salvage.store(found, into: db, movedTo: aside.path, reason: reason, now: now, lostRecords: behind)
                    // After the salvage, so only what it could not carry is restored.
                    let restored = try witness.map { try restore($0, into: db, path: path) } ?? []
                    if !restored.isEmpty, !report.lostRecords {
                        report.lostRecords = true
                        try db.execute(sql: "UPDATE log_recoveries SET dose_record_certain = 0 WHERE id = (SELECT MAX(id) FROM log_recoveries)")
                    }
                    return (report, restored)
                }
                let lost: WitnessFault? = behind || !restored.isEmpty ? .lostRecords(movedTo: aside, reason: reason, restored: restored) : nil
                let log = NightLog(fileURL: fileURL, db: pool, fault: behind ? nil : .recoveredFromCorruption(movedTo: aside, reason: reason),
                                   salvage: report, isReadOnly: false, witnessFault: lost)
                try? log.writeWitness() // as above
                return log
            } catch {
                try? pool.close()
                throw NightLogError(error, path: path)
            }
        } catch {
            putBack(aside, to: fileURL)
            throw NightLogError(error, path: path)
        }
    }

    /// Undoes `moveAside` after a failed recovery: the new log goes, the damaged one comes back.
    private static func putBack(_ aside: URL, to fileURL: URL) {
        let fm = FileManager.default
        for suffix in ["-wal", "-shm", ""] {
            try? fm.removeItem(atPath: fileURL.path + suffix)
        }
        for suffix in ["", "-wal", "-shm"] where fm.fileExists(atPath: aside.path + suffix) {
            try? fm.moveItem(atPath: aside.path + suffix, toPath: fileURL.path + suffix)
        }
    }

    /// Opens the writer pool and migrates. The pool is closed again on failure so nothing
    /// holds the file if it has to be moved aside.
    static func openWriter(path: String) throws(NightLogError) -> DatabasePool {
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
            // GRDB's WAL setup runs after prepareDatabase and sets synchronous = NORMAL on the
            // writer. The schema is made so, without a sync each (#34): WAL with NORMAL never
            // corrupts, a power cut can only undo the last migrations, which then run again at
            // the next start. A new file gets the current schema in one transaction; an older
            // log runs the migrations it lacks. Then FULL again, so the writer fsyncs each
            // commit; and a checkpoint, which syncs the schema before anything (the witness
            // file) is written from it.
            try Schema.makeCurrentIfEmpty(pool)
            try Schema.migrator.migrate(pool)
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
            }
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
    private static func moveAside(_ fileURL: URL, now: Date, label: String) throws(NightLogError) -> URL {
        let fm = FileManager.default
        let stamp = corruptStamp(now)
        var aside = URL(fileURLWithPath: fileURL.path + ".\(label)-" + stamp)
        var n = 2
        while fm.fileExists(atPath: aside.path) || fm.fileExists(atPath: aside.path + "-wal") {
            aside = URL(fileURLWithPath: fileURL.path + ".\(label)-" + stamp + "-\(n)")
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
    /// `quickCheck` false leaves `PRAGMA quick_check` to the caller (`export(checkingBeside:)`).
    public static func openReadOnly(stateDirectory: URL, quickCheck: Bool = true) throws(NightLogError) -> NightLog {
        let fileURL = stateDirectory.appendingPathComponent(fileName)
        let path = fileURL.path
        // stat, not fileExists: a directory boxctl may not search is "permission denied",
        // never "there is no night log yet".
        var st = stat()
        if stat(path, &st) != 0 {
            let code = errno
            guard code == ENOENT else {
                let why = code == EACCES ? "permission denied (is this user in group boxd? uid \(getuid()))" : String(cString: strerror(code))
                throw .cannotOpen(path: path, detail: why)
            }
            throw .notFound(path: path)
        }
        var config = Configuration()
        config.readonly = true
        // boxd may hold the write lock for a moment (or be recovering the WAL after a crash).
        config.busyMode = .timeout(2)
        config.label = "NightLog.readonly"
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            try queue.read { db in
                if quickCheck { try requireQuickCheck(db, path: path) }
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

    /// After `NightLogError.sidecar`: if -wal, -shm or the log itself were removed or
    /// replaced, checkpoints and closes the old pool (so no committed write is lost), keeps
    /// foreign files aside and opens a new pool; if they are the pool's files and writable
    /// again, just goes on. Throws `.sidecar` while a file is still unwritable. The next
    /// call after a `.sidecar` does the same by itself; this is for doing it now.
    public func reopen() throws(NightLogError) {
        try store.reopen()
    }

    /// boxd's clean stop: every commit checkpointed into the main file (the WAL left at
    /// zero bytes), then closed. Skipped while a sidecar is unsafe to touch; the WAL keeps
    /// everything then, as after a power cut.
    public func close() {
        guard !isReadOnly else { return }
        do {
            try guarded { _ = try db.writeWithoutTransaction { db in try db.checkpoint(.truncate) } }
            try (db as? DatabasePool)?.close()
        } catch {
            // Nothing is lost: the WAL holds every commit and the next open replays it.
        }
    }

    // MARK: - Helpers

    /// Runs a database access and translates whatever it throws. For the writer, the log's
    /// files are checked first (see `LogStore`): a changed or unwritable -wal / -shm throws
    /// `.sidecar` before SQLite touches it.
    func guarded<T>(_ body: () throws -> T) throws(NightLogError) -> T {
        try store.check()
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
