import BoxHardware
import Foundation
import Testing

/// The parts of the rig that leave the simulated clock or the WAV sink: a night through
/// real alsa-lib, and alarm onset on the real clock.
@Suite struct RealAudioTests {
    /// `--audio alsa:default` with ALSA_CONFIG_PATH naming a config whose default PCM is the
    /// `file` plugin over a `null` slave: real alsa-lib, no sound card. That route does not
    /// run in real time, so the captured WAV holds the tones back to back rather than at
    /// their planned offsets; the offsets are checked on the sound log of the same run.
    @Test func aNightThroughRealAlsaLib() throws {
        let capture = try ALSAFileCapture()
        defer { capture.cleanup() }
        let rig = capture.rig, wav = capture.wav
        var s = Scenario("""
        press dose
        advance 150m
        expect sound window_open gentle
        expect no-fault audio_unavailable
        advance 15m
        expect sounds pre_alarm/standard main_alarm/critical
        advance 2m
        expect sound follow_up critical
        """, rig: rig)
        try s.run()
        let sounds = try rig.boxctl(["sim", "sounds"]).out
        #expect(sounds.contains("02:30:00.120  window_open gentle"))
        #expect(sounds.contains("02:45:00.120  main_alarm critical"))
        #expect(rig.terminate() == 0) // a clean stop closes the PCM, and with it the WAV header

        let audio = try WavFile.read(path: wav.path)
        let samples = audio.mono
        #expect(audio.duration > .seconds(1), "captured \(audio.duration)")
        // The gentle alarm's 659 Hz and the critical alarm's 1047 Hz are both in the capture.
        #expect(Self.strongest(in: samples, rate: audio.sampleRate, among: [659.25, 880, 1046.5, 1396.9, 523.25]).contains(659.25))
        #expect(Self.strongest(in: samples, rate: audio.sampleRate, among: [659.25, 880, 1046.5, 1396.9, 523.25]).contains(1046.5))
    }

    /// The frequencies that dominate at least one 50 ms window of the capture.
    static func strongest(in samples: [Int16], rate: Int, among candidates: [Double]) -> Set<Double> {
        let window = rate / 20
        var found: Set<Double> = []
        var i = 0
        while i + window <= samples.count {
            let chunk = samples[i..<(i + window)].map { Double($0) }
            let powers = candidates.map { f -> Double in
                let k = 2 * cos(2 * .pi * f / Double(rate))
                var s1 = 0.0, s2 = 0.0
                for x in chunk {
                    let s0 = x + k * s1 - s2
                    s2 = s1
                    s1 = s0
                }
                return s1 * s1 + s2 * s2 - k * s1 * s2
            }
            let total = chunk.reduce(0) { $0 + $1 * $1 } * Double(window) / 2
            if let best = powers.indices.max(by: { powers[$0] < powers[$1] }), total > 0, powers[best] > 0.5 * total {
                found.insert(candidates[best])
            }
            i += window
        }
        return found
    }

    /// Real clock: a timer 2 s ahead starts its sound within 50 ms of the deadline, plus the
    /// time the kernel kept boxd's threads waiting for a CPU meanwhile (CI runs this at nice 19
    /// beside two guests at real-time priority, which take the CPUs for up to 950 ms a second;
    /// on an idle machine that wait is about nothing, so the 50 ms is boxd's own).
    @Test func alarmOnsetOnTheRealClock() throws {
        let rig = try BoxRig(args: ["--clock", "real", "--audio", "wav"])
        defer { rig.cleanup() }
        try rig.launch()
        let pid = try #require(rig.process?.processIdentifier)
        let waitedBefore = Self.runQueueWait(pid: pid)
        let r = try rig.boxctl(["test", "sound", "main_alarm", "--in", "2s"])
        let waited = Self.runQueueWait(pid: pid) - waitedBefore
        #expect(r.exit == 0, "\(r.err)")
        let ms = r.out.split(separator: " ").last.flatMap { Double($0) } ?? r.out.components(separatedBy: "onset error ").last
            .flatMap { Double($0.replacingOccurrences(of: " ms", with: "").trimmingCharacters(in: .whitespacesAndNewlines)) }
        let error = try #require(ms, "no onset figure in: \(r.out)")
        #expect(abs(error) <= 50 + waited, "onset error \(error) ms; boxd waited \(waited) ms for a CPU")
    }

    /// Milliseconds boxd's threads have spent runnable but not running: the second figure of
    /// each /proc/PID/task/TID/schedstat (nanoseconds), summed.
    static func runQueueWait(pid: Int32) -> Double {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let ns = tasks.compactMap { tid -> Double? in
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/schedstat", encoding: .utf8) else { return nil }
            let fields = text.split(separator: " ")
            return fields.count >= 2 ? Double(fields[1]) : nil
        }
        return ns.reduce(0, +) / 1_000_000
    }
}

/// boxd on real alsa-lib whose `default` PCM is the `file` plugin over a `null` slave (through
/// ALSA_CONFIG_PATH): what boxd plays lands in `wav`, whose header is written when boxd stops.
struct ALSAFileCapture {
    let dir: URL
    let wav: URL
    let rig: BoxRig

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("alsa-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        wav = dir.appendingPathComponent("capture.wav")
        let conf = dir.appendingPathComponent("asound.conf")
        try """
        pcm.!default { type file; slave { pcm { type null } }; file "\(wav.path)"; format "wav" }
        """.write(to: conf, atomically: true, encoding: .utf8)
        rig = try BoxRig(args: ["--audio", "alsa:default"], environment: ["ALSA_CONFIG_PATH": conf.path])
    }

    func cleanup() {
        rig.cleanup()
        try? FileManager.default.removeItem(at: dir)
    }
}
