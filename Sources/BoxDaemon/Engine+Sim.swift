import BoxControl
import BoxHardware
import DoseCore
import Foundation
import NightLog

// The simulated box: presses on the simulated chip's lines (read by the same GPIO reader,
// edge decoding and input loop as a real chip's), the sounds it played, faults on demand, and the
// bench's injected edges.
extension Engine {
    public enum SimError: Error, Sendable {
        case notSimulated
        case unknownButton(String)
    }

    /// Presses a simulated button: `pressed` (down) or up at millisecond offsets from now,
    /// moving the simulated clock through them; each edge goes through the simulated chip,
    /// the GPIO reader and the input loop, and the clock moves on only once it was handled; then
    /// until the gesture is resolved.
    public func simEdges(button: String, _ edges: [(ms: Int64, pressed: Bool)]) async throws(SimError) {
        guard let sim = clock as? SimClock, let gpio = hardware.simulatedGPIO else { throw .notSimulated }
        guard recognizers[button] != nil, let line = line(of: button) else { throw .unknownButton(button) }
        let start = sim.now().monoNanos
        for e in edges.sorted(by: { $0.ms < $1.ms }) {
            // Each edge at an instant of its own, as the kernel stamps them (in nanoseconds):
            // two edges in one millisecond are 1 ns apart, so each one's wait is for itself.
            let at = max(start + e.ms * 1_000_000, (lastEdgeAt[button]?.nanoseconds ?? .min) + 1)
            advance(by: .nanoseconds(max(0, at - sim.now().monoNanos)))
            // The lines are released: boxd is stopping.
            guard gpio.press(line: line, pressed: e.pressed, at: .nanoseconds(at)) else { return }
            await handled(button: button, at: .nanoseconds(at))
        }
        // Let the gesture resolve (lockout, double gap), but never run into the stuck guard.
        while let r = recognizers[button], !r.isPressed, let d = r.nextDeadline {
            advance(by: .nanoseconds(max(1, d.nanoseconds - sim.now().monoNanos)))
        }
    }

    /// An edge stamped now on the edge clock (simulated buttons on any clock; the benchmark
    /// uses it), through the edge source; returns once the engine has handled it.
    public func inject(button: String, pressed: Bool) async -> Bool {
        let at = clock.edgeNow()
        guard let gpio = hardware.simulatedGPIO, let line = line(of: button), gpio.press(line: line, pressed: pressed, at: at) else {
            return false
        }
        await handled(button: button, at: at)
        return true
    }

    /// The button's line on the chip, as configured.
    private func line(of button: String) -> Int? {
        config.buttons.first { $0.name == button }?.line
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
