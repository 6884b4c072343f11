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
