import BoxALSA
import BoxControl
import BoxHardware
import DoseCore
import Foundation
import Logging
import NightLog

// The engine's timers on the real and fast clocks, and the retry schedule for broken devices.

extension Engine {
    // MARK: - Timers (real and fast clocks sleep; the simulated clock is driven by `advance`)

    static let clockCheckInterval: Duration = .seconds(60)

    /// How often a broken night log, sound device or button chip is tried again.
    static let retryInterval: Duration = .seconds(30)

    /// Something is broken and must be tried again on a schedule, not only at the next event.
    var needsRetry: Bool {
        !unsaved.isEmpty || log == nil || eveningUnread || state.faults.contains(.logUnwritable)
            || state.faults.contains(.audioUnavailable) || state.faults.contains(.gpioUnavailable)
    }

    /// Sets the core timer to the earliest of the state's next deadline, the retry of what is
    /// broken and the clock check. The retry and the check are instants, kept until they
    /// fire: events (a press, `boxctl status` every second) reschedule often, and must not
    /// push a retry back for ever. On the real clock a timer already set for the same instant
    /// (within a millisecond) is kept: most events move no deadline, and a press should not
    /// pay for a new task.
    func reschedule() {
        guard !clock.isSimulated else { return }
        let now = clock.now().monoNanos
        if needsRetry, retryAt == nil { retryAt = now + Self.retryInterval.nanoseconds }
        if !needsRetry { retryAt = nil }
        // A wall-clock step (NTP after a boot without RTC) is noticed within a minute.
        if clock.isSystemTime, clockCheckAt == nil { clockCheckAt = now + Self.clockCheckInterval.nanoseconds }
        let timed = [retryAt, clockCheckAt].compactMap { $0 }.map { Duration.nanoseconds(max($0 - now, 0)) }
        let next = ([state.nextDeadline(at: clock.now())] + timed).compactMap({ $0 }).min()
        let due = next.map { now + $0.nanoseconds }
        let unchanged = switch (due, coreTimerDue) {
        case (nil, nil): true
        case let (due?, set?): clock.isSystemTime && abs(due - set) < 1_000_000
        default: false
        }
        if !unchanged {
            coreTimer?.cancel()
            coreTimer = nil
            coreTimerDue = due
            if let d = next {
                let clock = self.clock
                let feed = inputFeed
                coreTimer = Task {
                    do { try await clock.sleep(for: d) } catch { return }
                    feed.yield(.timer)
                }
            }
        }
        // The next gesture deadline: the edge source yields it after the edges before it.
        let gesture = recognizers.values.compactMap(\.nextDeadline).min()
        if buttonsLive {
            if gesture != wakeAsked {
                wakeAsked = gesture
                hardware.edges.wake(at: gesture)
            }
        } else {
            edgeTimer?.cancel()
            if let d = gesture {
                let clock = self.clock
                let feed = inputFeed
                edgeTimer = Task {
                    do { try await clock.sleep(untilEdge: d) } catch { return }
                    feed.yield(.timer)
                }
            }
        }
    }

    /// The simulated clock's timers: moves it by `d`, firing every deadline on the way in order.
    public func advance(by d: Duration) {
        guard let sim = clock as? SimClock else { return }
        let target = sim.now().monoNanos + d.nanoseconds
        while true {
            let now = sim.now()
            var next: Int64? = state.nextDeadline(at: now).map { now.monoNanos + max($0.nanoseconds, 1) }
            if let g = recognizers.values.compactMap(\.nextDeadline).min() {
                next = min(next ?? Int64.max, max(g.nanoseconds, now.monoNanos))
            }
            guard let n = next, n <= target else { break }
            sim.advance(toMono: n)
            fireGestureDeadlines()
            apply(.tick, source: .system)
        }
        sim.advance(toMono: target)
        tick()
    }

    /// The retry and the clock check that are due now are done (by `tick`): the next ones are
    /// set from now.
    func timedChecksDone() {
        coreTimerDue = nil // the timer has fired, or is overtaken: the next reschedule sets a new one
        let now = clock.now().monoNanos
        if let r = retryAt, r <= now { retryAt = nil }
        if let c = clockCheckAt, c <= now { clockCheckAt = nil }
    }

    /// Sleeps until a deadline `d` ahead (CLOCK_BOOTTIME, like every alarm timer), plays,
    /// and returns how late the sound started: ALSA's own start time when known.
    func timedPlay(_ s: Sound, in d: Duration) async -> Duration {
        let clock = ContinuousClock()
        let deadline = clock.now + d
        try? await QuietRuntime.sleep(for: deadline - clock.now)
        let before = (hardware.audio as? ALSAPlayer)?.lastStart?.at
        hardware.audio.play(s, volume: volume, repeatFor: s.level == nil ? nil : .seconds(1))
        var started = clock.now
        if let alsa = hardware.audio as? ALSAPlayer {
            // Wait (bounded) for the stream to actually start.
            for _ in 0..<200 where alsa.lastStart?.at == before {
                try? await QuietRuntime.sleep(for: .milliseconds(1))
            }
            if let s = alsa.lastStart?.at, s != before { started = s }
        }
        return started - deadline
    }
}
