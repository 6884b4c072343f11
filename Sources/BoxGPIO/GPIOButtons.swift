import BoxHardware
import DoseCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One button of `[buttons.NAME]`.
public struct ButtonLine: Sendable, Hashable {
    /// The button's name, e.g. "dose" or "events"; it is `ButtonEdge.button`.
    public var name: String
    /// The line offset on the chip (the BCM GPIO number on a Raspberry Pi).
    public var line: Int
    public var bias: GPIOBias

    public init(name: String, line: Int, bias: GPIOBias) {
        self.name = name
        self.line = line
        self.bias = bias
    }

    /// The usual wiring from the config's `active_low`: a button to ground (active low)
    /// needs a pull-up, a button to 3.3 V (active high) a pull-down.
    public init(name: String, line: Int, activeLow: Bool) {
        self.init(name: name, line: line, bias: activeLow ? .pullUp : .pullDown)
    }

    public var key: String { "buttons.\(name).line" }
    public var assignment: LineAssignment { LineAssignment(key: key, line: line) }
}

/// The buttons, through libgpiod: each line is an input with its bias and both-edge events,
/// consumer "boxd" (with libgpiod 2, all in one request). One dedicated thread waits in
/// poll(2) on the event descriptors and a wake-up pipe, with the gesture deadline asked for
/// (`wake(at:)`) as its timeout; no sleeping loop. It yields a deadline only when poll(2)
/// finds no unread edge, so every edge stamped before it comes first.
///
/// Edges are physical (ACTIVE_LOW is never requested): for a button to ground with a
/// pull-up, `.falling` is the press, as GestureRecognizer(activeLow: true) expects.
/// Timestamps are the kernel's CLOCK_MONOTONIC.
///
/// If reading fails for good, `fault` says why and the sink is finished; the lines are
/// released. Build a new GPIOButtons to retry.
public final class GPIOButtons: EdgeSource {
    public let chip: ChipInfo
    public let buttons: [ButtonLine]
    private let state: Locked<ReaderState>

    /// Finds the chip (label, name or path), checks the lines and requests them.
    public convenience init(chip spec: String, buttons: [ButtonLine], consumer: String = "boxd") throws(GPIOError) {
        try self.init(locator: .system, chip: spec, buttons: buttons, consumer: consumer)
    }

    /// For a chip already found with GPIOChipLocator.
    public convenience init(chip: ChipInfo, buttons: [ButtonLine], consumer: String = "boxd") throws(GPIOError) {
        try self.init(driver: systemDriver(), chip: chip, buttons: buttons, consumer: consumer)
    }

    convenience init(locator: GPIOChipLocator, chip spec: String, buttons: [ButtonLine], consumer: String = "boxd") throws(GPIOError) {
        let chip = try locator.locate(spec)
        try self.init(driver: locator.driver, chip: chip, buttons: buttons, consumer: consumer)
    }

    /// `decode`: the edge decoding; a test may break it to show that every press passes it.
    /// `now`: the edge clock (CLOCK_MONOTONIC, the kernel's stamps' clock), for the deadlines.
    init(driver: any GPIODriver, chip: ChipInfo, buttons: [ButtonLine], consumer: String = "boxd",
         decode: @escaping @Sendable (GPIORawEvent) -> RawEdge = EdgeReader.decode,
         now: @escaping @Sendable () -> Duration = EdgeReader.monotonicNow) throws(GPIOError) {
        try validateLines(buttons.map(\.assignment), chip: chip)
        self.chip = chip
        self.buttons = buttons

        let session = try driver.open(chip)
        let watched: [WatchedDescriptor]
        do {
            let lines = buttons.map { EdgeLine(line: $0.line, bias: $0.bias, key: $0.key) }
            let fds = try session.requestEdges(lines, consumer: consumer)
            watched = WatchedDescriptor.group(buttons: buttons, fds: fds)
        } catch {
            session.close()
            throw error
        }

        let pipeFds: (read: Int32, write: Int32)
        do {
            pipeFds = try makeWakePipe()
        } catch {
            session.close()
            throw error
        }

        let state = Locked(ReaderState(wakeWriteFd: pipeFds.write))
        self.state = state

        let reader = EdgeReader(
            session: session, descriptors: watched, wakeReadFd: pipeFds.read,
            state: state, decode: decode, now: now
        )
        let thread = Thread { reader.run() }
        thread.name = "boxd-gpio-buttons"
        thread.start()
    }

