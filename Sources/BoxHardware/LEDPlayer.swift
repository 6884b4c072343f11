import DoseCore
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Plays LED patterns on an output: the steady pattern repeats, a flash plays over it once
/// (or repeats for its duration) and then the steady pattern resumes.
///
/// The rhythm runs on one thread of its own that sleeps in poll(2) until the next segment
/// boundary (poll's timeout is monotonic, so a wall-clock step cannot freeze the LED), so
/// an idle box costs one wake-up per LED change and nothing else. An LED that plays patterns
/// itself (`LEDPatternOutput`, the kernel's trigger) is handed each pattern once, and the
/// thread wakes only when a flash ends. With `animate` off (the simulated clock) it only
/// records what would show.
public final class LEDPlayer: Sendable {
    struct State {
        var base: LEDPattern = .off
        var baseStart = ContinuousClock.now
        var flash: LEDPattern?
        var flashStart = ContinuousClock.now
        var flashDuration: Duration?
        var shown: LEDColor?
        /// What a pattern output plays now.
        var playing: Playing?
        var running = true
    }

    struct Playing: Equatable {
        var pattern: LEDPattern
        var once: Bool
    }

    let output: any LEDOutput
    let patterns: (any LEDPatternOutput)?
    public let animate: Bool
    private let state = Mutex(State())
    /// Wakes the thread when the pattern changes: [read end, write end].
    private let wakePipe: [Int32]

    public init(output: any LEDOutput, animate: Bool) {
        self.output = output
        patterns = output as? any LEDPatternOutput
        self.animate = animate
        var fds: [Int32] = [-1, -1]
        if animate, pipe(&fds) == 0 {
            _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
            _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        }
        wakePipe = fds
        if animate, fds[0] >= 0 {
            let thread = Thread { [self] in run() }
            thread.name = "boxd-led"
            thread.start()
        }
    }

    public var base: LEDPattern { state.withLock { $0.base } }
    public var currentFlash: LEDPattern? { state.withLock { $0.flash } }

    public func setBase(_ pattern: LEDPattern) {
        let changed = state.withLock { s -> Bool in
            guard s.base != pattern else { return false }
            s.base = pattern
            s.baseStart = .now
            return true
        }
        guard changed else { return }
        if animate {
            wake()
        } else if patterns != nil {
            play(Playing(pattern: pattern, once: false))
        } else {
            show(Self.frame(pattern, elapsed: .zero, repeating: true).color)
        }
    }

    public func flash(_ pattern: LEDPattern, duration: Duration?) {
        state.withLock {
            $0.flash = pattern
            $0.flashStart = .now
            $0.flashDuration = duration
        }
        // The first segment goes out now, not when the thread wakes: a press is acknowledged at once.
        if patterns != nil {
            play(Playing(pattern: pattern, once: duration == nil), restart: true) // a second press flashes again
        } else {
            show(pattern.segments.isEmpty ? .off : pattern.color)
        }
        if animate {
            wake()
        } else {
            // Without real time a flash is over as soon as it is recorded.
            let base = state.withLock { s -> LEDPattern in
                s.flash = nil
                return s.base
            }
            if patterns != nil {
                play(Playing(pattern: base, once: false))
            } else {
                show(Self.frame(base, elapsed: .zero, repeating: true).color)
            }
        }
    }

    /// Ends the rhythm. An LED that plays patterns by itself would go on after boxd: it goes
    /// dark, as GPIO lines do when they are released.
    public func stop() {
        state.withLock { s in
            if s.running, let patterns { try? patterns.play(.off, once: false) }
            s.running = false
        }
        wake()
    }

    /// Writes `color` unless it already shows. A broken LED must never stop the box; the
    /// GPIO backend reports its own faults.
    func show(_ color: LEDColor) {
        let write = state.withLock { s -> Bool in
            guard s.shown != color else { return false }
            s.shown = color
            return true
        }
        if write { try? output.write(color) }
    }

    /// Hands a pattern output its pattern unless it already plays it (`restart`: even then), and
    /// nothing once stopped. Written under the lock, so that the thread's last pattern cannot
    /// land after `stop()`'s dark one and blink on with boxd gone.
    /// Returns false when the LED refused it: it is then not taken as playing, and the thread
    /// tries again after `retryInterval` (a device that went away, or is not there yet).
    @discardableResult
    func play(_ p: Playing, restart: Bool = false) -> Bool {
        state.withLock { s in
            guard s.running, s.playing != p || restart else { return true }
            do {
                try patterns?.play(p.pattern, once: p.once)
                s.playing = p
                return true
            } catch {
                s.playing = nil
                return false
            }
        }
    }

