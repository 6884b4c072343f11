import BoxVoice
import BoxWords
import DoseCore
import Foundation
import Testing

/// espeak-ng on the box (#15, begun): the core's sentences become speech of plausible length
/// and level, and the phonemes say it was the right sentence.
@Suite(.serialized) struct SynthesizerTests {
    static func seconds(_ r: (samples: [Int16], sampleRate: Int)) -> Double { Double(r.samples.count) / Double(r.sampleRate) }
    static func peak(_ s: [Int16]) -> Double { Double(s.map { abs(Int($0)) }.max() ?? 0) / Double(Int16.max) }
    /// The remaining-time warning's sentence, `minutesLeft` before the close.
    static func warning(_ minutesLeft: Double) -> String {
        Speech.alert(.remainingWarning, elapsed: .minutes(DoseConstants.box.window.closeMin - minutesLeft))
    }

    @Test func aWarningIsSpeechOfPlausibleLengthAndLevel() throws {
        let text = Self.warning(5)  // "Dose window closing in 5 minutes."
        let r = try Synthesizer.shared.synthesize(text)
        #expect(r.sampleRate == 22050)
        // Six words at espeak-ng's 175 words a minute: about two seconds, not silence, not a click.
        #expect((1.0...4.0).contains(Self.seconds(r)), "\(Self.seconds(r)) s")
        #expect(Self.peak(r.samples) > 0.2, "peak \(Self.peak(r.samples))")
        // A longer sentence takes longer.
        let status = try Synthesizer.shared.synthesize("Dose 1 at 10:00 PM. Window open. Take Dose 2 now; 41 minutes left.")
        #expect(Self.seconds(status) > Self.seconds(r) + 1)
    }

    @Test func thePhonemesTellTheSentencesApart() throws {
        let five = try Synthesizer.shared.phonemes(Self.warning(5))
        let fifteen = try Synthesizer.shared.phonemes(Self.warning(15))
        #expect(five != fifteen)
        // espeak-ng's own phoneme names: "d'oUs w'IndoU kl'oUzIN In f'Ifti:n m'InIts".
        #expect(five.contains("f'aIv") && !five.contains("f'Ifti:n"), "\(five)")
        #expect(fifteen.contains("f'Ifti:n") && !fifteen.contains("f'aIv"), "\(fifteen)")
        #expect(five.hasPrefix("d'oUs w'IndoU kl'oUzIN"), "\(five)")
    }

    @Test func anUnknownVoiceIsAClearError() {
        #expect(throws: Synthesizer.Failure.self) { try Synthesizer.shared.synthesize("hello", voice: "klingon") }
    }
}
