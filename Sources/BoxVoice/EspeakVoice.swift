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

    /// A language espeak-ng was asked about already (by the config's vetting child): espeak-ng
    /// is loaded when the first sentence is made, not now.
    public init(vouchedFor language: String) {
        self.language = language
    }

    public func clip(_ text: String, sampleRate: Int) throws -> SpeechClip {
        let r = try Synthesizer.shared.synthesize(text, voice: language)
        return SpeechClip(text: text, samples: Resample.linear(r.samples, from: r.sampleRate, to: sampleRate))
    }

    /// espeak-ng's chunks, resampled as they come, into the stream; stops early when the
    /// player has dropped the sentence.
    public func stream(_ text: String, sampleRate: Int, into stream: SpeechStream) {
        var resampler: Resample.Stream?
        do {
            _ = try Synthesizer.shared.synthesize(text, voice: language) { chunk, rate in
                if resampler == nil { resampler = Resample.Stream(from: rate, to: sampleRate) }
                stream.append(resampler!.push(chunk))
                return !stream.isCancelled
            }
            if let rest = resampler?.finish() { stream.append(rest) }
            stream.finish()
        } catch {
            stream.finish(failure: "\(error)")
        }
    }
}

/// Sample-rate conversion by linear interpolation: enough for speech, whose energy lies well
/// below the 8 kHz the 16 kHz player carries.
public enum Resample {
    public static func linear(_ samples: [Int16], from: Int, to: Int) -> [Int16] {
        var stream = Stream(from: from, to: to)
        return stream.push(samples) + stream.finish()
    }

    /// The same conversion a chunk at a time: every output sample is made as soon as the two
    /// input samples around it are in, and the whole equals `linear` of the whole.
    public struct Stream: Sendable {
        let from: Int, to: Int
        let step: Double
        private var source: [Int16] = []
        private var produced = 0

        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
            step = Double(from) / Double(max(to, 1))
        }

        private var passThrough: Bool { from == to || from <= 0 || to <= 0 }

        /// The output count for `n` input samples.
        private func count(_ n: Int) -> Int { Int((Double(n) * Double(to) / Double(from)).rounded(.down)) }

        public mutating func push<C: Collection<Int16>>(_ chunk: C) -> [Int16] {
            if passThrough { return Array(chunk) }
            source.append(contentsOf: chunk)
            var out: [Int16] = []
            while produced < count(source.count), Int(Double(produced) * step) <= source.count - 2 {
                out.append(sample(produced))
                produced += 1
            }
            return out
        }

        /// The last samples, whose right-hand neighbour is the input's last sample.
        public mutating func finish() -> [Int16] {
            guard !passThrough else { return [] }
            guard source.count > 1 else {
                defer { produced = source.count }
                return Array(source[min(produced, source.count)...])
            }
            var out: [Int16] = []
            while produced < count(source.count) {
                out.append(sample(produced))
                produced += 1
            }
            return out
        }

        private func sample(_ i: Int) -> Int16 {
            let x = Double(i) * step
            let j = min(Int(x), source.count - 2)
            let f = x - Double(j)
            return Int16(clamping: Int((Double(source[j]) * (1 - f) + Double(source[j + 1]) * f).rounded()))
        }
    }
}
