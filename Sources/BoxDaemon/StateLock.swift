import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One boxd per state directory: an exclusive `flock` on `boxd.lock`, taken before the
/// night log is opened or the socket is touched, and held until the process exits (the
/// kernel drops it then, even after SIGKILL or a power cut). Two daemons on one log would
/// each record their own Dose 1.
public final class StateDirectoryLock: Sendable {
    public static let fileName = "boxd.lock"
    let fd: Int32

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

    public static func acquire(_ directory: URL) throws -> StateDirectoryLock {
        let path = directory.appendingPathComponent(fileName).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failed(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let err = errno
            var buf = [UInt8](repeating: 0, count: 32)
            let n = pread(fd, &buf, buf.count, 0)
            close(fd)
            guard err == EWOULDBLOCK else { throw Failed(description: "cannot lock \(path): \(String(cString: strerror(err)))") }
            let pid = n > 0 ? String(decoding: buf[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
            throw Held(directory: directory.path, holder: pid.isEmpty ? "pid unknown" : "pid \(pid)")
        }
        // Who holds it, for the message the next one prints.
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return StateDirectoryLock(fd: fd)
    }

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }
}