    deinit {
        Self.requestStop(state)
    }

    /// Every edge of every button, in kernel order per line, and the deadlines asked for,
    /// handed to `sink` on the reader's thread (what came before `start`, first). Across
    /// lines: with libgpiod 2 all lines share one request and one descriptor, so the order is
    /// the kernel's; with 1.6 each line has its own descriptor, so the order is by timestamp
    /// within one wake-up only, and a later edge on one line can be read before an earlier
    /// one on another (each button has its own recogniser, so this never matters).
    public func start(_ sink: ButtonSink) {
        // Yields under the lock keep the order with the reader's; a finish is outside it (a
        // stream's end may close this source, which takes the lock).
        let ended = state.withLock { s -> Bool in
            guard s.sink == nil else { return false }
            for input in s.pending { sink.yield(input) }
            s.pending = []
            s.sink = sink
            return s.ended
        }
        if ended { sink.finish() }
    }

    /// The inputs as a stream of their own. It does not keep the buttons: dropping them stops
    /// the reader; and when its consumer stops, the lines are released.
    public func inputs() -> AsyncStream<ButtonInput> {
        let (stream, continuation) = AsyncStream<ButtonInput>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [state] _ in GPIOButtons.requestStop(state) }
        start(ButtonSink(yield: { continuation.yield($0) }, finish: { continuation.finish() }))
        return stream
    }

    /// The reader's poll(2) times out at `deadline` (CLOCK_MONOTONIC); see the type's comment.
    public func wake(at deadline: Duration?) {
        state.withLock { s in
            guard s.deadline != deadline else { return }
            s.deadline = deadline
            s.signal()
        }
    }

    /// Asks the reader to stop; it releases the lines, then finishes the sink. Returns at
    /// once and is idempotent; use `closeAndWait()` before requesting the same lines again.
    public func close() {
        Self.requestStop(state)
    }

    /// Stops the reader and returns once the lines are released (at once if they already are).
    public func closeAndWait() async {
        Self.requestStop(state)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { s in
                if !s.finished { s.releaseWaiters.append(continuation) }
                return s.finished
            }
            if done { continuation.resume() }
        }
    }

    /// Why the reader ended early, or nil while all is well (and after a plain close()).
    public var fault: String? {
        faultError?.description
    }

    public var faultError: GPIOError? {
        state.withLock { $0.fault }
    }

    fileprivate static func requestStop(_ state: Locked<ReaderState>) {
        state.withLock { s in
            s.stopRequested = true
            s.signal()
        }
    }
}

/// A pipe whose read end wakes the reader's poll(2) when close() or wake(at:) writes a
/// byte. Both ends close-on-exec and non-blocking, so neither side ever blocks on it.
private func makeWakePipe() throws(GPIOError) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw .systemCallFailed(call: "pipe", errno: errno) }
    for fd in fds {
        let fdFlags = fcntl(fd, F_GETFD)
        let flFlags = fcntl(fd, F_GETFL)
        guard fdFlags >= 0, flFlags >= 0,
              fcntl(fd, F_SETFD, fdFlags | FD_CLOEXEC) == 0,
              fcntl(fd, F_SETFL, flFlags | O_NONBLOCK) == 0 else {
            let code = errno
            _ = Glibc.close(fds[0])
            _ = Glibc.close(fds[1])
            throw .systemCallFailed(call: "fcntl", errno: code)
        }
    }
    return (fds[0], fds[1])
}

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
