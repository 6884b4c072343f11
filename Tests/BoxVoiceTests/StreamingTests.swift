import BoxHardware
import BoxVoice
import Foundation
import Testing

/// The first words sound before the last are made (#15: hold to first spoken sample
/// ≤ 300 ms): espeak-ng hands its speech over in chunks as it goes, the resampling keeps up
/// chunk by chunk, and the whole is the same sentence as the one made at once.
@Suite(.serialized) struct StreamingTests {
    static let status = "Dose 1 at 10:02 PM. Window open. Take Dose 2 now; 41 minutes left."

    @Test func espeakHandsOverASentenceInChunksAsItGoes() throws {
        var chunks: [Int] = []
        _ = try Synthesizer.shared.synthesize(Self.status) { chunk, _ in
            chunks.append(chunk.count)
            return true
        }
        let total = chunks.reduce(0, +)
        #expect(chunks.count >= 10, "\(chunks.count) chunks")
        // The first chunk is a small part of a 5 s sentence: the player can start on it.
        #expect(Double(chunks[0]) < 0.1 * Double(total), "first \(chunks[0]) of \(total) samples")
    }

    /// espeak-ng's own chunks resampled one at a time are the whole resampled at once (two
    /// runs of espeak-ng differ by a few samples, so the same run is compared).
    @Test func theStreamIsTheSentenceMadeAtOnce() throws {
        var raw: [Int16] = []
        var resampler: Resample.Stream?
        var streamed: [Int16] = []
        let rate = try Synthesizer.shared.synthesize(Self.status) { chunk, rate in
            if resampler == nil { resampler = Resample.Stream(from: rate, to: 16_000) }
            raw += chunk
            streamed += resampler!.push(chunk)
            return true
        }
        streamed += resampler?.finish() ?? []
        let whole = Resample.linear(raw, from: rate, to: 16_000)
        // Compared by count and first difference: a failure must not print a million samples.
        try #require(streamed.count == whole.count)
        #expect(streamed.indices.first { streamed[$0] != whole[$0] } == nil)

        // And EspeakVoice's stream is that sentence: its length within 1 % of one made at once.
        let voice = try EspeakVoice(language: "en")
        let stream = SpeechStream(text: Self.status)
        voice.stream(Self.status, sampleRate: 16_000, into: stream)
        let made = try #require(stream.clip).samples.count
        #expect(abs(Double(made) / Double(whole.count) - 1) < 0.01, "\(made) against \(whole.count)")
        #expect(stream.failure == nil)
    }

    @Test func aCancelledSentenceStopsBeingMade() throws {
        let voice = try EspeakVoice(language: "en")
        let stream = SpeechStream(text: Self.status)
        stream.cancel()  // the player dropped it before its first chunk was made
        voice.stream(Self.status, sampleRate: 16_000, into: stream)
        let whole = try voice.clip(Self.status, sampleRate: 16_000)
        guard case .samples(let made) = stream.read(from: 0, max: .max, timeout: .zero) else {
            Issue.record("not even the first chunk")
            return
        }
        #expect(made.count < whole.samples.count / 4, "\(made.count) of \(whole.samples.count)")
        #expect(stream.clip == nil, "a cut-short sentence is not kept for next time")
    }

    @Test func aSynthesiserThatCannotStreamStillFailsTheStreamWithTheReason() {
        let stream = SpeechStream(text: "hello")
        struct NoVoice: Error, CustomStringConvertible {
            var description: String { "espeak-ng has no voice named klingon" }
        }
        struct Broken: SpeechSynthesizer {
            func clip(_ text: String, sampleRate: Int) throws -> SpeechClip { throw NoVoice() }
        }
        Broken().stream("hello", sampleRate: 16_000, into: stream)
        #expect(stream.read(from: 0, max: 10, timeout: .zero) == .failed("espeak-ng has no voice named klingon"))
    }

    /// Any split of the input into chunks gives the samples `Resample.linear` gives the whole.
    @Test(arguments: [(22_050, 16_000), (16_000, 22_050), (44_100, 16_000), (16_000, 16_000)])
    func resamplingAChunkAtATimeIsResamplingTheWhole(from: Int, to: Int) {
        var seed: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for length in [0, 1, 2, 3, 7, 100, 1_337] {
            let input = (0..<length).map { _ in Int16(truncatingIfNeeded: next(65_536) - 32_768) }
            var stream = Resample.Stream(from: from, to: to)
            var out: [Int16] = []
            var i = 0
            while i < input.count {
                let n = min(input.count - i, 1 + next(200))
                out += stream.push(input[i..<(i + n)])
                i += n
            }
            out += stream.finish()
            #expect(out == Resample.linear(input, from: from, to: to), "\(length) samples \(from)->\(to)")
        }
    }
}
