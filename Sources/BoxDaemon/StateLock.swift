import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One boxd per state directory: an exclusive `flock`, taken before the night log is opened
/// or the socket is touched, and held until the process exits (the kernel drops it then, even
/// after SIGKILL or a power cut). Two daemons on one log would each record their own Dose 1.
///
/// The lock lives in a runtime directory, not in the state directory: a state directory that
/// cannot be written (a read-only mount, a full disk) must still let boxd run in doubt with
/// its LED, alarms and socket, and retry the log (#29); a lock file there could not even be
/// created. Where (`lockDirectory`): `$RUNTIME_DIRECTORY` (the unit's RuntimeDirectory=boxd,
/// /run/boxd), else /run/boxd when it is or can be made writable (root), else
/// `$XDG_RUNTIME_DIR`, else the temporary directory (tests, a developer's boxd). The file is
/// named by the state directory's real path (symlinks resolved), hashed (FNV-1a, 64 bits) to
/// fit any path in a file name: a collision could only make two directories share a lock
/// (a second boxd refused), never let two boxd share one directory. The file holds the pid
/// and the directory, for the refusal's message. It is never removed: unlinking a lock file
/// races with the next boxd opening it, and /run is emptied at boot anyway.
///
/// Best effort, the old `boxd.lock` in the state directory is locked too, so a boxd whose
/// runtime directory differs (another user, another environment) still finds a running one
/// wherever the directory is writable, as before.
public final class StateDirectoryLock: Sendable {
    public static let fileName = "boxd.lock"
    /// The runtime lock, and the state directory's own when it could be opened.
    let fds: [Int32]
    /// Where the runtime lock is (for the journal).
    public let path: String

    public struct Held: Error, CustomStringConvertible {
        public var directory: String
        public var holder: String
        public var description: String {
            "another boxd (\(holder)) already runs on \(directory); this one stops without touching its log or socket"
        }
    }

    public struct Failed: Error, CustomStringConvertible {
        public var description: String
    }

    public static func acquire(_ directory: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> StateDirectoryLock {
        let key = realPath(directory)
        let path = lockDirectory(environment).appendingPathComponent(lockName(forRealPath: key)).path
        let fd = openLockFile(path)
        guard fd >= 0 else { throw Failed(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        try lock(fd, path: path, directory: directory)
        // The state directory's own lock: skipped when it cannot be opened (read-only, full,
        // missing), refused like the other when another boxd holds it.
        let own = directory.appendingPathComponent(fileName).path
        var fds = [fd]
        let ownFD = openLockFile(own)
        if ownFD >= 0 {
            do { try lock(ownFD, path: own, directory: directory) } catch {
                close(fd)
                throw error
            }
            fds.append(ownFD)
        }
        let note = Array("\(getpid())\n\(key)\n".utf8)
        for f in fds {
            _ = ftruncate(f, 0)
            _ = note.withUnsafeBytes { pwrite(f, $0.baseAddress, $0.count, 0) }
        }
        return StateDirectoryLock(fds: fds, path: path)
    }

    /// Opens (creating) a lock file; read-only when it is someone else's (a root boxd left it
    /// in /run/boxd): flock needs no write access, only the pid note is then not written.
    static func openLockFile(_ path: String) -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        return fd >= 0 || errno != EACCES ? fd : open(path, O_RDONLY | O_CLOEXEC)
    }

    /// Locks `fd` or closes it and throws: `Held` with the holder's pid, else `Failed`.
    static func lock(_ fd: Int32, path: String, directory: URL) throws {
        guard flock(fd, LOCK_EX | LOCK_NB) != 0 else { return }
        let err = errno
        var buf = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buf, buf.count, 0)
        close(fd)
        guard err == EWOULDBLOCK else { throw Failed(description: "cannot lock \(path): \(String(cString: strerror(err)))") }
        let pid = n > 0 ? String(decoding: buf[0..<n], as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "" : ""
        throw Held(directory: directory.path, holder: pid.isEmpty ? "pid unknown" : "pid \(pid)")
    }

    /// Where the runtime lock goes (see the type's comment); created if missing.
    static func lockDirectory(_ env: [String: String]) -> URL {
        if let rd = env["RUNTIME_DIRECTORY"]?.split(separator: ":").first, !rd.isEmpty { return URL(fileURLWithPath: String(rd)) }
        if usable("/run/boxd") { return URL(fileURLWithPath: "/run/boxd") }
        if let xdg = env["XDG_RUNTIME_DIR"], !xdg.isEmpty, usable(xdg) { return URL(fileURLWithPath: xdg) }
        return FileManager.default.temporaryDirectory
    }

    /// A directory that exists (or could be made, mode 0755) and can be written.
    static func usable(_ path: String) -> Bool {
        if access(path, F_OK) != 0 { _ = mkdir(path, 0o755) }
        return access(path, W_OK | X_OK) == 0
    }

    /// The directory's real path, or its absolute standardised path if it does not exist.
    static func realPath(_ directory: URL) -> String {
        guard let resolved = realpath(directory.path, nil) else { return directory.standardizedFileURL.path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `boxd-state-<16 hex>.lock`, from FNV-1a 64 of the path's bytes.
    static func lockName(forRealPath path: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in path.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return "boxd-state-" + String(repeating: "0", count: 16 - hex.count) + hex + ".lock"
    }

    private init(fds: [Int32], path: String) {
        self.fds = fds
        self.path = path
    }

    deinit { for f in fds { close(f) } }
}
