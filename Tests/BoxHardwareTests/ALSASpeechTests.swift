import BoxALSA
import BoxHardware
import DoseCore
import Foundation
import Synchronization
import Testing

/// Speech through the tones' ALSA player (#15): after the sound before it (an alarm: after its
/// whole ring, never pausing it), and dropped, with a report, when a newer sound comes first.
@Suite("ALSA player: speech after the tones", .serialized)
struct ALSASpeechTests {
    /// A stand-in sentence: 100 ms of a level above any tone at the volumes used here (at most
    /// half scale), easy to find in a capture.
    static func clip(_ text: String, level: Int16 = 30_000) -> SpeechClip {
        SpeechClip(text: text, samples: [Int16](repeating: level, count: ToneSynth.defaultSampleRate / 10))
    }

    @Test("a sentence follows the chime before it, whole, and an alarm's once the alarm has rung")
    func afterTheTone() throws {
        let path = temporaryPath("speech.wav")
        defer { removeTemporary(path) }
        let player = ALSAPlayer(device: "file:FILE=\(path),FORMAT=wav")
        player.play(.success, volume: 0.5, repeatFor: nil)
        #expect(player.sayBlocking(Self.clip("recorded"), volume: 1) == nil)
        let chime = try #require(player.lastStart), said = try #require(player.lastSpeechStart)
        #expect(chime.sound == .success && said.text == "recorded" && said.at > chime.at, "the chime first")

        // 3 s of ring (1.2 s cycles: three), then the milestone.
        player.play(.alarm(.remainingWarning, .critical), volume: 0.2, repeatFor: .seconds(3))
        #expect(player.sayBlocking(Self.clip("closing in 5 minutes", level: 29_000), volume: 1, timeout: .seconds(8)) == nil)
        #expect(player.current == nil)
        player.close()

        let samples = try WavFile.read(path: path).mono
        let chimeLength = ToneSynth.samples(for: .success, volume: 0.5).count
        let first = try #require(samples.firstIndex(of: 30_000))
        #expect(first >= chimeLength, "the sentence starts after the whole chime")
        #expect(samples[first..<(first + Self.clip("").samples.count)].allSatisfy { $0 == 30_000 }, "and is whole")
        let cycle = ToneSynth.samples(for: .alarm(.remainingWarning, .critical), volume: 0.2).count
        let second = try #require(samples.firstIndex(of: 29_000))
        #expect(second >= first + 3 * cycle, "the milestone after the alarm's whole ring")
        #expect(!samples[(second + Self.clip("").samples.count)...].contains { $0 != 0 }, "and nothing after it")
    }

    @Test("a sentence still being made is written as it comes, after the chime, whole")
    func aStreamAsItIsMade() throws {
        let path = temporaryPath("stream.wav")
        defer { removeTemporary(path) }
        let player = ALSAPlayer(device: "file:FILE=\(path),FORMAT=wav")
        player.play(.success, volume: 0.5, repeatFor: nil)
        let stream = SpeechStream(text: "Dose 1 recorded.")
        player.say(stream, volume: 1)
        // The player waits for the synthesiser: the chunks come after it took its turn.
        let chunks = (1...5).map { [Int16](repeating: Int16(20_000 + $0), count: 700) }
        for chunk in chunks { stream.append(chunk) }
        stream.finish()
        #expect(player.waitUntilIdle(timeout: .seconds(5)))
        let said = try #require(player.lastSpeechStart)
        #expect(said.text == "Dose 1 recorded." && said.at > player.lastStart!.at)
        player.close()

        let samples = try WavFile.read(path: path).mono
        let first = try #require(samples.firstIndex(of: 20_001))
        #expect(first >= ToneSynth.samples(for: .success, volume: 0.5).count, "after the whole chime")
        #expect(Array(samples[first..<(first + 3_500)]) == chunks.flatMap { $0 }, "every chunk, in order")
        #expect(!samples[(first + 3_500)...].contains { $0 != 0 }, "and nothing after it")
    }

    @Test("a sentence that cannot be made is not said, and the next one is")
    func aFailedStream() throws {
        let path = temporaryPath("failed.wav")
        defer { removeTemporary(path) }
        let player = ALSAPlayer(device: "file:FILE=\(path),FORMAT=wav")
        let broken = SpeechStream(text: "broken")
        broken.finish(failure: "espeak-ng could not speak (error 1)")
        #expect(player.sayBlocking(broken, volume: 1, timeout: .seconds(5)) == "espeak-ng could not speak (error 1)")
        #expect(player.sayBlocking(Self.clip("next"), volume: 1) == nil)
        #expect(player.lastSpeechStart?.text == "next")
        player.close()
        #expect(try WavFile.read(path: path).mono.contains(30_000))
    }

    @Test("a newer sound drops a sentence still being made, and its synthesis is told to stop")
    func aStreamDropped() {
        let dropped = Mutex<[String]>([])
        let player = ALSAPlayer(device: "hw:99,0", onSpeechDropped: { text, _ in dropped.withLock { $0.append(text) } })
        player.play(.alarm(.mainAlarm, .critical), volume: 1, repeatFor: nil)
        let stream = SpeechStream(text: "Window open.")
        player.say(stream, volume: 1)
        #expect(!stream.isCancelled)
        player.play(.alarm(.followUp, .critical), volume: 1, repeatFor: nil)
        #expect(stream.isCancelled)
        #expect(dropped.withLock { $0 } == ["Window open."])
        player.close()
    }

    @Test("a newer sound drops the sentences still waiting, and says which")
    func droppedByANewerSound() {
        let dropped = Mutex<[String]>([])
        // No device: the alarm waits for one (it keeps retrying), so the sentences wait too.
        let player = ALSAPlayer(device: "hw:99,0", onSpeechDropped: { text, _ in dropped.withLock { $0.append(text) } })
        player.play(.alarm(.mainAlarm, .critical), volume: 1, repeatFor: nil)
        player.say(Self.clip("the milestone"), volume: 1)
        player.say(Self.clip("after the alarm"), volume: 1)
        player.play(.alarm(.followUp, .critical), volume: 1, repeatFor: nil)
        #expect(dropped.withLock { $0 } == ["the milestone", "after the alarm"])
        player.say(Self.clip("stopped"), volume: 1)
        player.stop()
        #expect(dropped.withLock { $0 }.last == "stopped")
        #expect(player.lastSpeechStart == nil, "nothing was said")
        player.close()
    }
}
