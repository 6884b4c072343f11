import BoxHardware
import DoseCore
import Synchronization

/// A press's flash written on the edge's own thread (#34, "the press path"). The engine takes an
/// edge up one thread hop after the reader handed it over (about 0.08 ms) and answers after a
/// whole pass of the reducer (about 0.14 ms). The flash of a button going down
/// (`Effect.pressAcknowledgement`) records nothing and depends only on the recogniser's verdict,
/// so it need not wait for either: the reader steps a copy of the button's recogniser with the
/// edge, and on `.pressed` writes the flash itself; the engine then finds it written.
///
/// The copy is the engine's own, handed back after every edge it handled. Only when the engine
/// has handled every earlier edge of that button is the copy current; otherwise the flash is
/// left to the engine. Only on real time: on the simulated clock the LED's history follows the
/// engine's order exactly, for the tests.
final class PressAcknowledger: Sendable {
    private struct Button {
        var recognizer: GestureRecognizer
        /// The edges handed to the engine, and those it has handled.
        var handed = 0
        var handled = 0
        /// The press whose flash was written here (its edge's stamp), and when (the edge clock).
        var flashed: (edge: Duration, at: Duration)?
    }

    private let buttons: Mutex<[String: Button]>
    private let led: LEDPlayer
    private let now: @Sendable () -> Duration

    init(recognizers: [String: GestureRecognizer], led: LEDPlayer, now: @escaping @Sendable () -> Duration) {
        buttons = Mutex(recognizers.mapValues { Button(recognizer: $0) })
        self.led = led
        self.now = now
    }

    /// On the reader's thread, as it hands `input` to the engine's stream.
    func handing(_ input: ButtonInput) {
        guard case .edge(let e) = input, case .flash(let pattern, let duration) = Effect.pressAcknowledgement else { return }
        buttons.withLock { all in
            guard var b = all[e.button] else { return }
            if b.handed == b.handled {
                var copy = b.recognizer
                // Whether a double press means anything decides only what a release is, never a press.
                if copy.handle(e.edge, doubleEnabled: true).contains(where: { $0.gesture == .pressed }) {
                    led.flash(pattern, duration: duration)
                    b.flashed = (e.edge.at, now())
                }
            }
            b.handed += 1
            all[e.button] = b
        }
    }

    /// On the engine: `button`'s recogniser as it stands after one of its edges, or (`edge`
    /// false) after deadlines passed.
    func handled(_ button: String, recognizer: GestureRecognizer, edge: Bool = true) {
        buttons.withLock { all in
            all[button]?.recognizer = recognizer
            if edge { all[button]?.handled += 1 }
        }
    }

    /// When the flash of `button`'s press stamped `edge` was written here; nil if it was not.
    func takeFlash(button: String, edge: Duration) -> Duration? {
        buttons.withLock { all in
            guard let f = all[button]?.flashed, f.edge == edge else { return nil }
            all[button]?.flashed = nil
            return f.at
        }
    }
}
