import BoxControl
import DoseCore
import Foundation
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The control socket: a Unix stream socket (no TCP listener), mode 0660 with group
/// `boxd`, newline-delimited JSON (`Command` in, `Reply` out). Each connection is served on
/// its own thread with blocking reads; frames are size-capped, and a bad frame gets a usage
/// reply naming the problem, never a crash.
///
/// Bounded: at most `maxClients` connections are served at once, each closed after
/// `idleTimeout` without a complete frame. Past the cap a connection waits in a short queue
/// for one overflow thread, which answers `status` (cheap, read-only: status always answers)
/// and refuses everything else with `503_BUSY`; past the queue it is refused at once.
public final class ControlServer: Sendable {
    public typealias Handler = @Sendable (Command, _ peerUID: UInt32) async -> Reply

    let path: String
    let handler: Handler
    let logger: Logger
    /// The night log's feed for `watch` (ControlServer+Watch); nil: watch is refused.
    let watch: WatchSource?
    /// Connections following the feed now.
    let watchers = Mutex<Int>(0)
    private let listenFD = Mutex<Int32>(-1)
    /// Connections being served by their own thread.
    private let active = Mutex<Int>(0)
    /// Connections past the cap, waiting for the overflow thread.
    private let overflow = Mutex<[Int32]>([])
    /// Wakes the overflow thread: [read end, write end].
    private let overflowWake: [Int32]

    public static let maxClients = 16
    public static let maxOverflow = 512
    public static let idleTimeoutSeconds = 5
    /// How long the overflow thread waits for a waiting connection's frame.
    static let overflowTimeoutMs = 500

