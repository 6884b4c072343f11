import Foundation
import GRDB

// The checks `NightLog.open` makes before it opens the log for writing, each through a
// read-only connection, so a file found wanting is moved aside exactly as it was found:
// damage SQLite can see, and a log that is behind its witness (#29).
extension NightLog {
    /// Why the file at `path` is unusable, or nil if it is absent, empty or passes
    /// `PRAGMA quick_check`. Errors that are not damage (permissions, locks) throw.
    /// A WAL with a committed transaction past a damaged frame is damage too: SQLite would
    /// silently stop replaying at the damaged frame and forget acknowledged writes.
    static func damage(at path: String) throws(NightLogError) -> String? {
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
        guard let size, size.intValue > 0 else { return nil }
        if let wal = FileManager.default.contents(atPath: path + "-wal") {
            let scan = Salvage.scanWAL([UInt8](wal))
            if scan.headerValid && scan.commitPastDamage {
                return "the WAL holds a committed transaction past a damaged frame"
            }
        }
        do {
            return try readBeforeOpening(path, label: "NightLog.check") { db in
                let check = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard check == ["ok"] else { return "quick_check: " + check.prefix(3).joined(separator: "; ") }
                return try Salvage.textDamage(db)
            }
        } catch {
            let mapped = NightLogError(error, path: path)
            if case .corrupt(_, let detail) = mapped { return detail }
            throw mapped
        }
    }

    /// `PRAGMA quick_check` of the log at `path` through a read-only connection of its own,
    /// so it can run beside a read of an open log (the export's): `.corrupt` if it fails.
    static func quickCheck(path: String) throws(NightLogError) {
        do {
            try readBeforeOpening(path, label: "NightLog.quickcheck") { db in try requireQuickCheck(db, path: path) }
        } catch {
            throw NightLogError(error, path: path)
        }
    }

    /// Throws `.corrupt` unless `PRAGMA quick_check` says "ok".
    static func requireQuickCheck(_ db: Database, path: String) throws {
        let check = try String.fetchAll(db, sql: "PRAGMA quick_check")
        if check != ["ok"] {
            throw NightLogError.corrupt(path: path, detail: "quick_check: " + check.prefix(3).joined(separator: "; "))
        }
    }

    /// One read through a read-only connection, closed after: it cannot checkpoint, delete the
    /// WAL or write anything, so a file found wanting is moved aside exactly as it was.
    static func readBeforeOpening<T>(_ path: String, label: String, _ body: (Database) throws -> T) throws -> T {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(2)
        config.label = label
        let queue = try DatabaseQueue(path: path, configuration: config)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    /// Why the log at `path` is behind `witness`, read through a read-only connection (so a
    /// log that is behind is moved aside untouched), or nil. A missing or empty file, or one
    /// too old to have the tables, is behind any witness that names a dose or a seq. Errors
    /// that say nothing of the contents (permissions, locks) throw, as in `damage(at:)`.
    static func behind(path: String, witness: Witness) throws(NightLogError) -> String? {
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        let named = witness.highSeq > 0 || !witness.doses.isEmpty
        guard size > 0 else { return named ? "the log file is \(FileManager.default.fileExists(atPath: path) ? "empty" : "missing")" : nil }
        do {
            return try readBeforeOpening(path, label: "NightLog.witness") { db in try gap(db, from: witness) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            // "no such table / column": a log older than the tables the witness counts on.
            return named ? "it cannot be compared with its witness (\(error.message ?? "\(error)"))" : nil
        } catch {
            throw NightLogError(error, path: path)
        }
    }
}
