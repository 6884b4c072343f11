import BoxControl
import DoseCore
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Wakes the `watch` connections when the night log has committed something. Each watcher
/// owns a non-blocking pipe and waits in poll(2) on it and its socket, so a watcher costs no
/// wake-up while the night is quiet; every commit writes one byte into each pipe (a full
/// pipe already says "there is something new").
public final class FeedSignal: Sendable {
    /// Read end -> write end.
    private let pipes = Mutex<[Int32: Int32]>([:])

    public init() {}

    /// A new watcher's read end, or nil when no pipe can be made (out of descriptors).
    public func subscribe() -> Int32? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        pipes.withLock { $0[fds[0]] = fds[1] }
        return fds[0]
    }

    public func unsubscribe(_ readEnd: Int32) {
        if let writeEnd = pipes.withLock({ $0.removeValue(forKey: readEnd) }) { close(writeEnd) }
        close(readEnd)
    }

    /// The log committed: wake every watcher.
    public func notify() {
        var one: UInt8 = 1
        pipes.withLock { for writeEnd in $0.values { _ = write(writeEnd, &one, 1) } }
    }

    /// Empties a watcher's pipe once it woke.
    static func drain(_ readEnd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}

/// What `watch` reads: the feed after a cursor, and the signal of new commits.
public struct WatchSource: Sendable {
    /// The newest id and the entries after `after` (at most `limit`); with `after` nil, only
    /// the newest id. A failure is a sentence for the watcher.
    public typealias Read = @Sendable (_ after: Int64?, _ limit: Int) async -> Result<(newest: Int64, events: [FeedEvent]), WatchFailure>

    public struct WatchFailure: Error, Sendable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    public let signal: FeedSignal
    public let read: Read
    /// A caregiver bridge's `link` frame on its watch connection, or nil when that connection
    /// closed; the token names the connection (a bridge that reconnects has a new one).
    public let link: @Sendable (CaregiverLinkReport?, _ connection: UInt64) -> Void

    public init(signal: FeedSignal, link: @escaping @Sendable (CaregiverLinkReport?, UInt64) -> Void = { _, _ in }, read: @escaping Read) {
        self.signal = signal
        self.link = link
        self.read = read
    }
}
