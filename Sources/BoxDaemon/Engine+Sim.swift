import BoxControl
import BoxHardware
import DoseCore
import Foundation
import NightLog

extension Engine {
    // MARK: - Simulation

    /// Moves the simulated clock by `d`, firing every deadline on the way in order.
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
            _ = apply(.tick, source: .system)
        }
        sim.advance(toMono: target)
        tick()
    }

    /// Injects edges at millisecond offsets from now, moving the simulated clock through
    /// them, then until the gesture is resolved.
    public func simEdges(button: String, _ edges: [(ms: Int64, direction: RawEdge.Direction)]) throws(SimError) {
        guard let sim = clock as? SimClock else { throw .notSimulated }
        guard recognizers[button] != nil else { throw .unknownButton(button) }
        let start = sim.now().monoNanos
        for e in edges.sorted(by: { $0.ms < $1.ms }) {
            let at = start + e.ms * 1_000_000
            advance(by: .nanoseconds(max(0, at - sim.now().monoNanos)))
            let activeLow = config.buttons.first { $0.name == button }?.activeLow ?? true
            // Edges describe the physical press: "down" is the pressed level.
            let direction: RawEdge.Direction = e.direction == .falling ? (activeLow ? .falling : .rising) : (activeLow ? .rising : .falling)
            handle(ButtonEdge(button: button, edge: RawEdge(direction, at: .nanoseconds(at))))
        }
        // Let the gesture resolve (lockout, double gap), but never run into the stuck guard.
        while let r = recognizers[button], !r.isPressed, let d = r.nextDeadline {
            advance(by: .nanoseconds(max(1, d.nanoseconds - sim.now().monoNanos)))
        }
    }

    public enum SimError: Error, Sendable {
        case notSimulated
        case unknownButton(String)
    }

    public func clearSoundLog() { soundLog.removeAll() }

    public func stepWallClock(by d: Duration) -> Bool {
        guard let sim = clock as? SimClock else { return false }
        sim.stepWall(by: d)
        tick()
        return true
    }

    /// Swaps the night log for a read-only handle: the next write fails as on a read-only file system.
    public func simulateReadOnlyLog() throws {
        log = try NightLog.openReadOnly(stateDirectory: stateDirectory)
    }

    /// The benchmark's measurements, in ms; cleared when read.
    public func takeMetrics() -> [String: [Double]] {
        defer {
            pressLatencies.removeAll()
            commitDelays.removeAll()
        }
        return ["press_to_led_ms": pressLatencies.map { $0.seconds * 1000 }, "single_commit_ms": commitDelays.map { $0.seconds * 1000 }]
    }

    /// An edge stamped now on the edge clock (simulated buttons on any clock; the benchmark uses it).
    public func inject(button: String, pressed: Bool) -> Bool {
        guard hardware.simulatedButtons, let b = config.buttons.first(where: { $0.name == button }) else { return false }
        let direction: RawEdge.Direction = pressed == b.activeLow ? .falling : .rising
        handle(ButtonEdge(button: button, edge: RawEdge(direction, at: clock.edgeNow())))
        return true
    }
}
