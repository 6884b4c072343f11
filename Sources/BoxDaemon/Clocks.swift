import BoxControl
import DoseCore
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's clocks. `now()` pairs the wall clock with CLOCK_BOOTTIME (intervals);
/// `edgeNow()` is the clock button edges are stamped with (CLOCK_MONOTONIC on libgpiod).
/// The two are never compared with each other.
public protocol BoxClock: Sendable {
    func now() -> Moment
    func edgeNow() -> Duration
    /// Waits `d` of this clock's time on the boot-time timeline.
    func sleep(for d: Duration) async throws
    /// Waits until the edge clock reads `deadline`.
    func sleep(untilEdge deadline: Duration) async throws
    /// Time moves only when told (`sim advance`).
    var isSimulated: Bool { get }
    /// The wall clock is the system's own, so NTP's sync and its steps are real news.
    var isSystemTime: Bool { get }
    /// Where the sound log counts from (`boxctl sim sounds`): the simulated start, else the
    /// edge clock's zero.
    var soundLogOffset: Duration { get }
    /// A hand is on the button: a sped-up clock runs at real speed while the box answers.
    func answerAtRealSpeed()
    /// A confirmation waits (true) or not: a sped-up clock runs at real speed meanwhile.
    func setRealTime(_ on: Bool)
    var description: String { get }
}

extension BoxClock {
    public var isSystemTime: Bool { false }
    public var soundLogOffset: Duration { .nanoseconds(now().monoNanos) }
    /// A clock that always runs at real speed has nothing to do.
    public func answerAtRealSpeed() {}
    public func setRealTime(_ on: Bool) {}
}

/// The real clocks: wall, CLOCK_BOOTTIME (ContinuousClock on Linux) and CLOCK_MONOTONIC
/// (SuspendingClock on Linux, the clock of libgpiod's edge timestamps).
public struct RealClock: BoxClock {
    public init() {}
    public func now() -> Moment {
        KernelClock.now()
    }
    public func edgeNow() -> Duration { .nanoseconds(KernelClock.read(CLOCK_MONOTONIC)) }
    public func sleep(for d: Duration) async throws {
        try await QuietRuntime.sleep(for: d)
    }
    public func sleep(untilEdge deadline: Duration) async throws {
        try await QuietRuntime.sleep(untilMonotonic: deadline.nanoseconds)
    }
    public var isSimulated: Bool { false }
    public var isSystemTime: Bool { true }
    public var description: String { "real" }
}

/// Real time sped up N times, for demos: a night passes in minutes. Button gestures keep
/// real time (the edge clock is the real CLOCK_MONOTONIC): a press is still a press. While
/// a confirmation waits the clock runs at real speed (`setRealTime`), so its 15 s are 15 s
/// for the person holding the button, at any speed. A button's action is answered at real
/// speed too (`answerAtRealSpeed`), so a question it asks is not aged by the answer's own
/// tone and writes times N; when it asks none, the clock catches up as if it had never slowed.
public final class FastClock: BoxClock {
    struct Anchor {
        var realNanos: Int64
        var elapsedNanos: Int64
        var realTime = false
        /// Slowed for an answer that may ask a question: undone (caught up) if it asks none.
        var answering = false
    }

    let speed: Double
    let startWall: Date
    let boot = "fast-\(UUID().lowercaseText)"
    /// Real time, CLOCK_BOOTTIME in ns (a test passes its own).
    let realNanos: @Sendable () -> Int64
    private let anchor: Mutex<Anchor>

    public convenience init(speed: Double, startWall: Date = Date()) {
        self.init(speed: speed, startWall: startWall, realNanos: { KernelClock.bootTime() })
    }

    public init(speed: Double, startWall: Date, realNanos: @escaping @Sendable () -> Int64) {
        self.speed = speed
        self.startWall = startWall
        self.realNanos = realNanos
        anchor = Mutex(Anchor(realNanos: realNanos(), elapsedNanos: 0))
    }

    public var runsInRealTime: Bool { anchor.withLock { $0.realTime } }
    var currentSpeed: Double { runsInRealTime ? 1 : speed }

    var elapsedNanos: Int64 {
        let real = realNanos()
        return anchor.withLock { a in a.elapsedNanos + Int64(Double(real - a.realNanos) * (a.realTime ? 1 : speed)) }
    }

