@testable import BoxDaemon
import BoxHardware
import DoseCore
import Foundation
import Logging
import Synchronization
import Testing

/// The voice on the real clock (#15): a sentence takes its turn in the player at once, before
/// it is made, so a sound after it still comes after it and the player can start on the
/// first chunk; it is made on a thread of its own below the LED and the tones.
@Suite struct VoiceTests {
    /// Records what it is asked, in order; never plays.
    final class Player: SpeechStreamPlayer {
        let asked = Mutex<[String]>([])
        let streams = Mutex<[SpeechStream]>([])
        func play(_ sound: Sound, volume: Double, repeatFor: Duration?) { asked.withLock { $0.append("play \(sound)") } }
        func say(_ clip: SpeechClip, volume: Double) { asked.withLock { $0.append("say clip \(clip.text)") } }
        func say(_ stream: SpeechStream, volume: Double) {
            asked.withLock { $0.append("say stream \(stream.text)") }
            streams.withLock { $0.append(stream) }
        }
        func stop() {}
        var sampleRate: Int { 16_000 }
        var fault: String? { nil }
    }

    /// Makes a sentence only once the test lets it, and notes the nice value it ran at.
    final class Synth: SpeechSynthesizer {
        let go = DispatchSemaphore(value: 0)
        let nice = Mutex<Int32?>(nil)
        func clip(_ text: String, sampleRate: Int) throws -> SpeechClip {
            go.wait()
            nice.withLock { $0 = Voice.currentThreadNice() }
            return SpeechClip(text: text, samples: [1, 2, 3])
        }
    }

    @Test func aSentenceTakesItsTurnBeforeItIsMadeAndIsMadeBelowTheTones() async throws {
        let player = Player(), synth = Synth()
        let voice = Voice(synthesizer: synth, player: player, volume: 1, synchronous: false,
                          waitAhead: .seconds(30), logger: Logger(label: "test"))
        voice.say("Dose 1 recorded.")
        player.play(.alarm(.mainAlarm, .critical), volume: 1, repeatFor: nil)
        // The sentence was handed over first although nothing of it is made yet.
        #expect(player.asked.withLock { $0 } == ["say stream Dose 1 recorded.", "play \(Sound.alarm(.mainAlarm, .critical))"])
        let stream = try #require(player.streams.withLock { $0.first })
        #expect(stream.read(from: 0, max: 10, timeout: .zero) == .waiting)
        synth.go.signal()
        #expect(stream.read(from: 0, max: 10, timeout: .seconds(10)) == .samples([1, 2, 3]))
        await voice.made()
        #expect(synth.nice.withLock { $0 } == Voice.nice)

        // Made once: the next time it is the kept clip, said at once.
        voice.say("Dose 1 recorded.")
        #expect(player.asked.withLock { $0 }.last == "say clip Dose 1 recorded.")
    }
}
