import DoseCore
import Testing
@testable import BoxDaemon

/// The bench's press figure and its split: what the edge took to reach the engine and what
/// the engine took to answer add up to the whole, per press; a release's single commit is timed
/// from the release edge; reading clears them.
@Suite struct BenchMetricsTests {
    @Test func aPressIsSplitWhereTheEngineTakesItUp() {
        var m = BenchMetrics()
        m.delivered(.pressed, button: "dose", edgeAt: .microseconds(1000), takenUp: .microseconds(1300), now: .microseconds(1400))
        m.released("dose", at: .microseconds(2000))
        m.delivered(.single, button: "dose", edgeAt: nil, takenUp: .microseconds(2400), now: .microseconds(2402))
        // A deadline's gesture (no edge) is no press to time.
        m.delivered(.pressed, button: "dose", edgeAt: nil, takenUp: .microseconds(3000), now: .microseconds(3100))
        let figures = m.take()
        // In microseconds, whole: the figures are milliseconds as Doubles.
        func us(_ name: String) -> [Int] { (figures[name] ?? []).map { Int(($0 * 1000).rounded()) } }
        #expect(us("press_to_led_ms") == [400])
        #expect(us("press_taken_up_ms") == [300])
        #expect(us("single_commit_ms") == [402])
        let again = m.take()
        #expect(again.values.allSatisfy { $0.isEmpty })
    }

    /// The press shows when its flash is written (the commit), not when the engine's answer
    /// ends (the timers it sets after); a flash written for an earlier gesture is not this one's.
    @Test func aPressShowsWhenItsFlashIsWritten() {
        var m = BenchMetrics()
        m.flashWritten = .microseconds(500) // an earlier gesture's
        m.taking()
        m.delivered(.pressed, button: "dose", edgeAt: .microseconds(1000), takenUp: .microseconds(1300), now: .microseconds(1450))
        m.taking()
        m.flashWritten = .microseconds(2380)
        m.delivered(.pressed, button: "dose", edgeAt: .microseconds(2000), takenUp: .microseconds(2300), now: .microseconds(2450))
        let figures = m.take()
        #expect(figures["press_to_led_ms"]?.map { Int(($0 * 1000).rounded()) } == [450, 380])
    }
}
