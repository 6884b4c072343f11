import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// GPIO without hardware: the one simulation of the box's buttons and LED. Input lines are
/// pipes, so GPIOButtons' real reader thread (its poll(2) loop, edge decoding and merging)
/// runs against them; output lines keep their levels, written by the real GPIOLED. The
/// simulated box (`--hardware sim`, the demo, the tests on simulated hardware, the bench)
/// and the GPIO tests use it alike.
///
/// A press is the physics of a button, not its meaning: a line requested with a pull-up is
/// a button to ground, so pressing it drives the line low (a falling edge); with a pull-down
/// it is a button to 3.3 V. What a falling edge means is left to the code above the driver.
///
/// `sharedDescriptor` gives all of a request's input lines one pipe, as libgpiod 2 gives
/// them one descriptor; without it each line has its own, as in libgpiod 1.6. The simulated
/// box takes the layout of the libgpiod this build links. Faults a kernel can give (a chip
/// that will not open, a refused line, a failed read, a line that hangs up, a reader thread
/// not yet scheduled) can be set, for the tests.
public final class SimulatedGPIO: GPIODriver, @unchecked Sendable {
    // @unchecked: mutable state only behind `state`'s lock.
    struct State {
        var sessions: [SimulatedChip] = []
        var openError: GPIOError?
        var requestErrors: [Int: Int32] = [:]
    }

    /// The simulated box's chip: 54 lines, as the Pi 5's RP1, so a Pi's line numbers fit.
    public static let chip = ChipInfo(path: "/dev/gpiochip-sim", name: "gpiochip-sim", label: "dosetap-sim", lineCount: 54)

    let chipList: [ChipInfo]
    let sharedDescriptor: Bool
    private let state = Locked(State())

    init(chips: [ChipInfo], sharedDescriptor: Bool = false) {
        chipList = chips
        self.sharedDescriptor = sharedDescriptor
    }

    /// The simulated box's GPIO: its one chip, in the layout of the libgpiod this build links.
    public convenience init() {
        self.init(chips: [Self.chip], sharedDescriptor: LibgpiodAPI.built == .v2)
    }

    var sessions: [SimulatedChip] { state.withLock { $0.sessions } }

    /// A finger on the button of input `line`: down (`pressed`) or up at `at` on the edge
    /// clock. The line's level follows its bias (a pull-up line goes low when pressed; an
    /// as-is line is taken as a button to ground with its own pull-up, the usual wiring),
    /// and the edge waits in the line's queue for the reader, as in the kernel. False when
    /// no open request holds the line (released: the box is stopping).
    public func press(line: Int, pressed: Bool, at: Duration) -> Bool {
        let open = state.withLock { $0.sessions.filter { !$0.isClosed } }
        return open.contains { $0.press(line: line, pressed: pressed, at: at) }
    }

    /// The physical level of every output line of the open chips (the LED's lines).
    public func outputLevels() -> [Int: Int32] {
        var levels: [Int: Int32] = [:]
        for session in sessions where !session.isClosed {
            for line in session.outputs.keys { levels[line] = session.level(line) }
        }
        return levels
    }

    func failOpen(with error: GPIOError) {
        state.withLock { $0.openError = error }
    }

    /// Every session opened from now on refuses this line.
    func failRequest(line: Int, errno code: Int32) {
        state.withLock { $0.requestErrors[line] = code }
    }

    func chips() -> [ChipInfo] { chipList }

    func open(_ chip: ChipInfo) throws(GPIOError) -> any GPIOChipSession {
        let result: Result<SimulatedChip, GPIOError> = state.withLock { s in
            if let error = s.openError { return .failure(error) }
            let session = SimulatedChip(chip: chip, sharedDescriptor: sharedDescriptor)
            for (line, code) in s.requestErrors { session.failRequest(line: line, errno: code) }
            s.sessions.append(session)
            return .success(session)
        }
        return try result.get()
    }
}

final class SimulatedChip: GPIOChipSession, @unchecked Sendable {
    // @unchecked: mutable state only behind `state`'s lock.
    enum Entry {
        case event(GPIORawEvent)
        case failure(Int32)
    }

    struct Input {
        var bias: GPIOBias
        var consumer: String
        var readFd: Int32
    }

    /// One pipe: the events of its lines, in push order.
    struct Channel {
        var writeFd: Int32
        var queue: [(line: Int, entry: Entry)] = []
    }

