import BoxHardware
import BoxVoice
import BoxWords
import DoseCore
import Foundation
import Testing

/// #15 on the real boxd: the night's sentences after their tones, and speech that reaches a
/// WAV through real alsa-lib, checked by a round trip through its text.
@Suite struct SpokenNightsTests {
    /// The seed's announcements through a night, each once its alarm has rung out (60 s, with
    /// the time left then); a hold's status; the doses said as recorded. boxctl stays silent.
    @Test func aSpokenNight() throws {
        try night("""
        at 22:00 press dose
        expect sound success
        expect said Dose 1 taken at 10:00 PM.
        advance 78m
        press dose hold 1200
        expect sound status
        expect said Dose 1 at 10:00 PM. Dose 2 from 12:30 AM, in 1 hour 11 minutes.   # the hold took 1.2 s of the 72nd minute
        advance 72m
        expect sound window_open gentle
        advance 1m
        expect said Dose window open. Take Dose 2 now.
        advance 9m
        expect sound pre_alarm standard
        boxctl snooze                       # stops the ring: its words are not said
        advance 51m
        expect said Dose window closing in 29 minutes.
        press dose
        expect sound success
        expect said Dose 2 taken at 1:31 AM. Good night.
        boxctl log bathroom
        expect silence
        """)
    }

    /// #32: Dose 2 skipped at the bedside by the long hold, the reason asked and answered by
    /// one press; then a hold cancels a second skip before anything is recorded.
    @Test func aSkipByTheLongHoldWithItsReason() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        var s = Scenario("""
        at 22:00 press dose
        expect sound success
        advance 170m
        press dose hold 3200
        expect sound skip_hold
        expect said Skipping Dose 2. Why? Press once if drowsy, twice for side effects, or wait. Hold to cancel.
        expect doses 0 dose2_skipped
        press dose
        advance 1s
        expect sound success
        expect said Dose 2 skipped (drowsy). To undo, hold the button within 5 seconds. Good night.
        """, rig: rig)
        try s.run()
        let skips = try s.exportedDoses().filter { $0["event_type"] == "dose2_skipped" }
        #expect(skips.map { $0["reason"] } == ["drowsy"], "\(skips)")
    }

    /// `[voice] enabled = false`: the same night's tones, not a word.
    @Test func theVoiceSwitchedOff() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("voice-off-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("boxd.toml")
        try "[voice]\nenabled = false\nclock = \"24h\"\n".write(to: config, atomically: true, encoding: .utf8)
        let rig = try BoxRig(args: ["--config", config.path])
        defer { rig.cleanup() }
        var s = Scenario("""
        press dose
        expect sound success
        advance 150m
        expect sound window_open gentle
        """, rig: rig)
        try s.run()
        #expect(try s.newSpeech().isEmpty)
        #expect(try rig.boxctl(["config", "show"]).out.contains("voice.enabled"))
    }

    /// Speech through real alsa-lib (the `file` plugin, as the tones' test): a hold asks for the
    /// status, then `boxctl test voice` returns once its own sentence has been written, and the
    /// capture ends with speech of that sentence's length and level at the voice's volume.
    @Test func aSpokenStatusThroughRealAlsaLib() throws {
        let capture = try ALSAFileCapture()
        defer { capture.cleanup() }
        let rig = capture.rig, wav = capture.wav
        var s = Scenario("""
        press dose
        advance 199m
        press dose hold 1200
        expect sound status
        expect said Window open. Take Dose 2 now
        """, rig: rig)
        try s.run()
        // `test voice` returns once its own sentence is written; a clean stop writes the header.
        let test = try rig.boxctl(["test", "voice"])
        #expect(test.exit == 0 && test.out.contains("synthesis"), "\(test.out)\(test.err)")
        #expect(rig.terminate() == 0)
        let said = Speech.voiceTest
        let expected = try EspeakVoice(language: "en").clip(said, sampleRate: ToneSynth.defaultSampleRate).samples(volume: 0.8)
        let audio = try WavFile.read(path: wav.path)
        let samples = audio.mono
        let seconds = Double(expected.count) / Double(ToneSynth.defaultSampleRate)
        #expect((1.5...8.0).contains(seconds), "\(seconds) s of speech for \(said.split(separator: " ").count) words")
        let peak = Double(expected.map { abs(Int($0)) }.max() ?? 0) / Double(Int16.max)
        #expect(peak > 0.15, "peak \(peak)")
        // The last thing boxd wrote is the test sentence (then a buffer of silence): as long and
        // as loud as the same sentence synthesised here. Which words were said is checked by the
        // log (`expect said`) and by espeak-ng's phonemes (SynthesizerTests); sample for sample
        // the two syntheses differ (espeak-ng carries state from one sentence to the next).
        let captured = Array(samples.reversed().drop { $0 == 0 }.reversed())
        let sentence = Array(expected.reversed().drop { $0 == 0 }.reversed())
        try #require(captured.count >= sentence.count, "the capture (\(captured.count) samples) is shorter than the sentence (\(sentence.count))")
        let tail = Array(captured.suffix(sentence.count))
        let ratio = Self.rms(tail) / Self.rms(sentence)
        #expect((0.8...1.25).contains(ratio), "level ratio \(ratio) over the sentence's \(sentence.count) samples")
    }

    static func rms(_ s: [Int16]) -> Double {
        s.isEmpty ? 0 : (s.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(s.count)).squareRoot()
    }
}
