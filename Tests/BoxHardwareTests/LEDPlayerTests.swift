import BoxHardware
import DoseCore
import Synchronization
import Testing

/// The LED rhythm as a pure function of time: what shows, and when it next changes.
@Suite struct LEDFrameTests {
    @Test func theSlowPulseBlinksOnceEveryThreeSeconds() {
        let p = LEDPattern.slowPulse // 150 on, 2850 off
        #expect(LEDPlayer.frame(p, elapsed: .zero, repeating: true) == (.blue, .milliseconds(150), false))
        #expect(LEDPlayer.frame(p, elapsed: .milliseconds(200), repeating: true) == (.off, .milliseconds(2800), false))
        #expect(LEDPlayer.frame(p, elapsed: .milliseconds(3000), repeating: true) == (.blue, .milliseconds(150), false))
        #expect(LEDPlayer.frame(p, elapsed: .milliseconds(3100), repeating: true).color == .blue)
    }

    @Test func steadyPatternsNeverWakeTheThread() {
        #expect(LEDPlayer.frame(.off, elapsed: .seconds(10), repeating: true) == (.off, nil, false))
        let on = LEDPattern(name: "on", color: .green, segments: [1], repeats: true)
        #expect(LEDPlayer.frame(on, elapsed: .seconds(10), repeating: true) == (.green, nil, false))
    }

    @Test func aOneShotFlashEnds() {
        #expect(LEDPlayer.frame(.ack, elapsed: .zero, repeating: false) == (.white, .milliseconds(60), false))
        #expect(LEDPlayer.frame(.ack, elapsed: .milliseconds(60), repeating: false).finished)
        let stop = LEDPlayer.frame(.stop, elapsed: .milliseconds(1100), repeating: false) // 1000 on, 200 off, 1000 on
        #expect(stop == (.off, .milliseconds(100), false))
    }

    @Test func aTimedFlashOfAOneShotPatternRepeats() {
        // The status hold shows "ready" (500 ms) for 4 s when the phase itself is dark.
        #expect(LEDPlayer.frame(.ready, elapsed: .milliseconds(700), repeating: true).color == .white)
    }

    /// An output that remembers what it was told.
    final class RecordingLED: LEDOutput {
        private let state = Mutex<(current: LEDColor, writes: Int)>((.off, 0))
        func write(_ color: LEDColor) throws {
            state.withLock {
                $0.current = color
                $0.writes += 1
            }
        }
        var current: LEDColor { state.withLock { $0.current } }
        var writeCount: Int { state.withLock { $0.writes } }
    }

    @Test func aSimulatedPlayerRecordsWithoutAThread() throws {
        let led = RecordingLED()
        let player = LEDPlayer(output: led, animate: false)
        player.setBase(.pulse)
        #expect(led.current == .green)
        player.flash(.ack, duration: nil)
        #expect(led.current == .green) // the flash is over at once without real time
        #expect(led.writeCount == 3)   // green, white, green
        player.setBase(.off)
        #expect(led.current == .off)
    }
}
