import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The few POSIX socket steps that boxd, boxctl, the notifier and the tests all need.
public enum UnixSocket {
    /// A Unix socket address for `path`; a leading "@" names Linux's abstract namespace.
    /// Nil when the path does not fit.
    public static func address(_ path: String) -> (sockaddr_un, socklen_t)? {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: bytes) }
        // Abstract names are exactly their bytes; paths are NUL-terminated.
        let length = abstract ? MemoryLayout<sa_family_t>.size + bytes.count : MemoryLayout<sockaddr_un>.size
        return (addr, socklen_t(length))
    }

    /// Calls `body` with the address as a `sockaddr` pointer (for bind, connect, sendto).
    public static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T? {
        guard var (addr, len) = address(path) else { return nil }
        return withUnsafePointer(to: &addr) { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, len) } }
    }

    /// Connects a new stream socket to `path`; the descriptor, or nil with errno set.
    public static func connectStream(_ path: String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        guard withAddress(path, { connect(fd, $0, $1) }) == 0 else {
            let saved = errno
            close(fd)
            errno = saved
            return nil
        }
        return fd
    }

    /// Writes all of `bytes`, never raising SIGPIPE; false if the peer went away.
    public static func writeAll(_ fd: Int32, _ bytes: some DataProtocol) -> Bool {
        let data = Array(bytes)
        return data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }
}
