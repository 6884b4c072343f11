import BoxControl
import BoxHardware
import DoseCore
import Foundation
import NightLog

// The simulated box: presses pushed into the simulated buttons (the same edge source and
// pump as GPIO), the sounds it played, faults on demand, and the bench's injected edges.
extension Engine {
    public enum SimError: Error, Sendable {
        case notSimulated
        case unknownButton(String)
    }

    /// Presses a simulated button: `edges` at millisecond offsets from now (`.falling` is
    /// the button going down, `.rising` up), moving the simulated clock through them; each
    /// edge goes through the edge source and the pump, and the clock moves on only once it
    /// was handled; then until the gesture is resolved.
    public func simEdges(button: String, _ edges: [(ms: Int64, direction: RawEdge.Direction)]) async throws(SimError) {
        guard let sim = clock as? SimClock, let buttons = hardware.simulatedButtons else { throw .notSimulated }
        guard recognizers[button] != nil else { throw .unknownButton(button) }
        let start = sim.now().monoNanos
        for e in edges.sorted(by: { $0.ms < $1.ms }) {
            let at = start + e.ms * 1_000_000
            advance(by: .nanoseconds(max(0, at - sim.now().monoNanos)))
            let delivered: Int?
            do { delivered = try buttons.set(button, pressed: e.direction == .falling, at: .nanoseconds(at)) } catch { throw .unknownButton(button) }
            guard let n = delivered else { return } // the source is closed: boxd is stopping
            await pumped(upTo: n)
        }
        // Let the gesture resolve (lockout, double gap), but never run into the stuck guard.
        while let r = recognizers[button], !r.isPressed, let d = r.nextDeadline {
            advance(by: .nanoseconds(max(1, d.nanoseconds - sim.now().monoNanos)))
        }
    }

    /// An edge stamped now on the edge clock (simulated buttons on any clock; the benchmark
    /// uses it), through the edge source; returns once the engine has handled it.
    public func inject(button: String, pressed: Bool) async -> Bool {
        guard let buttons = hardware.simulatedButtons, let n = try? buttons.set(button, pressed: pressed, at: clock.edgeNow()) ?? nil else {
            return false
        }
        await pumped(upTo: n)
        return true
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
    public func takeMetrics() -> [String: [Double]] { metrics.take() }
}
