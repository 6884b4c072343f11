import BoxControl
import DoseCore
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The control socket: a Unix stream socket (no TCP listener), mode 0660 with group
/// `boxd`, newline-delimited JSON (`Command` in, `Reply` out). Frames are size-capped, and a
/// bad frame gets a usage reply naming the problem, never a crash.
///
/// One poll(2) loop on one thread serves every connection (ControlServer+Loop): nothing
/// blocks on a client. A command is answered by the handler in a task, one at a time per
/// connection, and its reply comes back to the loop through a mailbox.
///
/// Bounded: at most `maxClients` connections are served at once (watchers included), each
/// closed after `idleTimeout` without a complete frame, or with a reply it does not read.
/// Past the cap up to `maxOverflow` connections wait: `status` (cheap, read-only: status
/// always answers) is answered, everything else refused with `503_BUSY`, and one that sends
/// nothing within `overflowTimeoutMs` is told busy; past that a connection is refused at once.
///
/// A `Service`: it runs from `start` until `stop`, or until the service group shuts down.
public final class ControlServer: Service, Sendable {
    public typealias Handler = @Sendable (Command, _ peerUID: UInt32) async -> Reply

    let path: String
    let handler: Handler
    let logger: Logger
    /// The night log's feed for `watch` (ControlServer+Watch); nil: watch is refused.
    let watch: WatchSource?
    let listenFD = Mutex<Int32>(-1)
    /// What the tasks hand back to the loop, and the request to stop.
    let mailbox = Mutex(Mailbox())
    /// Wakes the loop: [read end, write end].
    let wakePipe: [Int32]
    private let ended = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public static let maxClients = 16
    public static let maxOverflow = 512
    public static let idleTimeoutSeconds = 5
    /// How long a connection past the cap has to send its frame.
    static let overflowTimeoutMs = 500

    /// A reply or a page of the feed made for connection `id`.
    enum Delivery: Sendable {
        case reply(Reply)
        case page(Result<(newest: Int64, events: [FeedEvent]), WatchSource.WatchFailure>)
    }

    struct Mailbox {
        var deliveries: [(id: UInt64, Delivery)] = []
        var stopping = false
    }

    public init(path: String, logger: Logger, watch: WatchSource? = nil, handler: @escaping Handler) {
        self.path = path
        self.logger = logger
        self.watch = watch
        self.handler = handler
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        } else {
            fds = [-1, -1]
        }
        wakePipe = fds
    }

    public struct SocketError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Binds and listens, and starts the loop; returns once the socket accepts connections.
    public func start() throws {
        guard wakePipe[0] >= 0 else { throw SocketError(description: "pipe(): out of file descriptors") }
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty { try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SocketError(description: "socket(): \(String(cString: strerror(errno)))") }
        unlink(path) // a stale socket from a killed daemon
        guard let bound = UnixSocket.withAddress(path, { bind(fd, $0, $1) }) else {
            close(fd)
            throw SocketError(description: "socket path too long: \(path)")
        }
        guard bound == 0 else {
            let e = String(cString: strerror(errno))
            close(fd)
            throw SocketError(description: "cannot bind control socket \(path): \(e)")
        }
        chmod(path, 0o660)
        if let group = getgrnam("boxd") { chown(path, uid_t.max, group.pointee.gr_gid) }
        guard listen(fd, 16) == 0 else {
            close(fd)
            throw SocketError(description: "listen(): \(String(cString: strerror(errno)))")
        }
        listenFD.withLock { $0 = fd }
        let thread = Thread { [self] in
            var loop = ControlLoop(server: self, listenFD: fd)
            loop.run()
            finished()
        }
        thread.name = "boxd-control"
        thread.start()
    }

    /// Stops accepting and ends the loop: a command being answered gets its reply (for up to
    /// `ControlLoop.stopGrace`), every other connection is closed. Safe to call more than once.
    public func stop() {
        let first = mailbox.withLock { m in
            defer { m.stopping = true }
            return !m.stopping
        }
        guard first else { return }
        unlink(path)
        wake()
        if listenFD.withLock({ $0 }) < 0 { finished() } // never started: no loop to end
    }

    /// Until `stop`, or the group's graceful shutdown (which stops it).
    public func run() async throws {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await loopEnded()
            } onGracefulShutdown: { [self] in
                stop()
            }
        } onCancel: { [self] in
            stop()
        }
    }

    /// Returns once the loop has ended, or `stop` came before any `start`.
    func loopEnded() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let done = ended.withLock { e in
                if !e.done { e.waiters.append(c) }
                return e.done
            }
            if done { c.resume() }
        }
    }

    private func finished() {
        let waiters = ended.withLock { e in
            e.done = true
            defer { e.waiters = [] }
            return e.waiters
        }
        for w in waiters { w.resume() }
    }

    func wake() {
        var one: UInt8 = 1
        _ = write(wakePipe[1], &one, 1) // a full pipe already holds a wake-up
    }

    /// Hands a finished reply or page to the loop.
    func deliver(_ delivery: Delivery, to id: UInt64) {
        mailbox.withLock { $0.deliveries.append((id, delivery)) }
        wake()
    }

    /// Asks the handler, in a task on the control executor (a reply never waits for a busy
    /// concurrency pool), and hands the reply to the loop.
    func ask(_ command: Command, uid: UInt32, for id: UInt64) {
        Task(executorPreference: ControlExecutor.shared) { [self] in
            deliver(.reply(await handler(command, uid)), to: id)
        }
    }

    static var busy: Reply {
        .busy("boxd is busy: \(maxClients) connections are open; try again in a few seconds")
    }

    /// The peer's uid from SO_PEERCRED (struct ucred: pid, uid, gid).
    static func peerUID(_ fd: Int32) -> UInt32? {
        var cred: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var len = socklen_t(MemoryLayout.size(ofValue: cred))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 else { return nil }
        return cred.uid
    }
}

/// A task executor backed by one dedicated thread: the handler's tasks start there.
final class ControlExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ControlExecutor()

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init() {
        let thread = Thread { [self] in run() }
        thread.name = "boxd-control-exec"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