    struct Output {
        var consumer: String
        var initial: Int32
        var writes: [Int32] = []
    }

    struct State {
        var inputs: [Int: Input] = [:]
        var channels: [Int32: Channel] = [:]
        var outputs: [Int: Output] = [:]
        var requestErrors: [Int: Int32] = [:]
        var setErrors: [Int: Int32] = [:]
        var closed = false
        var closeCount = 0
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let chip: ChipInfo
    let sharedDescriptor: Bool
    private let state = Locked(State())
    /// While `readsHeld`, a read waits (the reader thread not scheduled yet).
    private let readGate = NSCondition()
    private var readsHeld = false

    init(chip: ChipInfo, sharedDescriptor: Bool = false) {
        self.chip = chip
        self.sharedDescriptor = sharedDescriptor
    }

    // MARK: what the test sees and sets

    var isClosed: Bool { state.withLock { $0.closed } }
    var inputs: [Int: Input] { state.withLock { $0.inputs } }
    var outputs: [Int: Output] { state.withLock { $0.outputs } }

    /// The line's current physical level: its last write, else its initial level.
    func level(_ line: Int) -> Int32? {
        state.withLock { s in s.outputs[line].map { $0.writes.last ?? $0.initial } }
    }

    func failRequest(line: Int, errno code: Int32) {
        state.withLock { $0.requestErrors[line] = code }
    }

