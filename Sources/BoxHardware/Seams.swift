import DoseCore
import Foundation

// The small protocols between the daemon and the hardware. Each has a real backend
// (libgpiod, ALSA) and a simulated one (sim buttons, sim LED, WAV sink), so the same
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

/// Where button edges come from.
public protocol EdgeSource: Sendable {
    /// Every edge of every configured button, in the order the kernel saw them. The stream
    /// finishes when the source is closed or fails for good.
    func edges() -> AsyncStream<ButtonEdge>
    func close()
    /// How many edges the stream has yielded so far: the engine compares it with the edges
    /// it has handled, so a gesture deadline is never decided while earlier edges still
    /// wait in the stream (and a simulated press waits until its edges were handled). Nil
    /// for a source that does not count.
    var edgesYielded: Int? { get }
    /// Whether edges wait where the source has not read them yet (the kernel's queue of a
    /// GPIO line). The engine holds a gesture deadline while they do: the kernel stamped
    /// them, perhaps before the deadline, and a decision taken without them would see a
    /// stale level and take them late (a bouncy press read as a double). False for a source
    /// that cannot tell.
    var hasUnreadEdges: Bool { get }
}

extension EdgeSource {
    public var edgesYielded: Int? { nil }
    public var hasUnreadEdges: Bool { false }
}

/// Turns the LED on in a colour, or off (`.off`). The pattern player calls this at each
/// segment boundary; a single-colour LED lights for any colour but `.off`.
public protocol LEDOutput: Sendable {
    func write(_ color: LEDColor) throws
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
