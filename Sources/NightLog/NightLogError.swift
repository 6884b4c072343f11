import Foundation
import GRDB

/// Everything the night log can fail with, as a value the daemon and `boxctl` can show.
///
/// SQLite and file-system errors are translated here so callers never see GRDB types,
/// and every case carries the path plus SQLite's own words for the journal.
public enum NightLogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A record broke a rule of the schema (duplicate id, unknown session, check-in out of range).
    case constraint(path: String, detail: String)
    /// SQLITE_FULL: the disk (or the page limit) is full.
    case diskFull(path: String, detail: String)
    /// SQLITE_READONLY: a read-only file system, file, or a handle opened read-only.
    case readOnly(path: String, detail: String)
    /// SQLITE_CANTOPEN / SQLITE_PERM, or the state directory cannot be created.
    case cannotOpen(path: String, detail: String)
    /// Read-only open of a log that does not exist yet.
    case notFound(path: String)
    /// The file is damaged and could not be moved aside (read-only open, or damage found mid-use).
    case corrupt(path: String, detail: String)
    /// The file's schema is older than this build (read-only open before boxd migrated it).
    case schemaNotReady(path: String, detail: String)
    /// SQLITE_IOERR: the storage itself failed.
    case io(path: String, detail: String)
    /// SQLITE_BUSY / SQLITE_LOCKED after the busy timeout.
    case busy(path: String, detail: String)
    /// An append that makes no sense against what is stored (undo of an unknown event, closing a closed session).
    case invalidRecord(path: String, detail: String)
    /// A stored value this build cannot turn back into a record.
    case unreadable(path: String, detail: String)
    /// A bad argument, e.g. an export date that is not YYYY-MM-DD.
    case invalidArgument(String)
    /// Writing the export files failed.
    case exportFailed(path: String, detail: String)
    /// Any other SQLite error.
    case sqlite(path: String, code: Int32, detail: String)
    /// A file next to the log (-wal, -shm) or the log file itself vanished, was replaced or
    /// cannot be written; caught before SQLite used it. `path` is that file. See `NightLog.reopen()`.
    case sidecar(path: String, detail: String)

    public var description: String {
        switch self {
        case .constraint(let path, let detail): "the night log refused a record: \(path) (\(detail))"
        case .diskFull(let path, let detail): "the disk is full, the night log cannot grow: \(path) (\(detail))"
        case .readOnly(let path, let detail): "the night log is read-only: \(path) (\(detail))"
        case .cannotOpen(let path, let detail): "the night log cannot be opened: \(path) (\(detail))"
        case .notFound(let path): "there is no night log yet: \(path)"
        case .corrupt(let path, let detail): "the night log is damaged: \(path) (\(detail))"
        case .schemaNotReady(let path, let detail): "the night log has not been upgraded by boxd yet: \(path) (\(detail))"
        case .io(let path, let detail): "the night log storage failed: \(path) (\(detail))"
        case .busy(let path, let detail): "the night log is locked by another process: \(path) (\(detail))"
        case .invalidRecord(let path, let detail): "the night log refused a record: \(path) (\(detail))"
        case .unreadable(let path, let detail): "the night log holds a value this version cannot read: \(path) (\(detail))"
        case .invalidArgument(let detail): "invalid argument: \(detail)"
        case .exportFailed(let path, let detail): "the export could not be written: \(path) (\(detail))"
        case .sqlite(let path, let code, let detail): "the night log failed (SQLite error \(code)): \(path) (\(detail))"
        case .sidecar(let path, let detail): "a file of the night log is not usable: \(path) (\(detail))"
        }
    }

    /// True for the errors that mean "this file is not a usable database" (the recovery trigger).
    var isCorruption: Bool {
        if case .corrupt = self { return true }
        return false
    }

    /// Translates any error thrown by GRDB, SQLite or Foundation while working on `path`.
    init(_ error: any Error, path: String) {
        if let own = error as? NightLogError {
            self = own
            return
        }
        if error is RowDecodingError {
            self = .unreadable(path: path, detail: String(describing: error))
            return
        }
        guard let db = error as? DatabaseError else {
            self = .sqlite(path: path, code: -1, detail: String(describing: error))
            return
        }
        let detail = db.message ?? "SQLite error \(db.extendedResultCode.rawValue)"
        switch db.resultCode {
        case .SQLITE_CONSTRAINT: self = .constraint(path: path, detail: detail)
        case .SQLITE_FULL: self = .diskFull(path: path, detail: detail)
        case .SQLITE_READONLY: self = .readOnly(path: path, detail: detail)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH: self = .cannotOpen(path: path, detail: detail)
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: self = .corrupt(path: path, detail: detail)
        case .SQLITE_IOERR: self = .io(path: path, detail: detail)
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy(path: path, detail: detail)
        default: self = .sqlite(path: path, code: db.extendedResultCode.rawValue, detail: detail)
        }
    }
}

/// Something that went wrong on open but was recovered from; status and the LED show it.
public enum LogFault: Sendable, Equatable, CustomStringConvertible {
    /// The file was unreadable or failed `PRAGMA quick_check`. It was renamed to `movedTo`
    /// (byte-identical, never deleted) and a new log was started with every row that could
    /// still be read from it; `NightLog.salvage` says what was carried over and whether
    /// tonight's doses are certain.
    case recoveredFromCorruption(movedTo: URL, reason: String)

    public var description: String {
        switch self {
        case .recoveredFromCorruption(let url, let reason):
            "the night log was damaged (\(reason)); it was kept as \(url.path) and a new log was started from what could still be read"
        }
    }
}
