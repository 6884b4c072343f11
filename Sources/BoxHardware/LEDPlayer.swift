import DoseCore
import Foundation
import Synchronization

/// Plays LED patterns on an output: the steady pattern repeats, a flash plays over it once
/// (or for its duration) and then the steady pattern resumes. With `animate` off (the
/// simulated clock) it only records what would show.
public final class LEDPlayer: Sendable {
    struct State {
        var base: LEDPattern = .off
        var flash: LEDPattern?
        var flashDuration: Duration?
        var task: Task<Void, Never>?
        var generation = 0
    }

    let output: any LEDOutput
    let animate: Bool
    private let state = Mutex(State())
    /// Called after every write with the colour written (for latency measurements).
    let onWrite: (@Sendable (LEDColor) -> Void)?

    public init(output: any LEDOutput, animate: Bool, onWrite: (@Sendable (LEDColor) -> Void)? = nil) {
        self.output = output
        self.animate = animate
        self.onWrite = onWrite
    }

    public var base: LEDPattern { state.withLock { $0.base } }
    public var currentFlash: LEDPattern? { state.withLock { $0.flash } }

    public func setBase(_ pattern: LEDPattern) {
        let restart = state.withLock { s -> Bool in
            s.base = pattern
            return s.flash == nil
        }
        if restart { self.restart() }
    }

    public func flash(_ pattern: LEDPattern, duration: Duration?) {
        state.withLock {
            $0.flash = pattern
            $0.flashDuration = duration
        }
        // The first segment goes out now, not when a task gets scheduled: a press is acknowledged at once.
        write(pattern.segments.isEmpty ? .off : pattern.color)
        if animate {
            restart(skipFirstWrite: true)
        } else {
            // Without real time a flash is over as soon as it is recorded.
            state.withLock { $0.flash = nil }
            write(steadyColor(base))
        }
    }

    public func stop() {
        state.withLock { $0.task?.cancel() }
    }

    func steadyColor(_ p: LEDPattern) -> LEDColor { p.segments.isEmpty ? .off : p.color }

    func write(_ color: LEDColor) {
        try? output.write(color) // a broken LED must never stop the box; GPIO faults are reported by the backend
        onWrite?(color)
    }

    private func restart(skipFirstWrite: Bool = false) {
        let (generation, flash, flashDuration, base) = state.withLock { s in
            s.task?.cancel()
            s.generation += 1
            return (s.generation, s.flash, s.flashDuration, s.base)
        }
        guard animate else {
            write(steadyColor(base))
            return
        }
        let task = Task.detached { [self] in
            if let flash {
                await play(flash, for: flashDuration, skipFirstWrite: skipFirstWrite)
                let current = state.withLock { s -> Bool in
                    guard s.generation == generation else { return false }
                    s.flash = nil
                    return true
                }
                guard current, !Task.isCancelled else { return }
            }
            let steady = state.withLock { $0.base }
            if steady.segments.count <= 1 {
                write(steadyColor(steady))
                return
            }
            while !Task.isCancelled { await play(steady, for: nil, skipFirstWrite: false) }
        }
        state.withLock { s in if s.generation == generation { s.task = task } else { task.cancel() } }
    }

    /// One pass of a pattern's segments (or passes until `duration` for a timed flash).
    private func play(_ p: LEDPattern, for duration: Duration?, skipFirstWrite: Bool) async {
        let clock = ContinuousClock()
        let end = duration.map { clock.now + $0 }
        var first = true
        repeat {
            for (i, ms) in p.segments.enumerated() {
                if Task.isCancelled { return }
                if !(first && skipFirstWrite && i == 0) { write(i % 2 == 0 ? p.color : .off) }
                try? await Task.sleep(for: .milliseconds(ms), clock: clock)
            }
            first = false
        } while end.map { clock.now < $0 } ?? false
        if !p.repeats { write(.off) }
    }
}
