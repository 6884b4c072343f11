import BoxHardware
import DoseCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The reader thread of GPIOButtons: its shared state, the descriptors it watches, and its
// poll(2) loop, which hands edges and passed deadlines to the sink in order.

struct ReaderState {
    /// The wake-up pipe's write end, until the reader has exited and closed it (under the
    /// lock, so close() never writes to a recycled descriptor).
    var wakeWriteFd: Int32?
    var stopRequested = false
    /// The gesture deadline asked for, until the reader has yielded it.
    var deadline: Duration?
    var fault: GPIOError?
    /// The reader has exited and the lines are released.
    var finished = false
    var releaseWaiters: [CheckedContinuation<Void, Never>] = []
    /// Where the inputs go once `start` gave it; until then they wait in `pending`.
    var sink: ButtonSink?
    var pending: [ButtonInput] = []
    /// The reader handed over its last input (the sink is finished, or will be at `start`).
    var ended = false

    /// Hands one input over, or keeps it until `start` (under the lock: in order; a sink's
    /// yield never calls back into this source).
    mutating func hand(_ input: ButtonInput) {
        if let sink { sink.yield(input) } else { pending.append(input) }
    }

    /// Wakes the reader to look at the state again.
    func signal() {
        guard let fd = wakeWriteFd else { return }
        var byte: UInt8 = 1
        // A full pipe (EAGAIN) already holds a wake-up; nothing else can fail here.
        _ = write(fd, &byte, 1)
    }
}

/// One event descriptor and the buttons whose edges it delivers: one button with libgpiod
/// 1.6, every button with libgpiod 2.
struct WatchedDescriptor: Sendable {
    var fd: Int32
    /// In config order; the first is named when the descriptor itself fails.
    var buttons: [ButtonLine]

    /// Groups the buttons by descriptor, in the order the descriptors first appear.
    static func group(buttons: [ButtonLine], fds: [Int32]) -> [WatchedDescriptor] {
        var out: [WatchedDescriptor] = []
        for (button, fd) in zip(buttons, fds) {
            if let i = out.firstIndex(where: { $0.fd == fd }) {
                out[i].buttons.append(button)
            } else {
                out.append(WatchedDescriptor(fd: fd, buttons: [button]))
            }
        }
        return out
    }

    func button(line: Int) -> ButtonLine? {
        buttons.first { $0.line == line }
    }
}

/// The loop run by the reader thread.
struct EdgeReader: Sendable {
    let session: any GPIOChipSession
    let descriptors: [WatchedDescriptor]
    let wakeReadFd: Int32
    let state: Locked<ReaderState>
    let decode: @Sendable (GPIORawEvent) -> RawEdge
    let now: @Sendable () -> Duration

    /// How many events one read takes from a descriptor (libgpiod 1.6 caps it at 16).
    static let batch = 16

    /// ACTIVE_LOW is never requested: the edges stay physical (see `decodeEdge`).
    static let decode: @Sendable (GPIORawEvent) -> RawEdge = { decodeEdge(eventType: $0.type, ts: $0.ts, activeLowRequested: false) }

    /// CLOCK_MONOTONIC, the clock of the kernel's edge stamps.
    static let monotonicNow: @Sendable () -> Duration = {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return .seconds(Int64(ts.tv_sec)) + .nanoseconds(Int64(ts.tv_nsec))
    }

    func run() {
        let fault = loop()
        // Release the hardware before the sink is finished, so whoever sees the end can reopen.
        session.close()
        let waiters = state.withLock { s in
            if let fd = s.wakeWriteFd { _ = Glibc.close(fd) }
            s.wakeWriteFd = nil
            s.fault = fault
            s.finished = true
            defer { s.releaseWaiters = [] }
            return s.releaseWaiters
        }
        _ = Glibc.close(wakeReadFd)
        for waiter in waiters { waiter.resume() }
        let sink = state.withLock { s -> ButtonSink? in
            s.ended = true
            return s.sink
        }
        sink?.finish()
    }

    /// Returns nil when asked to stop, else the fault that ended it.
    private func loop() -> GPIOError? {
        var pollFds = [pollfd(fd: wakeReadFd, events: Int16(POLLIN), revents: 0)]
        pollFds += descriptors.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        let broken = Int16(POLLERR | POLLHUP | POLLNVAL)

        while true {
            let deadline = state.withLock { $0.deadline }
            for i in pollFds.indices { pollFds[i].revents = 0 }
            let ready = poll(&pollFds, nfds_t(pollFds.count), timeout(until: deadline))
            if ready < 0 {
                let code = errno
                if code == EINTR { continue }
                return .systemCallFailed(call: "poll", errno: code)
            }
            if ready == 0 {
                // Nothing unread in the kernel: a deadline that has passed goes out now, after
                // every edge read before it (unless it was replaced meanwhile).
                if let deadline, now() >= deadline {
                    state.withLock { s in
                        guard s.deadline == deadline else { return }
                        s.deadline = nil
                        s.hand(.deadline(deadline))
                    }
                }
                continue
            }
            if pollFds[0].revents != 0 {
                drainWakePipe()
                if state.withLock({ $0.stopRequested }) { return nil }
            }

            var perDescriptor: [[ButtonEdge]] = []
            for (i, watched) in descriptors.enumerated() {
                let revents = pollFds[i + 1].revents
                if revents == 0 { continue }
                let first = watched.buttons[0]
                if revents & Int16(POLLIN) == 0, revents & broken != 0 {
                    return .lineLost(button: first.name, line: first.line)
                }
                do {
                    let events = try session.readEvents(fd: watched.fd, max: Self.batch)
                    // An event of a line not asked for cannot come; if it did, it is dropped.
                    perDescriptor.append(events.compactMap { event in
                        watched.button(line: event.line).map { ButtonEdge(button: $0.name, edge: decode(event)) }
                    })
                } catch {
                    if error.code == EAGAIN || error.code == EWOULDBLOCK || error.code == EINTR { continue }
                    return .readFailed(button: first.name, line: first.line, errno: error.code)
                }
            }
            let edges = mergeByTime(perDescriptor)
            if !edges.isEmpty { state.withLock { s in for edge in edges { s.hand(.edge(edge)) } } }
        }
    }

    /// poll(2)'s timeout for `deadline`: whole milliseconds, rounded up so it never wakes
    /// early; 0 once it has passed; -1 (none) without one.
    private func timeout(until deadline: Duration?) -> Int32 {
        guard let deadline else { return -1 }
        let left = deadline - now()
        guard left > .zero else { return 0 }
        return Int32(clamping: (left.nanoseconds + 999_999) / 1_000_000)
    }

    private func drainWakePipe() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while Glibc.read(wakeReadFd, &bytes, bytes.count) > 0 {}
    }
}
