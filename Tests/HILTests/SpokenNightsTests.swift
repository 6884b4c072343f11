import BoxHardware
import BoxVoice
import Foundation
import Testing

/// #15 on the real boxd: the night's sentences after their tones, and speech that reaches a
/// WAV through real alsa-lib, checked by a round trip through its text.
@Suite struct SpokenNightsTests {
    /// The seed's announcements through a night, each after its tone; a hold's status; the
    /// doses said as recorded. boxctl's own actions stay silent.
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
        expect said Dose window open. Take Dose 2 now.
        advance 10m
        expect said Time for Dose 2. 1 hour 20 minutes left.
        boxctl snooze
        advance 50m
        expect said Dose window closing in 30 minutes.
        press dose
        expect sound success
        expect said Dose 2 taken at 1:30 AM. Good night.
        boxctl log bathroom
        expect silence
        """)
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

    /// The status a hold asks for, through real alsa-lib (the `file` plugin, as the tones' test):
    /// after the status chirp, the capture holds exactly the samples espeak-ng makes of the
    /// sentence boxd logged, at the voice's volume: the right sentence, of plausible length
    /// and level.
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
        let said = "Dose 1 at 10:00 PM. Window open. Take Dose 2 now; 40 minutes left."
        // Give the audio thread the sentence's length to write it out, then stop boxd cleanly
        // (the WAV header is written on close).
        let expected = try EspeakVoice(language: "en").clip(said, sampleRate: ToneSynth.defaultSampleRate).samples(volume: 0.8)
        // `test voice` waits until its own sentence is written: the status's, before it, is too.
        let test = try rig.boxctl(["test", "voice"])
        #expect(test.exit == 0, "\(test.err)")
        #expect(rig.terminate() == 0)
        let audio = try WavFile.read(path: wav.path)
        let samples = audio.mono
        let seconds = Double(expected.count) / Double(ToneSynth.defaultSampleRate)
        #expect((2.0...8.0).contains(seconds), "\(seconds) s of speech for \(said.split(separator: " ").count) words")
        let peak = Double(expected.map { abs(Int($0)) }.max() ?? 0) / Double(Int16.max)
        #expect(peak > 0.15, "peak \(peak)")
        // The round trip: the sentence boxd said, synthesised again here, begins in the capture
        // sample for sample (espeak-ng is deterministic), and the capture from there carries as
        // much sound as the sentence does.
        let head = Array(expected.drop { $0 == 0 }.prefix(400))
        let start = try #require(Self.find(head, in: samples), "the sentence's first samples are not in the \(samples.count)-sample capture")
        let lead = expected.prefix { $0 == 0 }.count
        let window = Array(samples[(start - lead)..<min(samples.count, start - lead + expected.count)])
        let ratio = Self.rms(window) / Self.rms(expected)
        #expect(window.count == expected.count && (0.8...1.25).contains(ratio),
                "\(window.count) of \(expected.count) samples captured, \(ratio) of the sentence's level")
    }

    static func rms(_ s: [Int16]) -> Double {
        s.isEmpty ? 0 : (s.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(s.count)).squareRoot()
    }

    static func find(_ needle: [Int16], in haystack: [Int16]) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var i = 0
        while i + needle.count <= haystack.count {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