    /// Returns once close() has run (at once if it already has).
    func waitUntilClosed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyClosed = state.withLock { s in
                if !s.closed { s.closeWaiters.append(continuation) }
                return s.closed
            }
            if alreadyClosed { continuation.resume() }
        }
    }

    func failSet(line: Int, errno code: Int32) {
        state.withLock { $0.setErrors[line] = code }
    }

    /// Holds every read until `releaseReads()`: pushed events stay in the "kernel".
    func holdReads() {
        readGate.lock()
        readsHeld = true
        readGate.unlock()
    }

    func releaseReads() {
        readGate.lock()
        readsHeld = false
        readGate.broadcast()
        readGate.unlock()
    }

    func push(line: Int, type: Int32, sec: Int, nsec: Int) {
        enqueue(line: line, .event(GPIORawEvent(line: line, type: type, ts: timespec(tv_sec: sec, tv_nsec: nsec))))
    }

    /// See `SimulatedGPIO.press`; false when this chip does not hold the line as an input.
    func press(line: Int, pressed: Bool, at: Duration) -> Bool {
        guard let bias = state.withLock({ $0.closed ? nil : $0.inputs[line]?.bias }) else { return false }
        let high = switch bias {
        case .pullDown: pressed
        case .pullUp, .asIs: !pressed
        }
        // Stamped as libgpiod 2 stamps an edge (nanoseconds on the edge clock).
        let ns = UInt64(max(0, at.components.seconds * 1_000_000_000 + at.components.attoseconds / 1_000_000_000))
        let event = GPIORawEvent(line: line, type: high ? GPIOEventType.risingEdge : GPIOEventType.fallingEdge,
                                 ts: timespec(nanoseconds: ns))
        return enqueue(line: line, .event(event))
    }

    func pushFailure(line: Int, errno code: Int32) {
        enqueue(line: line, .failure(code))
    }

    /// Closes the write end of the line's pipe (shared or not): poll(2) then reports
    /// POLLHUP without POLLIN.
    func hangUp(line: Int) {
        state.withLock { s in
            guard let fd = s.inputs[line]?.readFd, let channel = s.channels[fd], channel.writeFd >= 0 else { return }
            _ = Glibc.close(channel.writeFd)
            s.channels[fd]?.writeFd = -1
        }
    }

    /// False when the line is not held.
    @discardableResult
    private func enqueue(line: Int, _ entry: Entry) -> Bool {
        state.withLock { s in
            guard let fd = s.inputs[line]?.readFd, let channel = s.channels[fd], !s.closed else { return false }
            s.channels[fd]?.queue.append((line, entry))
            var byte: UInt8 = 1
            _ = write(channel.writeFd, &byte, 1)
            return true
        }
    }

    // MARK: GPIOChipSession

    func requestEdges(_ lines: [EdgeLine], consumer: String) throws(GPIOError) -> [Int32] {
        let result: Result<[Int32], GPIOError> = state.withLock { s in
            var fds: [Int32] = []
            var shared: Int32?
            for line in lines {
                if let code = s.requestErrors[line.line] {
                    return .failure(.requestFailed(key: line.key, line: line.line, chip: chip, errno: code))
                }
                let readFd: Int32
                if let shared {
                    readFd = shared
                } else {
                    var pipeFds: [Int32] = [-1, -1]
                    // Close-on-exec as a kernel's line descriptors are: boxd's children never hold them.
                    guard pipe(&pipeFds) == 0 else { return .failure(.systemCallFailed(call: "pipe", errno: errno)) }
                    for fd in pipeFds { _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC) }
                    _ = fcntl(pipeFds[0], F_SETFL, fcntl(pipeFds[0], F_GETFL) | O_NONBLOCK)
                    s.channels[pipeFds[0]] = Channel(writeFd: pipeFds[1])
                    readFd = pipeFds[0]
                    if sharedDescriptor { shared = readFd }
                }
                s.inputs[line.line] = Input(bias: line.bias, consumer: consumer, readFd: readFd)
                fds.append(readFd)
            }
            return .success(fds)
        }
        return try result.get()
    }

    func readEvents(fd: Int32, max: Int) throws(DriverErrno) -> [GPIORawEvent] {
        readGate.lock()
        while readsHeld { readGate.wait() }
        readGate.unlock()
        let result: Result<[GPIORawEvent], DriverErrno> = state.withLock { s in
            guard let channel = s.channels[fd] else { return .failure(DriverErrno(code: EBADF)) }
            var drain = [UInt8](repeating: 0, count: 64)
            while read(fd, &drain, drain.count) > 0 {}
            var queue = channel.queue
            var events: [GPIORawEvent] = []
            var failure: Int32?
            while events.count < max, let first = queue.first {
                if case .event(let e) = first.entry {
                    events.append(e)
                    queue.removeFirst()
                } else if case .failure(let code) = first.entry {
                    if events.isEmpty {
                        failure = code
                        queue.removeFirst()
                    }
                    break
                }
            }
            s.channels[fd]?.queue = queue
            if !queue.isEmpty, channel.writeFd >= 0 {
                // Still more: stay readable, as the kernel FIFO would.
                var byte: UInt8 = 1
                _ = write(channel.writeFd, &byte, 1)
            }
            if let failure { return .failure(DriverErrno(code: failure)) }
            if events.isEmpty { return .failure(DriverErrno(code: EAGAIN)) }
            return .success(events)
        }
        return try result.get()
    }

    func requestOutputs(_ levels: [LineLevel], consumer: String) throws(GPIOError) {
        let result: Result<Void, GPIOError> = state.withLock { s in
            for level in levels {
                if let code = s.requestErrors[level.line] {
                    return .failure(.requestFailed(key: level.key, line: level.line, chip: chip, errno: code))
                }
                s.outputs[level.line] = Output(consumer: consumer, initial: level.value)
            }
            return .success(())
        }
        try result.get()
    }

    /// Line by line, as libgpiod 1.6 sets them: a failure names its own line.
    func setValues(_ levels: [LineLevel]) throws(GPIOError) {
        let result: Result<Void, GPIOError> = state.withLock { s in
            for level in levels {
                if s.closed || s.outputs[level.line] == nil { return .failure(.closed) }
                if let code = s.setErrors[level.line] {
                    return .failure(.writeFailed(key: level.key, line: level.line, errno: code))
                }
                s.outputs[level.line]?.writes.append(level.value)
            }
            return .success(())
        }
        try result.get()
    }

    func close() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.closeCount += 1
            guard !s.closed else { return [] }
            s.closed = true
            for (readFd, channel) in s.channels {
                _ = Glibc.close(readFd)
                if channel.writeFd >= 0 { _ = Glibc.close(channel.writeFd) }
            }
            defer { s.closeWaiters = [] }
            return s.closeWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

extension GPIOButtons {
    /// The buttons on the simulated chip, read by the same reader thread as a real chip's.
    public convenience init(simulated gpio: SimulatedGPIO, buttons: [ButtonLine]) throws(GPIOError) {
        try self.init(driver: gpio, chip: SimulatedGPIO.chip, buttons: buttons)
    }
}

extension GPIOLED {
    /// The LED on the simulated chip: its lines' levels are `gpio.outputLevels()`.
    public convenience init(simulated gpio: SimulatedGPIO, wiring: LEDWiring, activeLow: Bool) throws(GPIOError) {
        try self.init(driver: gpio, chip: SimulatedGPIO.chip, wiring: wiring, activeLow: activeLow)
    }
}
