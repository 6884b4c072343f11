import BoxControl
import DoseCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One control connection, as the loop sees it.
struct ControlConnection {
    enum Role {
        /// Frames in, replies out, one command at a time.
        case commands
        /// Past the cap: one frame, answered only if it is `status`.
        case overflow
        /// A `watch`: the feed out, `link` frames in (ControlServer+Watch).
        case watching(FeedWatcher)
    }

    let id: UInt64
    let fd: Int32
    let uid: UInt32
    var role: Role
    var input: [UInt8] = []
    var output: [UInt8] = []
    /// A reply or a feed page is being made: no other frame is taken, no page asked, until it comes.
    var awaiting = false
    /// The peer sent its last byte.
    var inputEnded = false
    /// Closed once the output is sent (a last reply).
    var closing = false
    /// Closed at once: the peer is gone, or its stream broke.
    var broken = false
    /// When it is closed unless something moves (see `expired`).
    var deadline: ContinuousClock.Instant

    var isWatching: Bool { if case .watching = role { true } else { false } }

    /// Commands: idle for `idleTimeout` with no reply being made. A connection past the cap:
    /// no frame within `overflowTimeoutMs`. A watcher: a page it has not read for
    /// `watchSendTimeout` (boxd never waits on a slow reader).
    func expired(at now: ContinuousClock.Instant) -> Bool {
        switch role {
        case .watching: !output.isEmpty && now >= deadline
        case .commands, .overflow: !awaiting && now >= deadline
        }
    }

    /// Done with: nothing more to read, answer or send. The end of a watcher's stream ends
    /// the watch; a command connection's end waits for its last reply.
    var finished: Bool {
        broken || (isWatching && inputEnded) || (output.isEmpty && !awaiting && (closing || inputEnded))
    }

    /// Queues a reply line; the peer has until `deadline` to take it. A reply that cannot be
    /// encoded closes the connection, so the client hears of it at once.
    mutating func queue(_ reply: Reply) {
        guard let data = try? ControlProtocol.line(reply) else {
            broken = true
            return
        }
        if output.isEmpty { deadline = .now + .seconds(ControlServer.watchSendTimeoutSeconds) }
        output += data
    }
}

/// The control server's one loop: poll(2) over the listening socket, the mailbox's pipe,
/// every connection and every watcher's feed signal. Runs on the server's thread, which
/// alone touches this state.
struct ControlLoop {
    let server: ControlServer
    let listenFD: Int32
    var connections: [UInt64: ControlConnection] = [:]
    var nextID: UInt64 = 1
    var watcherCount = 0

    init(server: ControlServer, listenFD: Int32) {
        self.server = server
        self.listenFD = listenFD
    }

    static let idleTimeout: Duration = .seconds(ControlServer.idleTimeoutSeconds)

    /// How long a stop waits for the answers being made (the engine still runs meanwhile).
    static let stopGrace: Duration = .seconds(2)

    mutating func run() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        var listening = listenFD
        var stopBy: ContinuousClock.Instant?
        while true {
            let (deliveries, stopping) = server.mailbox.withLock { m in
                defer { m.deliveries = [] }
                return (m.deliveries, m.stopping)
            }
            if stopping, stopBy == nil {
                // No new connection and no new frame; a command being answered gets its reply.
                stopBy = .now + Self.stopGrace
                close(listening)
                listening = -1
                for id in Array(connections.keys) {
                    connections[id]?.closing = true
                    if connections[id]?.isWatching == true { connections[id]?.broken = true }
                }
            }
            for (id, delivery) in deliveries where connections[id] != nil {
                received(delivery, on: id)
            }
            for id in Array(connections.keys) { advance(id) }
            if let stopBy, connections.isEmpty || ContinuousClock.now >= stopBy { break }

            // What to wait for: the mailbox, a new connection, and each connection's turn.
            var fds = [pollfd(fd: server.wakePipe[0], events: Int16(POLLIN), revents: 0),
                       pollfd(fd: listening, events: Int16(POLLIN), revents: 0)] // poll(2) skips a negative fd
            var owners: [(id: UInt64, signal: Bool)] = []
            var soonest: ContinuousClock.Instant? = stopBy
            for (id, c) in connections {
                var events: Int32 = 0
                if !c.inputEnded, !c.closing, c.isWatching || !c.awaiting { events |= POLLIN }
                if !c.output.isEmpty { events |= POLLOUT }
                fds.append(pollfd(fd: c.fd, events: Int16(events), revents: 0))
                owners.append((id, false))
                if case .watching(let w) = c.role {
                    fds.append(pollfd(fd: w.wake, events: Int16(POLLIN), revents: 0))
                    owners.append((id, true))
                }
                let times = c.isWatching ? !c.output.isEmpty : !c.awaiting
                if times { soonest = min(soonest ?? c.deadline, c.deadline) }
            }
            var timeout: Int32 = -1
            if let soonest {
                let left = soonest - ContinuousClock.now
                timeout = left <= .zero ? 0 : Int32(clamping: (left.components.seconds * 1000) + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            }
            if poll(&fds, nfds_t(fds.count), timeout) < 0, errno != EINTR {
                server.logger.error("control socket: poll failed: \(String(cString: strerror(errno)))")
                break
            }
            if fds[0].revents != 0 { drain(server.wakePipe[0]) }
            if fds[1].revents != 0, listening >= 0 { acceptAll() }

            let now = ContinuousClock.now
            for (i, owner) in owners.enumerated() {
                let revents = Int32(fds[i + 2].revents)
                guard revents != 0, var c = connections[owner.id] else { continue }
                if owner.signal {
                    watcherRang(&c)
                } else {
                    if revents & POLLOUT != 0 { flush(&c, now: now) }
                    if revents & POLLIN != 0 { read(&c, into: &chunk, now: now) }
                    // A peer gone for good (not merely done sending) while its reply is made.
                    if revents & (POLLHUP | POLLERR | POLLNVAL) != 0, revents & POLLIN == 0 { c.broken = true }
                }
                connections[owner.id] = c
            }
            for (id, c) in connections where c.expired(at: now) { timedOut(id) }
        }
        for id in Array(connections.keys) { closeConnection(id) }
        if listening >= 0 { close(listening) }
    }

