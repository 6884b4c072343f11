import BoxControl
import CQuietRuntime
import DoseCore
import Foundation
import Synchronization

/// boxd's executor and timers (#34, "a quiet process"): nothing in boxd wakes while nothing is
/// due. Swift's default executor on Linux is libdispatch's global pool, whose first job starts a
/// monitor that wakes the process every second for good, and `Task.sleep` schedules its wake-up
/// there too. With `install()` the runtime's global jobs run on threads of boxd's own that wait on
/// a condition variable, and every sleep of boxd's (`sleep`) waits on one timer thread that sleeps
/// until the earliest deadline. The C side is CQuietRuntime.
public enum QuietRuntime {
    /// Sends Swift concurrency's global jobs to boxd's own threads, as many as libdispatch
    /// would use (one per core, at least four, so that a blocked job never starves the rest).
    /// From the first line of boxd's main, before any task runs.
    public static func install() {
        quiet_runtime_install(Int32(max(4, ProcessInfo.processInfo.activeProcessorCount)))
    }

    /// Sleeps for `duration` on CLOCK_BOOTTIME (ContinuousClock, which a wall-clock step does not
    /// move). Throws CancellationError when the task is cancelled first, as `Task.sleep` does.
    public static func sleep(for duration: Duration) async throws {
        try await sleep(untilBoottime: KernelClock.bootTime() + max(duration, .zero).nanoseconds)
    }

    /// Sleeps until `deadline`, nanoseconds of CLOCK_MONOTONIC (libgpiod's edge timestamps).
    /// The timer runs on CLOCK_BOOTTIME, which a suspend moves ahead of CLOCK_MONOTONIC: after
    /// one the sleep goes on for what is left, never ends early.
    public static func sleep(untilMonotonic deadline: Int64) async throws {
        while case let left = deadline - KernelClock.read(CLOCK_MONOTONIC), left > 0 {
            try await sleep(untilBoottime: KernelClock.bootTime() + left)
        }
    }

    /// Sleeps until `deadline`, nanoseconds of CLOCK_BOOTTIME.
    public static func sleep(untilBoottime deadline: Int64) async throws {
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                sleeper.arm(continuation, deadline: deadline)
            }
        } onCancel: {
            sleeper.cancel()
        }
    }
}

/// One sleep: its continuation, resumed exactly once, by the timer (it fired) or by the
/// cancellation (it took the timer back before it fired).
private final class Sleeper: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var timer: UInt64 = 0
        var cancelled = false
    }

    private let state = Mutex(State())

    func arm(_ continuation: CheckedContinuation<Void, any Error>, deadline: Int64) {
        let cancelledAlready = state.withLock { s -> Bool in
            if !s.cancelled { s.continuation = continuation }
            return s.cancelled
        }
        if cancelledAlready { return continuation.resume(throwing: CancellationError()) }
        // The timer holds a reference until it fires, or until `cancel` takes it back.
        let context = Unmanaged.passRetained(self).toOpaque()
        let timer = quiet_timer_add(deadline, { context in
            Unmanaged<Sleeper>.fromOpaque(context!).takeRetainedValue().take()?.resume()
        }, context)
        // A cancellation that came between the two locks found no timer to take back: take it now.
        if state.withLock({ s -> Bool in s.timer = timer; return s.cancelled }) { cancel() }
    }

    func cancel() {
        let timer = state.withLock { s -> UInt64 in
            s.cancelled = true
            return s.timer
        }
        guard timer != 0, quiet_timer_cancel(timer) != 0 else { return } // not armed yet, or fired
        Unmanaged.passUnretained(self).release() // the timer's reference
        take()?.resume(throwing: CancellationError())
    }

    private func take() -> CheckedContinuation<Void, any Error>? {
        state.withLock { s in
            defer { s.continuation = nil }
            return s.continuation
        }
    }
}
