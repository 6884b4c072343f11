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
