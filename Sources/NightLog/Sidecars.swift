import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writer pool and the files it holds open: `nightlog.sqlite` and its `-wal` / `-shm`.
///
/// Why it watches them. SQLite maps `-shm` into memory and writes it on every transaction;
/// if the file becomes unwritable under it (`chattr +i`), the next write through the map is
/// a SIGBUS that kills boxd inside libsqlite3. A `-wal` or `-shm` that vanished or was
/// replaced is worse, silently: this process keeps the old files open while boxctl (or the
/// next boxd) would use the new ones, and a deleted WAL takes its committed writes with it
/// when the pool closes. So before each use of the log (a stat and an access(W_OK) per
/// file, a few microseconds; the box writes a few times a night) the three files must
/// still be regular, writable and the very files (device, inode) the pool opened, and
/// `-shm` must not have shrunk. If not, the call throws `NightLogError.sidecar` and SQLite
/// never touches them.
///
/// Recovery. An unwritable file: the calls keep failing until it is writable again, then
/// the same pool goes on. A vanished or replaced file: the next call (or `reopen()`)
/// checkpoints through the old pool, so every committed write reaches the main file,
/// closes it, moves foreign files aside (`<name>.replaced-<UTC>`), copies the log back if
/// the main file itself was removed or replaced (the pool still has it open), and opens a
/// new pool. A pool whose `-shm` is unwritable is never closed (closing checkpoints, which
/// writes `-shm`): it is kept for the life of the process instead.
///
/// What it cannot do: a file changed between the check and SQLite's next write (a window
/// of microseconds) is not caught.
final class LogStore: @unchecked Sendable {
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    enum Problem {
        /// The file is the pool's, but cannot be written: wait for it to be writable again.
        case unwritable(path: String, detail: String)
        /// The file is not the pool's any more (or is gone): reopen.
        case changed(path: String, detail: String)
        /// The pool's -shm, cut shorter than SQLite's map of it (touching the map past the
        /// end is a SIGBUS). Extending it back with zeros makes the map valid again, and
        /// SQLite rebuilds a zeroed WAL index from the WAL itself (as after a crash).
        case truncated(path: String, from: Int64, to: Int64)
    }

    let path: String
    private let lock = NSLock()
    private var current: any DatabaseWriter
    /// Nil for a read-only log (nothing is checked).
    private var identities: [String: Identity]?
    private var shmSize: Int64 = 0
    /// A changed file was seen: the pool must be replaced before the next use.
    private var needsReopen = false
    /// The old pool was checkpointed and closed; opening the new one is what remains.
    private var retired = false
    /// The last check found `-shm` unwritable: closing the pool now could SIGBUS.
    private var shmUnwritable = false
    /// A copy of a log whose file was removed or replaced, made from the old pool, waiting
    /// to be put at the log's path.
    private var rescued: String?

    init(path: String, writer: any DatabaseWriter, watchSidecars: Bool) {
        self.path = path
        current = writer
        if watchSidecars {
            identities = Self.identities(path)
            shmSize = Self.size(path + "-shm") ?? 0
        }
    }

    deinit {
        // Closing checkpoints, which writes -shm: not through a map of an unwritable file.
        var unwritable = shmUnwritable
        if identities != nil, !retired, case .unwritable(let file, _)? = problem(), file.hasSuffix("-shm") { unwritable = true }
        if unwritable && !retired { Quarantine.keep(current) }
    }

    var writer: any DatabaseWriter { lock.withLock { current } }

    static let suffixes = ["", "-wal", "-shm"]

    // MARK: - The check before each use

    /// Throws `.sidecar` when the files are not the pool's, sane ones; reopens first if an
    /// earlier call found them changed.
    func check() throws(NightLogError) {
        lock.lock()
        defer { lock.unlock() }
        guard identities != nil else { return }
        if needsReopen { try reopenLocked() }
        switch problem() {
        case nil:
            shmUnwritable = false
        case .unwritable(let file, let detail):
            if file.hasSuffix("-shm") { shmUnwritable = true }
            throw .sidecar(path: file, detail: detail + "; nothing was written, the log is used again once the file is writable")
        case .changed(let file, let detail):
            needsReopen = true
            throw .sidecar(path: file, detail: detail + "; nothing was written, the log is reopened on the next call")
        case .truncated(let file, let from, let to):
            let restored = truncate(file, off_t(from)) == 0
            throw .sidecar(path: file, detail: "it was truncated from \(from) to \(to) bytes; nothing was written; "
                           + (restored ? "it was extended back with zeros, SQLite rebuilds it from the WAL"
                                       : "it could not be extended back: \(String(cString: strerror(errno)))"))
        }
    }

    /// Replaces the pool if the files changed (see the type's comment); a no-op when they
    /// are the pool's and sane. Throws `.sidecar` while a file is unwritable.
    func reopen() throws(NightLogError) {
        lock.lock()
        defer { lock.unlock() }
        guard identities != nil else { return }
        if !needsReopen, case .changed? = problem() { needsReopen = true }
        if needsReopen { try reopenLocked() }
        switch problem() {
        case .unwritable(let file, let detail):
            if file.hasSuffix("-shm") { shmUnwritable = true }
            throw .sidecar(path: file, detail: detail)
        case .truncated(let file, let from, _):
            guard truncate(file, off_t(from)) == 0 else {
                throw .sidecar(path: file, detail: "it was truncated and cannot be extended back: \(String(cString: strerror(errno)))")
            }
        case .changed(let file, let detail):
            throw .sidecar(path: file, detail: detail)
        case nil:
            break
        }
        shmUnwritable = false
    }