    public init(path: String, logger: Logger, watch: WatchSource? = nil, handler: @escaping Handler) {
        self.path = path
        self.logger = logger
        self.watch = watch
        self.handler = handler
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        }
        overflowWake = fds
    }

    public struct SocketError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Binds and listens; returns once the socket accepts connections.
    public func start() throws {
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty { try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
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
        let thread = Thread { [self] in acceptLoop(fd) }
        thread.name = "boxd-control"
        thread.start()
        let spill = Thread { [self] in overflowLoop() }
        spill.name = "boxd-control-overflow"
        spill.start()
    }

    public func stop() {
        let fd = listenFD.withLock { fd -> Int32 in
            defer { fd = -1 }
            return fd
        }
        if fd >= 0 {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
        unlink(path)
    }

    private func acceptLoop(_ fd: Int32) {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return // closed by stop()
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let admitted = active.withLock { n -> Bool in
                guard n < Self.maxClients else { return false }
                n += 1
                return true
            }
            if admitted {
                let thread = Thread { [self] in
                    serve(client)
                    active.withLock { $0 -= 1 }
                }
                thread.name = "boxd-client"
                thread.start()
            } else if overflow.withLock({ q -> Bool in
                guard q.count < Self.maxOverflow else { return false }
                q.append(client)
                return true
            }) {
                var one: UInt8 = 1
                _ = write(overflowWake[1], &one, 1)
            } else {
                _ = send(Self.busy, to: client)
                close(client)
            }
        }
    }

    static var busy: Reply {
        .busy("boxd is busy: \(maxClients) connections are open; try again in a few seconds")
    }

    /// Serves connections past the cap with poll(2), all at once: a complete `status` frame
    /// is answered, any other frame refused with `503_BUSY`, and a connection that sends
    /// nothing within `overflowTimeoutMs` is closed. One thread however many wait.
    private func overflowLoop() {
        struct Waiting {
            var fd: Int32
            var deadline: ContinuousClock.Instant
            var buffer: [UInt8] = []
        }
        var waiting: [Waiting] = []
        let wake = overflowWake
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let now = ContinuousClock.now
            let arrived = overflow.withLock { q -> [Int32] in
                defer { q.removeAll() }
                return q
            }
            for fd in arrived {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                waiting.append(Waiting(fd: fd, deadline: now + .milliseconds(Self.overflowTimeoutMs)))
            }
            var fds = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)] + waiting.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            var soonest: Int32 = -1
            if let first = waiting.map(\.deadline).min() {
                let left: Duration = first - now
                soonest = Int32(max(0, min(Double(Self.overflowTimeoutMs), left.seconds * 1000)).rounded(.up))
            }
            _ = poll(&fds, nfds_t(fds.count), soonest)
            if fds[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                _ = drain.withUnsafeMutableBytes { read(wake[0], $0.baseAddress, $0.count) }
            }
            var kept: [Waiting] = []
            for (i, var w) in waiting.enumerated() {
                var done = false
                if fds[i + 1].revents != 0 {
                    let n = chunk.withUnsafeMutableBytes { read(w.fd, $0.baseAddress, $0.count) }
                    if n > 0 { w.buffer += chunk[0..<n] } else if !(n < 0 && errno == EAGAIN) { done = true }
                }
                if let nl = w.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let frame = Array(w.buffer[..<nl])
                    _ = fcntl(w.fd, F_SETFL, fcntl(w.fd, F_GETFL) & ~O_NONBLOCK)
                    if case .success(.status) = ControlProtocol.decodeCommand(frame) {
                        _ = send(respond(to: .status, uid: Self.peerUID(w.fd) ?? UInt32.max), to: w.fd)
                    } else {
                        _ = send(Self.busy, to: w.fd)
                    }
                    done = true
                } else if done || w.buffer.count > ControlProtocol.maxFrameBytes || ContinuousClock.now >= w.deadline {
                    _ = send(Self.busy, to: w.fd)
                    done = true
                }
                if done { close(w.fd) } else { kept.append(w) }
            }
            waiting = kept
        }
    }

    /// The peer's uid from SO_PEERCRED (struct ucred: pid, uid, gid).
    static func peerUID(_ fd: Int32) -> UInt32? {
        var cred: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var len = socklen_t(MemoryLayout.size(ofValue: cred))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 else { return nil }
        return cred.uid
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        // An idle or half-sent frame must not hold one of the few slots for long.
        var timeout = timeval(tv_sec: Self.idleTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let uid = Self.peerUID(fd) ?? UInt32.max
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            buffer += chunk[0..<n]
            while let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let frame = Array(buffer[..<nl])
                buffer.removeSubrange(...nl)
                let decoded = ControlProtocol.decodeCommand(frame)
                if case .success(.watch(let after)) = decoded {
                    follow(fd, after: after)
                    return
                }
                guard send(respond(to: decoded, uid: uid), to: fd) else { return }
            }
            if buffer.count > ControlProtocol.maxFrameBytes {
                _ = send(.usage("frame too large (limit \(ControlProtocol.maxFrameBytes) bytes)"), to: fd)
                return
            }
        }
    }

    /// A frame's reply: the handler's, or a usage reply saying what is wrong with the frame.
    func respond(to frame: [UInt8], uid: UInt32) -> Reply {
        respond(to: ControlProtocol.decodeCommand(frame), uid: uid)
    }

    func respond(to decoded: Result<Command, ProtocolError>, uid: UInt32) -> Reply {
        switch decoded {
        case .success(let command): respond(to: command, uid: uid)
        case .failure(let problem): .usage(problem.message)
        }
    }

    func respond(to command: Command, uid: UInt32) -> Reply {
        blockingAwait { [handler] in await handler(command, uid) }
    }

    func send(_ reply: Reply, to fd: Int32) -> Bool {
        guard let data = try? ControlProtocol.line(reply) else { return false }
        return UnixSocket.writeAll(fd, data)
    }
}

/// Runs async work from a plain thread and waits for it. The work prefers the control
/// server's own executor thread, so a reply never waits for a busy concurrency pool.
func blockingAwait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let box = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task(executorPreference: ControlExecutor.shared) {
        let value = await work()
        box.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return box.withLock { $0! }
}

/// A task executor backed by one dedicated thread.
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
