import DoseCore

/// The benchmark's figures, kept by the engine as presses happen (`boxctl`'s bench
/// namespace reads them): press edge -> LED acknowledgement written, and release edge ->
/// single press committed, both on the edge clock.
struct BenchMetrics {
    var pressLatencies: [Duration] = []
    var commitDelays: [Duration] = []
    var lastReleaseEdge: [String: Duration] = [:]

    mutating func released(_ button: String, at: Duration) { lastReleaseEdge[button] = at }

    mutating func delivered(_ gesture: Gesture, button: String, edgeAt: Duration?, now: Duration) {
        if gesture == .pressed, let edgeAt { pressLatencies.append(now - edgeAt) }
        if gesture == .single, let released = lastReleaseEdge[button] { commitDelays.append(now - released) }
    }

    /// In milliseconds, by name; cleared when read.
    mutating func take() -> [String: [Double]] {
        defer {
            pressLatencies.removeAll()
            commitDelays.removeAll()
        }
        return ["press_to_led_ms": pressLatencies.map { $0.seconds * 1000 }, "single_commit_ms": commitDelays.map { $0.seconds * 1000 }]
    }
}