    private func problem() -> Problem? {
        guard let identities else { return nil }
        for suffix in Self.suffixes {
            let file = path + suffix
            var st = stat()
            guard lstat(file, &st) == 0 else {
                let code = errno
                return code == ENOENT
                    ? .changed(path: file, detail: "the file vanished")
                    : .changed(path: file, detail: "cannot stat it: \(String(cString: strerror(code)))")
            }
            guard st.st_mode & S_IFMT == S_IFREG else {
                return .changed(path: file, detail: "it is no longer a regular file")
            }
            if Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino)) != identities[suffix] {
                return .changed(path: file, detail: "it was replaced by another file")
            }
            if access(file, W_OK) != 0 {
                let code = errno
                let why = code == EPERM ? "it is immutable (chattr +i)" : "it cannot be written"
                return .unwritable(path: file, detail: "\(why): \(String(cString: strerror(code)))")
            }
            if suffix == "-shm" {
                let size = Int64(st.st_size)
                // Only SQLite grows it, and only the first connection to open the log cuts it back.
                if size < shmSize { return .truncated(path: file, from: shmSize, to: size) }
                shmSize = size
            }
        }
        return nil
    }

    // MARK: - Reopening

    private func reopenLocked() throws(NightLogError) {
        if !retired {
            // Files that cannot be written make closing unsafe and reopening futile.
            switch problem() {
            case .unwritable(let file, let detail):
                if file.hasSuffix("-shm") { shmUnwritable = true }
                throw .sidecar(path: file, detail: detail + "; the log cannot be reopened until it is writable")
            case .truncated(let file, let from, _):
                // The old pool's map must be valid before it checkpoints and closes.
                guard truncate(file, off_t(from)) == 0 else {
                    throw .sidecar(path: file, detail: "it was truncated and cannot be extended back: \(String(cString: strerror(errno)))")
                }
            case .changed, nil:
                break
            }
            // Whatever now sits at the paths must be usable by the new pool.
            try Self.checkBeforeOpen(path)
            do {
                // Every committed write into the main file the pool has open, through the
                // WAL the pool has open (which may be a deleted one).
                _ = try current.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
                if mainFileChanged() {
                    // The pool still has the log open: copy it out before closing it.
                    let copy = path + ".rescue"
                    try? FileManager.default.removeItem(atPath: copy)
                    let queue = try DatabaseQueue(path: copy)
                    // From the writer connection: a new reader could not open the vanished file.
                    try current.writeWithoutTransaction { source in
                        try queue.writeWithoutTransaction { destination in try source.backup(to: destination) }
                    }
                    try queue.close()
                    rescued = copy
                }
                if let pool = current as? DatabasePool { try pool.close() }
            } catch {
                throw NightLogError(error, path: path)
            }
            retired = true
        }
        do {
            if let copy = rescued {
                // Whatever is at the log's path is not the log: keep it aside, put the copy there.
                try moveAsideIfForeign(path, expected: nil)
                try FileManager.default.moveItem(atPath: copy, toPath: path)
                rescued = nil
            }
            for suffix in ["-wal", "-shm"] {
                try moveAsideIfForeign(path + suffix, expected: identities?[suffix])
            }
        } catch {
            throw .sidecar(path: path, detail: "a replaced file could not be moved aside: \(NightLog.reason(error))")
        }
        let pool = try NightLog.openWriter(path: path)
        current = pool
        identities = Self.identities(path)
        shmSize = Self.size(path + "-shm") ?? 0
        retired = false
        needsReopen = false
        shmUnwritable = false
    }

    private func mainFileChanged() -> Bool {
        Self.identity(path) != identities?[""]
    }

    /// Renames a file at `file` that is not `expected` (or any file, for nil) to
    /// `<file>.replaced-<UTC>`: never deleted, never used by the log.
    private func moveAsideIfForeign(_ file: String, expected: Identity?) throws {
        guard let found = Self.identity(file) else { return }
        if let expected, found == expected { return }
        let stamp = NightLog.corruptStamp(Date())
        var aside = file + ".replaced-" + stamp
        var n = 2
        while FileManager.default.fileExists(atPath: aside) {
            aside = file + ".replaced-" + stamp + "-\(n)"
            n += 1
        }
        try FileManager.default.moveItem(atPath: file, toPath: aside)
    }

    // MARK: - Files

    private static func identities(_ path: String) -> [String: Identity] {
        var result: [String: Identity] = [:]
        for suffix in suffixes {
            if let id = identity(path + suffix) { result[suffix] = id }
        }
        return result
    }

    static func identity(_ file: String) -> Identity? {
        var st = stat()
        guard lstat(file, &st) == 0 else { return nil }
        return Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    private static func size(_ file: String) -> Int64? {
        var st = stat()
        guard lstat(file, &st) == 0 else { return nil }
        return Int64(st.st_size)
    }

    /// Before opening: -wal / -shm that exist must be writable regular files, or SQLite
    /// would map an unwritable -shm (SIGBUS) or fail half way.
    static func checkBeforeOpen(_ path: String) throws(NightLogError) {
        for suffix in ["-wal", "-shm"] {
            let file = path + suffix
            var st = stat()
            guard lstat(file, &st) == 0 else { continue }
            guard st.st_mode & S_IFMT == S_IFREG else {
                throw .sidecar(path: file, detail: "it is not a regular file")
            }
            if access(file, W_OK) != 0 {
                let code = errno
                let why = code == EPERM ? "it is immutable (chattr +i)" : "it cannot be written"
                throw .sidecar(path: file, detail: "\(why): \(String(cString: strerror(code)))")
            }
        }
    }
}

/// Pools that must never be closed (their -shm cannot be written, and closing writes it).
/// Kept until the process ends; the OS releases them then without running SQLite's close.
enum Quarantine {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var pools: [any DatabaseWriter] = []

    static func keep(_ writer: any DatabaseWriter) {
        lock.withLock { pools.append(writer) }
    }
}
