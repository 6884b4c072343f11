@testable import BoxGPIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A GPIO driver without hardware. Input lines are pipes, so the real poll(2) loop of
/// GPIOButtons runs against them: `push` queues an event and makes the pipe readable.
/// `sharedDescriptor` gives all of a request's input lines one pipe, as libgpiod 2 gives
/// them one descriptor; without it each line has its own, as in libgpiod 1.6. The tests of
/// GPIOButtons run both ways, whichever libgpiod the build chose.
final class FakeDriver: GPIODriver, @unchecked Sendable {
    // @unchecked: mutable state only behind `state`'s lock.
    struct State {
        var sessions: [FakeSession] = []
        var openError: GPIOError?
        var requestErrors: [Int: Int32] = [:]
    }

    let chipList: [ChipInfo]
    let sharedDescriptor: Bool
    private let state = Locked(State())

    init(chips: [ChipInfo], sharedDescriptor: Bool = false) {
        chipList = chips
        self.sharedDescriptor = sharedDescriptor
    }

    var sessions: [FakeSession] { state.withLock { $0.sessions } }

    func failOpen(with error: GPIOError) {
        state.withLock { $0.openError = error }
    }

    /// Every session opened from now on refuses this line.
    func failRequest(line: Int, errno code: Int32) {
        state.withLock { $0.requestErrors[line] = code }
    }

    func chips() -> [ChipInfo] { chipList }

    func open(_ chip: ChipInfo) throws(GPIOError) -> any GPIOChipSession {
        let result: Result<FakeSession, GPIOError> = state.withLock { s in
            if let error = s.openError { return .failure(error) }
            let session = FakeSession(chip: chip, sharedDescriptor: sharedDescriptor)
            for (line, code) in s.requestErrors { session.failRequest(line: line, errno: code) }
            s.sessions.append(session)
            return .success(session)
        }
        return try result.get()
    }
}

final class FakeSession: GPIOChipSession, @unchecked Sendable {
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

    private func enqueue(line: Int, _ entry: Entry) {
        state.withLock { s in
            guard let fd = s.inputs[line]?.readFd, let channel = s.channels[fd], !s.closed else { return }
            s.channels[fd]?.queue.append((line, entry))
            var byte: UInt8 = 1
            _ = write(channel.writeFd, &byte, 1)
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
                    guard pipe(&pipeFds) == 0 else { return .failure(.systemCallFailed(call: "pipe", errno: errno)) }
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

enum Chips {
    static let pi4 = ChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2711", lineCount: 58)
    static let pi4Expander = ChipInfo(path: "/dev/gpiochip1", name: "gpiochip1", label: "raspberrypi-exp-gpio", lineCount: 8)
    static let pi5 = ChipInfo(path: "/dev/gpiochip4", name: "gpiochip4", label: "pinctrl-rp1", lineCount: 54)
    static let pi5Brcm = ChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "gpio-brcmstb@107d508500", lineCount: 32)
}
