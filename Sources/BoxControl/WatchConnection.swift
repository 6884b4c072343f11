import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A `watch` connection to boxd, read frame by frame. The caregiver bridge also writes its
/// `link` reports on it, from another thread (writes are serialised; reads are one reader's).
public final class WatchConnection: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private let writing = Mutex(())
    private let decoder = ControlProtocol.decoder()

    init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// Ends the connection (a blocked `next` returns `.unreachable`).
    public func shutdown() { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    /// The next reply frame; nil when `timeoutMs` passed first (nil timeout: wait for ever).
    public func next(timeoutMs: Int32? = nil) throws(ControlClient.Failure) -> Reply? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[..<nl])
                buffer.removeSubrange(...nl)
                do { return try decoder.decode(Reply.self, from: line) } catch {
                    throw .badReply("boxd's reply could not be read: \(error)")
                }
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, timeoutMs ?? -1)
            if ready < 0, errno == EINTR { continue }
            if ready == 0 { return nil }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { throw .unreachable("boxd closed the watch (\(n == 0 ? "it stopped or restarted" : String(cString: strerror(errno))))") }
            buffer += chunk[0..<n]
            if buffer.count > 16 * 1024 * 1024 { throw .badReply("reply too large") }
        }
    }

    /// Writes one command frame (a `link` report); false when boxd is gone.
    @discardableResult
    public func send(_ command: Command) -> Bool {
        guard let frame = try? ControlProtocol.line(command) else { return false }
        return writing.withLock { _ in UnixSocket.writeAll(fd, frame) }
    }
}

extension ControlClient {
    /// Opens a `watch`: the connection, its first frame (`watching` or why not) still to be read.
    public func openWatch(after: Int64?) throws(Failure) -> WatchConnection {
        WatchConnection(fd: try connect(sending: .watch(after: after)) { fd in
            // A `link` frame written while boxd is busy must not hold its writer (the bridge's
            // network thread) for long; a frame that cannot go now is sent again later.
            var tv = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        })
    }
}