    /// Takes every waiting connection: served while there is room, else into the overflow
    /// queue, else told busy and closed.
    private mutating func acceptAll() {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return // EAGAIN: none left (or a transient error: the next poll tries again)
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let served = connections.values.filter { if case .overflow = $0.role { false } else { true } }.count
            let role: ControlConnection.Role
            let deadline: ContinuousClock.Instant
            if served < ControlServer.maxClients {
                role = .commands
                deadline = .now + Self.idleTimeout
            } else if connections.count - served < ControlServer.maxOverflow {
                role = .overflow
                deadline = .now + .milliseconds(ControlServer.overflowTimeoutMs)
            } else {
                var refused = ControlConnection(id: 0, fd: fd, uid: 0, role: .overflow, deadline: .now)
                refused.queue(ControlServer.busy)
                _ = refused.output.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(fd)
                continue
            }
            let id = nextID
            nextID += 1
            connections[id] = ControlConnection(id: id, fd: fd, uid: ControlServer.peerUID(fd) ?? UInt32.max, role: role,
                                                deadline: deadline)
        }
    }

    /// A reply or a page came back from its task.
    private mutating func received(_ delivery: ControlServer.Delivery, on id: UInt64) {
        guard var c = connections[id] else { return }
        c.awaiting = false
        switch delivery {
        case .reply(let reply):
            c.queue(reply)
            if case .overflow = c.role { c.closing = true }
        case .page(let page): pageCame(page, on: &c)
        }
        c.deadline = .now + Self.idleTimeout
        connections[id] = c
    }

    /// The connection's next step: its complete frames taken (while nothing is being made
    /// for it), a watcher's next page asked, what is waiting sent, and closed when done.
    private mutating func advance(_ id: UInt64) {
        guard var c = connections[id] else { return }
        takeFrames(&c)
        if !c.output.isEmpty { flush(&c, now: .now) }
        if case .watching = c.role { askPage(&c) }
        connections[id] = c
        if c.finished { closeConnection(id) }
    }

    private mutating func takeFrames(_ c: inout ControlConnection) {
        // A watcher's `link` frames are taken while its page is read, too.
        while !c.awaiting || c.isWatching, !c.closing, let nl = c.input.firstIndex(of: UInt8(ascii: "\n")) {
            let frame = Array(c.input[..<nl])
            c.input.removeSubrange(...nl)
            let decoded = ControlProtocol.decodeCommand(frame)
            switch c.role {
            case .overflow:
                c.closing = true
                if case .success(let command) = decoded, command == .status || command == .statusText {
                    c.closing = false
                    c.awaiting = true
                    server.ask(command, uid: c.uid, for: c.id)
                } else {
                    c.queue(ControlServer.busy)
                }
                // One frame only: the reply closes it.
                c.input = []
                return
            case .watching:
                linkFrame(decoded, on: &c)
            case .commands:
                switch decoded {
                case .failure(let problem): c.queue(.usage(problem.message))
                case .success(.watch(let after)): startWatching(&c, after: after)
                case .success(let command):
                    c.awaiting = true
                    server.ask(command, uid: c.uid, for: c.id)
                }
            }
        }
        guard c.input.count > ControlProtocol.maxFrameBytes else { return }
        c.input = []
        switch c.role {
        case .commands:
            c.queue(.usage("frame too large (limit \(ControlProtocol.maxFrameBytes) bytes)"))
            c.closing = true
        case .overflow:
            c.queue(ControlServer.busy)
            c.closing = true
        case .watching: c.broken = true
        }
    }

    private func read(_ c: inout ControlConnection, into chunk: inout [UInt8], now: ContinuousClock.Instant) {
        let n = chunk.withUnsafeMutableBytes { Glibc.read(c.fd, $0.baseAddress, $0.count) }
        if n > 0 {
            c.input += chunk[0..<n]
            if !c.isWatching { c.deadline = now + Self.idleTimeout }
        } else if n == 0 {
            c.inputEnded = true
        } else if errno != EAGAIN, errno != EINTR {
            c.broken = true
        }
    }

    /// Sends what it can without waiting; the rest goes when the socket has room.
    private func flush(_ c: inout ControlConnection, now: ContinuousClock.Instant) {
        while !c.output.isEmpty {
            let n = c.output.withUnsafeBytes { send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n > 0 {
                c.output.removeFirst(n)
                c.deadline = now + (c.isWatching ? .seconds(ControlServer.watchSendTimeoutSeconds) : Self.idleTimeout)
                continue
            }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            c.broken = true
            return
        }
    }

    private mutating func timedOut(_ id: UInt64) {
        guard var c = connections[id] else { return }
        if case .overflow = c.role {
            c.queue(ControlServer.busy)
            flush(&c, now: .now)
        }
        connections[id] = c
        closeConnection(id)
    }

    private mutating func closeConnection(_ id: UInt64) {
        guard let c = connections.removeValue(forKey: id) else { return }
        if case .watching(let w) = c.role { stopWatching(w) }
        close(c.fd)
    }

    private func drain(_ fd: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while Glibc.read(fd, &bytes, bytes.count) > 0 {}
    }
}