    /// How soon a pattern the LED refused is written again (only while it refuses).
    public static let retryInterval: Duration = .seconds(10)

    /// For a pattern output: what should play now, and how long until a flash ends.
    private func due(_ s: inout State, now: ContinuousClock.Instant) -> (Playing, Duration?) {
        if let flash = s.flash {
            let elapsed = now - s.flashStart
            let length = s.flashDuration ?? .milliseconds(flash.segments.reduce(0, +))
            if elapsed < length { return (Playing(pattern: flash, once: s.flashDuration == nil), length - elapsed) }
            s.flash = nil
        }
        return (Playing(pattern: s.base, once: false), nil)
    }

    private func wake() {
        guard wakePipe[1] >= 0 else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wakePipe[1], &byte, 1)
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let now = ContinuousClock.now
            if patterns != nil {
                let (playing, next, running) = state.withLock { s in
                    let (p, next) = due(&s, now: now)
                    return (p, next, s.running)
                }
                guard running else { return }
                let shown = play(playing)
                sleep(shown ? next : min(next ?? Self.retryInterval, Self.retryInterval), &buffer)
                continue
            }
            let (color, next, running) = state.withLock { s -> (LEDColor, Duration?, Bool) in
                if let flash = s.flash {
                    let elapsed = now - s.flashStart
                    let f = Self.frame(flash, elapsed: elapsed, repeating: s.flashDuration != nil)
                    let timedOut = s.flashDuration.map { elapsed >= $0 } ?? false
                    if !f.finished && !timedOut {
                        let untilEnd = s.flashDuration.map { $0 - elapsed }
                        return (f.color, [f.next, untilEnd].compactMap { $0 }.min(), s.running)
                    }
                    s.flash = nil
                }
                let f = Self.frame(s.base, elapsed: now - s.baseStart, repeating: true)
                return (f.color, f.next, s.running)
            }
            guard running else { return }
            show(color)
            sleep(next, &buffer)
        }
    }

    /// Until `next` has passed (nil: until woken) or the pattern changes.
    private func sleep(_ next: Duration?, _ buffer: inout [UInt8]) {
        var pfd = pollfd(fd: wakePipe[0], events: Int16(POLLIN), revents: 0)
        let timeout: Int32 = next.map { Int32(min(max(($0.seconds * 1000).rounded(.up), 1), 86_400_000)) } ?? -1
        if poll(&pfd, 1, timeout) > 0 {
            while Glibc.read(wakePipe[0], &buffer, buffer.count) > 0 {}
        }
    }

    /// What a pattern shows `elapsed` after it started: its colour (or off), how long until
    /// that changes (nil: never), and whether a one-shot pattern is over.
    public static func frame(_ p: LEDPattern, elapsed: Duration, repeating: Bool) -> (color: LEDColor, next: Duration?, finished: Bool) {
        if p.segments.isEmpty { return (.off, nil, !repeating) }
        let period = p.segments.reduce(0, +)
        if p.segments.count == 1 && p.repeats && repeating { return (p.color, nil, false) } // steady on
        var t = Int64((elapsed.seconds * 1000).rounded(.down))
        if repeating && p.repeats { t %= Int64(max(period, 1)) }
        var start: Int64 = 0
        for (i, ms) in p.segments.enumerated() {
            let end = start + Int64(ms)
            if t < end {
                let untilNext = Duration.milliseconds(end) - elapsedInCycle(elapsed, period: period, repeating: repeating && p.repeats)
                return (i % 2 == 0 ? p.color : .off, untilNext, false)
            }
            start = end
        }
        // Past the end of a one-shot pattern (or of a non-repeating flash repeated for a duration).
        if repeating { return frame(p, elapsed: elapsedInCycle(elapsed, period: period, repeating: true), repeating: true) }
        return (.off, nil, true)
    }

    private static func elapsedInCycle(_ elapsed: Duration, period: Int, repeating: Bool) -> Duration {
        guard repeating, period > 0 else { return elapsed }
        let ns = elapsed.nanoseconds % (Int64(period) * 1_000_000)
        return .nanoseconds(ns)
    }
}