    /// Runs at real speed (true) or sped up (false) from now on, without a jump; except after
    /// `answerAtRealSpeed` with no question asked (false): then the clock reads what it would
    /// have read had it never slowed.
    public func setRealTime(_ on: Bool) {
        let real = realNanos()
        anchor.withLock { a in
            let caughtUp = a.answering && !on
            a.answering = false
            guard a.realTime != on else { return }
            a.elapsedNanos += Int64(Double(real - a.realNanos) * (a.realTime && !caughtUp ? 1 : speed))
            a.realNanos = real
            a.realTime = on
        }
    }

    /// Real speed while a button's action is answered; `setRealTime` ends it (the engine calls
    /// it after every action). Nothing changes while a question already waits.
    public func answerAtRealSpeed() {
        let real = realNanos()
        anchor.withLock { a in
            guard !a.realTime else { return }
            a.elapsedNanos += Int64(Double(real - a.realNanos) * speed)
            a.realNanos = real
            a.realTime = true
            a.answering = true
        }
    }

    public func now() -> Moment {
        let e = elapsedNanos
        return Moment(wall: startWall.addingTimeInterval(Double(e) / 1e9), boot: boot, monoNanos: e)
    }
    public func edgeNow() -> Duration { RealClock().edgeNow() }
    public func sleep(for d: Duration) async throws {
        try await QuietRuntime.sleep(for: max(d, Duration.zero) / currentSpeed)
    }
    public func sleep(untilEdge deadline: Duration) async throws {
        try await RealClock().sleep(untilEdge: deadline)
    }
    public var isSimulated: Bool { false }
    public var description: String { "fast:\(DoseConstants.number(speed))" }
}

/// A clock that moves only when told. Both timelines advance together; `stepWall` moves
/// only the wall clock, as NTP does. Its reading is saved in the state directory, so a
/// restarted daemon (same simulated boot) continues where the last one stopped.
public final class SimClock: BoxClock {
    private let reading: Mutex<SimClockFile.Reading>
    let stateFile: URL?

    public init(start: Date, stateFile: URL?) {
        self.stateFile = stateFile
        if let url = stateFile, let saved = SimClockFile(url: url).load() {
            reading = Mutex(saved)
        } else {
            reading = Mutex(.init(wall: start, mono: 1_000_000_000, boot: "sim-\(UUID().lowercaseText)", startWall: start))
        }
    }

    public func now() -> Moment {
        reading.withLock { Moment(wall: $0.wall, boot: $0.boot, monoNanos: $0.mono) }
    }
    public func edgeNow() -> Duration { .nanoseconds(reading.withLock { $0.mono }) }

    /// Time since the simulation started, for sound and LED logs.
    public var offset: Duration { .nanoseconds(reading.withLock { $0.mono } - 1_000_000_000) }
    public var soundLogOffset: Duration { offset }

    public func advance(by d: Duration) {
        guard d > .zero else { return }
        reading.withLock {
            $0.mono += d.nanoseconds
            $0.wall = $0.wall.addingTimeInterval(d.seconds)
        }
        save()
    }

    /// Moves the edge/boot timeline to `target` if it lies ahead.
    public func advance(toMono target: Int64) {
        let now = reading.withLock { $0.mono }
        if target > now { advance(by: .nanoseconds(target - now)) }
    }

    public func stepWall(by d: Duration) {
        reading.withLock { $0.wall = $0.wall.addingTimeInterval(d.seconds) }
        save()
    }

    /// A simulated reboot: a new boot id, the monotonic clock restarts, the wall clock goes on.
    public func reboot() {
        reading.withLock {
            $0.boot = "sim-\(UUID().lowercaseText)"
            $0.mono = 1_000_000_000
        }
        save()
    }

    func save() {
        guard let url = stateFile else { return }
        try? SimClockFile(url: url).save(reading.withLock { $0 })
    }

    public func sleep(for d: Duration) async throws {
        // Simulated time never passes by itself; timers are driven by `sim advance`.
        try await QuietRuntime.sleep(for: .seconds(86_400 * 365))
    }
    public func sleep(untilEdge deadline: Duration) async throws { try await sleep(for: .zero) }
    public var isSimulated: Bool { true }
    public var description: String { "sim" }
}
