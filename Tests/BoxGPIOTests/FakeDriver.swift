@testable import BoxGPIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A GPIO driver without hardware. Input lines are pipes, so the real poll(2) loop of
/// GPIOButtons runs against them: `push` queues an event and makes the pipe readable.
final class FakeDriver: GPIODriver, @unchecked Sendable {
    // @unchecked: mutable state only behind `state`'s lock.
    struct State {
        var sessions: [FakeSession] = []
        var openError: GPIOError?
        var requestErrors: [Int: Int32] = [:]
    }

    let chipList: [ChipInfo]
    private let state = Locked(State())

    init(chips: [ChipInfo]) {
        chipList = chips
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
            let session = FakeSession(chip: chip)
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
        var writeFd: Int32
        var queue: [Entry] = []
    }

    struct Output {
        var consumer: String
        var initial: Int32
        var writes: [Int32] = []
    }

    struct State {
        var inputs: [Int: Input] = [:]
        var outputs: [Int: Output] = [:]
        var requestErrors: [Int: Int32] = [:]
        var setErrors: [Int: Int32] = [:]
        var closed = false
        var closeCount = 0
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let chip: ChipInfo
    private let state = Locked(State())

    init(chip: ChipInfo) {
        self.chip = chip
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

    func push(line: Int, type: Int32, sec: Int, nsec: Int) {
        enqueue(line: line, .event(GPIORawEvent(type: type, ts: timespec(tv_sec: sec, tv_nsec: nsec))))
    }

    func pushFailure(line: Int, errno code: Int32) {
        enqueue(line: line, .failure(code))
    }

    /// Closes the write end: poll(2) then reports POLLHUP without POLLIN.
    func hangUp(line: Int) {
        state.withLock { s in
            guard let input = s.inputs[line], input.writeFd >= 0 else { return }
            _ = Glibc.close(input.writeFd)
            s.inputs[line]?.writeFd = -1
        }
    }

    private func enqueue(line: Int, _ entry: Entry) {
        state.withLock { s in
            guard let input = s.inputs[line], !s.closed else { return }
            s.inputs[line]?.queue.append(entry)
            var byte: UInt8 = 1
            _ = write(input.writeFd, &byte, 1)
        }
    }

    // MARK: GPIOChipSession

    func requestEdges(line: Int, bias: GPIOBias, consumer: String, key: String) throws(GPIOError) -> Int32 {
        let result: Result<Int32, GPIOError> = state.withLock { s in
            if let code = s.requestErrors[line] {
                return .failure(.requestFailed(key: key, line: line, chip: chip, errno: code))
            }
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return .failure(.systemCallFailed(call: "pipe", errno: errno)) }
            _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
            s.inputs[line] = Input(bias: bias, consumer: consumer, readFd: fds[0], writeFd: fds[1])
            return .success(fds[0])
        }
        return try result.get()
    }

    func readEvents(fd: Int32, max: Int) throws(DriverErrno) -> [GPIORawEvent] {
        let result: Result<[GPIORawEvent], DriverErrno> = state.withLock { s in
            guard let found = s.inputs.first(where: { $0.value.readFd == fd }) else {
                return .failure(DriverErrno(code: EBADF))
            }
            let (line, input) = (found.key, found.value)
            var drain = [UInt8](repeating: 0, count: 64)
            while read(fd, &drain, drain.count) > 0 {}
            var queue = input.queue
            var events: [GPIORawEvent] = []
            var failure: Int32?
            while events.count < max, let first = queue.first {
                if case .event(let e) = first {
                    events.append(e)
                    queue.removeFirst()
                } else if case .failure(let code) = first {
                    if events.isEmpty {
                        failure = code
                        queue.removeFirst()
                    }
                    break
                }
            }
            s.inputs[line]?.queue = queue
            if !queue.isEmpty, input.writeFd >= 0 {
                // Still more: stay readable, as the kernel FIFO would.
                var byte: UInt8 = 1
                _ = write(input.writeFd, &byte, 1)
            }
            if let failure { return .failure(DriverErrno(code: failure)) }
            if events.isEmpty { return .failure(DriverErrno(code: EAGAIN)) }
            return .success(events)
        }
        return try result.get()
    }

    func requestOutput(line: Int, initial: Int32, consumer: String, key: String) throws(GPIOError) {
        let result: Result<Void, GPIOError> = state.withLock { s in
            if let code = s.requestErrors[line] {
                return .failure(.requestFailed(key: key, line: line, chip: chip, errno: code))
            }
            s.outputs[line] = Output(consumer: consumer, initial: initial)
            return .success(())
        }
        try result.get()
    }

    func setValue(line: Int, _ value: Int32, key: String) throws(GPIOError) {
        let result: Result<Void, GPIOError> = state.withLock { s in
            if s.closed || s.outputs[line] == nil { return .failure(.closed) }
            if let code = s.setErrors[line] { return .failure(.writeFailed(key: key, line: line, errno: code)) }
            s.outputs[line]?.writes.append(value)
            return .success(())
        }
        try result.get()
    }

    func close() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.closeCount += 1
            guard !s.closed else { return [] }
            s.closed = true
            for input in s.inputs.values {
                _ = Glibc.close(input.readFd)
                if input.writeFd >= 0 { _ = Glibc.close(input.writeFd) }
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
