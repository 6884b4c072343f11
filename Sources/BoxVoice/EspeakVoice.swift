import BoxHardware

/// The box's voice for the player: espeak-ng in one language, its 22050 Hz speech brought to
/// the player's rate (the tones' 16 kHz).
public struct EspeakVoice: SpeechSynthesizer {
    public let language: String

    /// Refuses a language espeak-ng has no voice for, so a config names its mistake at start.
    public init(language: String) throws(Synthesizer.Failure) {
        guard try Synthesizer.shared.hasVoice(language) else {
            throw Synthesizer.Failure(description: "espeak-ng has no voice named \(language) (espeak-ng --voices lists them)")
        }
        self.language = language
    }

    public func clip(_ text: String, sampleRate: Int) throws -> SpeechClip {
        let r = try Synthesizer.shared.synthesize(text, voice: language)
        return SpeechClip(text: text, samples: Resample.linear(r.samples, from: r.sampleRate, to: sampleRate))
    }
}

/// Sample-rate conversion by linear interpolation: enough for speech, whose energy lies well
/// below the 8 kHz the 16 kHz player carries.
public enum Resample {
    public static func linear(_ samples: [Int16], from: Int, to: Int) -> [Int16] {
        guard from != to, from > 0, to > 0, samples.count > 1 else { return samples }
        let count = Int((Double(samples.count) * Double(to) / Double(from)).rounded(.down))
        let step = Double(from) / Double(to)
        return (0..<count).map { i in
            let x = Double(i) * step
            let j = min(Int(x), samples.count - 2)
            let f = x - Double(j)
            return Int16(clamping: Int((Double(samples[j]) * (1 - f) + Double(samples[j + 1]) * f).rounded()))
        }
    }
}
