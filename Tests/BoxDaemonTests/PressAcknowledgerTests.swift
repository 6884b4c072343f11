import BoxHardware
import ConfigFile
import DoseCore
import Foundation
import Logging
import Synchronization
import Testing
@testable import BoxDaemon

/// A press's flash written by the reader (#34, the press path): on a button going down it is
/// written at once, before the engine takes the edge up; never for a bounce, never from a copy
/// of the recogniser the engine has not caught up with, and never twice.
@Suite struct PressAcknowledgerTests {
    /// Every colour written, in order.
    final class RecordingLED: LEDOutput, Sendable {
        let writes = Mutex<[LEDColor]>([])
        func write(_ color: LEDColor) throws { writes.withLock { $0.append(color) } }
        var whites: Int { writes.withLock { $0.count { $0 == LEDPattern.ack.color } } }
    }

    /// An LED that plays patterns itself (the kernel's trigger): every flash handed to it is played again.
    final class RecordingPatternLED: LEDPatternOutput, Sendable {
        let played = Mutex<[String]>([])
        func write(_ color: LEDColor) throws {}
        func play(_ pattern: LEDPattern, once: Bool) throws { played.withLock { $0.append(pattern.name) } }
        var acks: Int { played.withLock { $0.count { $0 == LEDPattern.ack.name } } }
    }

    static let timings = GestureRecognizer.Timings(DoseConstants.box.gestures)

    static func acknowledger(_ led: RecordingLED) -> PressAcknowledger {
        // Without animation a flash is written and over at once: its write is what counts here.
        PressAcknowledger(recognizers: ["dose": GestureRecognizer(timings: timings, activeLow: true)],
                          led: LEDPlayer(output: led, animate: false), now: { .milliseconds(999) })
    }

    static func edge(_ button: String = "dose", pressed: Bool, ms: Int64) -> ButtonInput {
        .edge(ButtonEdge(button: button, edge: RawEdge(.init(pressed: pressed, activeLow: true), at: .milliseconds(ms))))
    }

    /// The engine's side: its recogniser takes the edge, and is handed back.
    static func engineHandles(_ input: ButtonInput, _ r: inout GestureRecognizer, _ ack: PressAcknowledger) {
        guard case .edge(let e) = input else { return }
        _ = r.handle(e.edge, doubleEnabled: true)
        ack.handled(e.button, recognizer: r)
    }

    @Test func aPressIsFlashedOnTheReadersThreadOnce() {
        let led = RecordingLED(), ack = Self.acknowledger(led)
        ack.handing(Self.edge(pressed: true, ms: 1000))
        #expect(led.whites == 1)
        #expect(ack.takeFlash(button: "dose", edge: .milliseconds(1000)) == .milliseconds(999))
        #expect(ack.takeFlash(button: "dose", edge: .milliseconds(1000)) == nil, "the engine finds it once")
        #expect(ack.takeFlash(button: "dose", edge: .milliseconds(2000)) == nil, "another press's")
    }

    @Test func aBounceIsNoPressAndIsNotFlashed() {
        let led = RecordingLED(), ack = Self.acknowledger(led)
        var r = GestureRecognizer(timings: Self.timings, activeLow: true)
        let bounce = Self.timings.debounce.nanoseconds / 1_000_000 / 3
        for (pressed, ms) in [(true, 1000), (false, 1000 + bounce), (true, 1000 + 2 * bounce)] {
            let input = Self.edge(pressed: pressed, ms: ms)
            ack.handing(input)
            Self.engineHandles(input, &r, ack)
        }
        #expect(led.whites == 1, "the first edge is the press; the rest are its bounce")
    }

    @Test func aCopyTheEngineHasNotCaughtUpWithIsNotTrusted() {
        let led = RecordingLED(), ack = Self.acknowledger(led)
        var r = GestureRecognizer(timings: Self.timings, activeLow: true)
        // A press and its release handed over; the engine has handled neither when the next press comes.
        let first = [Self.edge(pressed: true, ms: 1000), Self.edge(pressed: false, ms: 1200)]
        for input in first { ack.handing(input) }
        ack.handing(Self.edge(pressed: true, ms: 1400))
        #expect(led.whites == 1, "the second press is left to the engine")
        #expect(ack.takeFlash(button: "dose", edge: .milliseconds(1400)) == nil)
        // Once the engine has caught up, a press is flashed here again.
        for input in first + [Self.edge(pressed: true, ms: 1400), Self.edge(pressed: false, ms: 1600)] {
            Self.engineHandles(input, &r, ack)
        }
        ack.handing(Self.edge(pressed: false, ms: 1600))
        ack.handing(Self.edge(pressed: true, ms: 9000))
        #expect(led.whites == 2)
        #expect(ack.takeFlash(button: "dose", edge: .milliseconds(9000)) != nil)
    }

    @Test func anUnknownButtonIsNotFlashed() {
        let led = RecordingLED(), ack = Self.acknowledger(led)
        ack.handing(Self.edge("nope", pressed: true, ms: 1000))
        #expect(led.whites == 0)
    }

    /// The whole box on the real clock: the flash is written before the engine takes the
    /// press up, and the engine does not write it again.
    @Test func onTheRealClockThePressShowsBeforeTheEngineTakesItUp() async throws {
        let config = try BoxConfig.load(path: nil, isolation: .inProcess)
        let board = try SimulatedBoard(config: config), led = RecordingPatternLED()
        let hardware = Engine.Hardware(led: LEDPlayer(output: led, animate: true), audio: WavSink(clock: { .zero }),
                                       edges: board.buttons, simulatedGPIO: board.gpio)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ack-\(UUID().uuidString.prefix(8))")
        let engine = Engine(state: BoxState.rebuilt(settings: config.settings(), records: []), log: nil, stateDirectory: dir,
                            clock: RealClock(), hardware: hardware, config: config, logger: Logger(label: "test"))
        await engine.start()
        #expect(await engine.handle(.bench(.inject(button: "dose", pressed: true)), uid: 1000).ok)
        let m = try #require(await engine.handle(.bench(.metrics), uid: 1000).metrics)
        let shown = try #require(m["press_to_led_ms"]?.first), takenUp = try #require(m["press_taken_up_ms"]?.first)
        #expect(shown <= takenUp, "written on the reader's thread: \(shown) ms, taken up at \(takenUp) ms")
        #expect(led.acks == 1, "played once: \(led.played.withLock { $0 })")
        await engine.shutdown()
    }
}
