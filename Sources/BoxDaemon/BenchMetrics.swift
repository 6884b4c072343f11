import DoseCore

/// The benchmark's figures, kept by the engine as presses happen (`boxctl`'s bench
/// namespace reads them): press edge -> LED acknowledgement written (the moment the flash
/// went to the LED, in the commit), split where the engine takes the press up (before: the
/// edge's way to the engine, its thread hops; after: the engine's answer, the reducer and
/// the LED write), and release edge -> single press committed; all on the edge clock.
struct BenchMetrics {
    var pressLatencies: [Duration] = []
    var pressTakenUp: [Duration] = []
    var commitDelays: [Duration] = []
    var lastReleaseEdge: [String: Duration] = [:]
    /// When the engine last wrote a flash to the LED (nil: not since `taking`).
    var flashWritten: Duration?

    mutating func released(_ button: String, at: Duration) { lastReleaseEdge[button] = at }

    /// A gesture is about to be answered: a flash written from now on is its own.
    mutating func taking() { flashWritten = nil }

    /// `now`: when its answer ended; a press is acknowledged when its flash was written, which
    /// can be earlier (what the answer does after the LED, the timers, no one sees).
    mutating func delivered(_ gesture: Gesture, button: String, edgeAt: Duration?, takenUp: Duration, now: Duration) {
        if gesture == .pressed, let edgeAt {
            pressLatencies.append((flashWritten ?? now) - edgeAt)
            pressTakenUp.append(takenUp - edgeAt)
        }
        if gesture == .single, let released = lastReleaseEdge[button] { commitDelays.append(now - released) }
    }

    /// In milliseconds, by name; cleared when read.
    mutating func take() -> [String: [Double]] {
        defer {
            pressLatencies.removeAll()
            pressTakenUp.removeAll()
            commitDelays.removeAll()
        }
        func ms(_ ds: [Duration]) -> [Double] { ds.map { $0.seconds * 1000 } }
        return ["press_to_led_ms": ms(pressLatencies), "press_taken_up_ms": ms(pressTakenUp), "single_commit_ms": ms(commitDelays)]
    }
}
