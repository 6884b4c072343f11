import DoseCore
import Foundation

// The small protocols between the daemon and the hardware. Each has a real backend
// (libgpiod, ALSA) and a simulated one (the simulated GPIO chip, the WAV sink), so the same
// daemon runs on a Raspberry Pi, in the test rig and on a laptop.

/// One raw edge on a named button line. `edge.at` is on the edge clock: the kernel's
/// CLOCK_MONOTONIC for libgpiod, the sim clock in simulation. Never compare it with
/// CLOCK_BOOTTIME readings.
public struct ButtonEdge: Sendable, Hashable {
    public var button: String
    public var edge: RawEdge
    public init(button: String, edge: RawEdge) {
        self.button = button
        self.edge = edge
    }
}

/// What the buttons report, in the order it happened.
public enum ButtonInput: Sendable, Hashable {
    case edge(ButtonEdge)
    /// The edge clock has reached the deadline asked for with `EdgeSource.wake(at:)`.
    case deadline(Duration)
}

/// Where button edges come from: one ordered stream of the buttons' edges and the gesture
/// deadlines the engine asks for. A deadline comes after every edge stamped before it: the
/// source takes it only once its lines hold no unread edge (a GPIO reader reads its lines
/// first), so a gesture is never decided ahead of an edge that came before its deadline (a
/// bouncy release read as a second press).
public protocol EdgeSource: Sendable {
    /// Hands every edge of every configured button, in the order the kernel saw them, and
    /// each deadline asked for once it has passed, to `sink`, from the source's own thread
    /// (no hop of its own); inputs that came before are handed over first. The sink is
    /// finished when the source is closed or fails for good. Call once.
    func start(_ sink: ButtonSink)
    /// Asks for one `.deadline` input when the edge clock reaches `deadline`; nil asks for
    /// none. Replaces the request before it.
    func wake(at deadline: Duration?)
    func close()
}

extension EdgeSource {
    /// The inputs as a stream of their own, for a reader of just the buttons. It finishes
    /// when the source ends.
    public func inputs() -> AsyncStream<ButtonInput> {
        let (stream, continuation) = AsyncStream<ButtonInput>.makeStream(bufferingPolicy: .unbounded)
        start(ButtonSink(yield: { continuation.yield($0) }, finish: { continuation.finish() }))
        return stream
    }
}

/// Where an edge source hands its inputs: called on the source's thread, in order, and
/// never blocking (the engine's sink yields into its one input stream).
public struct ButtonSink: Sendable {
    private let take: @Sendable (ButtonInput) -> Void
    private let end: @Sendable () -> Void

    public init(yield: @escaping @Sendable (ButtonInput) -> Void, finish: @escaping @Sendable () -> Void) {
        take = yield
        end = finish
    }

    public func yield(_ input: ButtonInput) { take(input) }
    /// The source has ended: nothing more comes.
    public func finish() { end() }
}

/// Turns the LED on in a colour, or off (`.off`). The pattern player calls this at each
/// segment boundary; a single-colour LED lights for any colour but `.off`.
public protocol LEDOutput: Sendable {
    func write(_ color: LEDColor) throws
}

/// An LED that plays a whole pattern by itself (the kernel's `pattern` trigger), so the
/// player hands it each pattern once and does not wake at every segment: the box's process
/// stays asleep through a night of blinking. `once`: one pass, then dark; otherwise it
/// repeats until the next `play`.
public protocol LEDPatternOutput: LEDOutput {
    func play(_ pattern: LEDPattern, once: Bool) throws
}

/// Plays the box's sounds. `play` returns at once (audio runs on its own thread) and
/// replaces whatever is playing; alarms repeat until `stop()` or until `repeatFor` has
/// passed, other sounds play once.
///
/// Speech (`say`) goes through the same player, one device and one fault path, and never
/// hides a tone: it waits until the sound before it has played (an alarm: its whole ring),
/// and a later `play` or a `stop` drops it (`onSpeechDropped`).
public protocol TonePlayer: Sendable {
    func play(_ sound: Sound, volume: Double, repeatFor: Duration?)
    func say(_ clip: SpeechClip, volume: Double)
    func stop()
    var sampleRate: Int { get }
    /// The current failure, if the device is broken (it keeps retrying), else nil.
    var fault: String? { get }
    /// Tries a broken device again now (the daemon calls it on its retry schedule).
    func retryIfBroken()
}

extension TonePlayer {
    /// Players that retry on their own thread (ALSA) need nothing more.
    public func retryIfBroken() {}
}

/// A sentence as sound: 16-bit mono samples at the player's `sampleRate`.
public struct SpeechClip: Sendable, Hashable {
    public var text: String
    public var samples: [Int16]

    public init(text: String, samples: [Int16]) {
        self.text = text
        self.samples = samples
    }

    /// The samples at `volume` (0…1), scaled in software as the tones are.
    public func samples(volume: Double) -> [Int16] { Self.scaled(samples, volume: volume) }

    public static func scaled(_ samples: [Int16], volume: Double) -> [Int16] {
        samples.map { Int16(clamping: Int((Double($0) * volume).rounded())) }
    }
}

/// Makes a sentence into sound, on the box (espeak-ng: `BoxVoice`).
public protocol SpeechSynthesizer: Sendable {
    func clip(_ text: String, sampleRate: Int) throws -> SpeechClip
    /// Makes `text` into `stream` as it goes and finishes it (with the failure, if any).
    func stream(_ text: String, sampleRate: Int, into stream: SpeechStream)
}

extension SpeechSynthesizer {
    /// A synthesiser that cannot stream hands over the whole sentence at once.
    public func stream(_ text: String, sampleRate: Int, into stream: SpeechStream) {
        do {
            stream.append(try clip(text, sampleRate: sampleRate).samples)
            stream.finish()
        } catch {
            stream.finish(failure: "\(error)")
        }
    }
}

/// A player that starts a sentence before it is all made (ALSA): it writes the stream's
/// samples as they come, in the sentence's turn; a newer sound or a stop drops and cancels it.
public protocol SpeechStreamPlayer: TonePlayer {
    func say(_ stream: SpeechStream, volume: Double)
}
