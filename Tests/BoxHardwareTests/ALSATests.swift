import BoxALSA
import BoxHardware
import CALSA
import Dispatch
import DoseCore
import Foundation
import Synchronization
import Testing

// These run through the real alsa-lib on a machine with no sound card. The PCM name
// `file:FILE=<path>,FORMAT=wav` (defined in the stock alsa.conf) sends the stream through
// alsa-lib's `file` plugin onto a `null` slave and writes a WAV with a proper header. The
// null slave takes frames as fast as they come, so nothing here waits in real time: the
// captured WAV still holds exactly what a speaker would have played.
//
// The other route, for a whole process (e.g. running boxd under test with device "default"):
// point ALSA_CONFIG_PATH, before the first ALSA call, at a file holding
//
//     pcm.!default { type file; slave { pcm { type null } }; file "/path/out.wav"; format "wav" }
//
// That file replaces alsa.conf entirely, so the slave is written inline. It is not exercised
// with setenv here: the variable is process-wide and these tests run in parallel with
// others. `configFileRoute` loads the same text with snd_pcm_open_lconf instead, which is
// what alsa-lib does with the file named by ALSA_CONFIG_PATH.

private func filePCM(_ path: String) -> String { "file:FILE=\(path),FORMAT=wav" }

@Suite("ALSA player through alsa-lib (no sound card)", .serialized)
struct ALSATests {
    let rate = ToneSynth.defaultSampleRate

    @Test("a tone played through alsa-lib's file plugin has its frequency and duration")
    func toneThroughFilePlugin() throws {
        let path = temporaryPath("alsa.wav")
        defer { removeTemporary(path) }
        let started = Mutex<(Sound, ContinuousClock.Instant)?>(nil)
        let player = ALSAPlayer(device: filePCM(path), onStart: { sound, at in started.withLock { $0 = (sound, at) } })
        let sound = Sound.alarm(.preAlarm, .gentle)
        let before = ContinuousClock.now
        let result = player.playBlocking(sound, volume: 0.9)
        #expect(result == nil)
        #expect(player.fault == nil)
        let start = try #require(player.lastStart)
        #expect(start.sound == sound)
        #expect(start.at >= before)
        #expect(started.withLock { $0?.0 } == sound, "onStart was called")
        player.close()

        let audio = try WavFile.read(path: path)
        #expect(audio.sampleRate == rate)
        #expect(audio.channels == 1)
        let samples = audio.mono
        let style = ToneSynth.style(for: .gentle)
        let pattern = ToneSynth.pattern(for: sound)
        // The cycle, then a buffer of silence that pushes the last frames through.
        #expect(audio.duration >= ToneSynth.duration(of: pattern))
        #expect(audio.duration <= ToneSynth.duration(of: pattern) + .milliseconds(300))
        #expect(Array(samples.prefix(ToneSynth.samples(for: sound, volume: 0.9).count)) == ToneSynth.samples(for: sound, volume: 0.9),
                "bit-exact through the file plugin")

        let bursts = Goertzel.bursts(samples, frequency: style.low, sampleRate: rate)
        #expect(bursts.count == 2)
        let want = audibleSeconds(pattern[0])
        for burst in bursts {
            let seconds = Goertzel.seconds(burst.count, rate)
            let hz = Goertzel.dominantFrequency(samples[burst], sampleRate: rate)
            print("ALSA capture: \(String(format: "%.2f", hz)) Hz for \(String(format: "%.1f", seconds * 1000)) ms (tone \(style.low) Hz, \(pattern[0].duration), above half amplitude \(want * 1000) ms)")
            #expect(abs(hz - style.low) / style.low < 0.01)
            #expect(abs(seconds - want) <= 0.1 * want)
            #expect(abs(seconds - style.beep.seconds) <= 0.1 * style.beep.seconds, "within 10% of the nominal beep")
        }
    }

    @Test("an alarm loops whole cycles for repeatFor, then stops by itself")
    func alarmRepeats() throws {
        let path = temporaryPath("loop.wav")
        defer { removeTemporary(path) }
        let player = ALSAPlayer(device: filePCM(path))
        let sound = Sound.alarm(.mainAlarm, .standard)
        player.play(sound, volume: 0.5, repeatFor: .seconds(3))
        #expect(player.waitUntilIdle(timeout: .seconds(2)))
        #expect(player.current == nil)
        player.close()

        let audio = try WavFile.read(path: path)
        let style = ToneSynth.style(for: .standard)
        // 1.2 s cycles: the third starts before 3 s have passed, the fourth would not.
        let bursts = Goertzel.bursts(audio.mono, frequency: style.low, sampleRate: rate)
        #expect(bursts.count == 3 * style.beepsPerCycle)
        let cycle = ToneSynth.frames(of: style.cycle, sampleRate: rate)
        #expect(audio.frameCount >= 3 * cycle && audio.frameCount < 4 * cycle)
    }

    @Test("stop() ends an endless alarm and play() replaces the current sound")
    func stopAndReplace() throws {
        let path = temporaryPath("stop.wav")
        defer { removeTemporary(path) }
        let onset = DispatchSemaphore(value: 0)
        let player = ALSAPlayer(device: filePCM(path), onStart: { _, _ in onset.signal() })
        player.play(.alarm(.expired, .critical), volume: 0.2, repeatFor: nil)
        #expect(onset.wait(timeout: .now() + 2) == .success)
        #expect(player.current == .alarm(.expired, .critical))
        let stopAt = ContinuousClock.now
        player.stop()
        #expect(player.waitUntilIdle(timeout: .seconds(1)))
        #expect(ContinuousClock.now - stopAt < .milliseconds(500))
        #expect(player.current == nil)

        player.play(.alarm(.followUp, .critical), volume: 0.2, repeatFor: nil)
        #expect(onset.wait(timeout: .now() + 2) == .success)
        #expect(player.playBlocking(.success, volume: 0.5) == nil, "replaces the endless alarm")
        #expect(player.lastStart?.sound == .success)
        #expect(player.current == nil)
        player.close()
        #expect(player.playBlocking(.status, volume: 1) != nil, "a closed player refuses")
        // The null slave is not real time, so the endless alarm ran ahead until stopped: bounded.
        let audio = try WavFile.read(path: path)
        print("ALSA endless alarm until stop(): \(audio.duration) captured")
        #expect(audio.duration > .zero && audio.duration < .seconds(3600))
    }

    @Test("a missing device is a clear fault, never a crash", arguments: ["hw:99,0", "plughw:CARD=Nope"])
    func missingDevice(device: String) {
        let player = ALSAPlayer(device: device)
        let result = player.playBlocking(.success, volume: 1, timeout: .seconds(2))
        let fault = player.fault
        print("ALSA fault for \(device): \(fault ?? "nil")")
        #expect(result != nil)
        #expect(fault?.hasPrefix("ALSA device \(device) unavailable: ") == true)
        #expect(player.lastStart == nil)
        // An alarm waits for the device (it keeps retrying) instead of failing.
        player.play(.alarm(.followUp, .critical), volume: 1, repeatFor: .seconds(60))
        #expect(player.current == .alarm(.followUp, .critical))
        player.stop()
        #expect(player.current == nil)
        player.close()

        let probed = ALSAPlayer.probe(device: device)
        #expect(probed?.hasPrefix("ALSA device \(device) unavailable: ") == true)
    }

    @Test("probe says nil for a device that opens")
    func probeWorking() {
        #expect(ALSAPlayer.probe(device: "null") == nil)
    }

    @Test("the ALSA_CONFIG_PATH file routes 'default' to a WAV file")
    func configFileRoute() throws {
        let wav = temporaryPath("default.wav")
        defer { removeTemporary(wav) }
        let conf = (wav as NSString).deletingLastPathComponent + "/asound.conf"
        let text = "pcm.!default { type file; slave { pcm { type null } }; file \"\(wav)\"; format \"wav\" }\n"
        try text.write(toFile: conf, atomically: true, encoding: .utf8)

        var config: OpaquePointer?
        #expect(snd_config_top(&config) == 0)
        defer { if let config { snd_config_delete(config) } }
        var input: OpaquePointer?
        #expect(snd_input_stdio_open(&input, conf, "r") == 0)
        if let input {
            #expect(snd_config_load(config, input) == 0)
            snd_input_close(input)
        }
        var pcm: OpaquePointer?
        let rc = snd_pcm_open_lconf(&pcm, "default", SND_PCM_STREAM_PLAYBACK, 0, config)
        #expect(rc == 0, "\(String(cString: snd_strerror(rc)))")
        let handle = try #require(pcm)
        #expect(snd_pcm_set_params(handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(rate), 1, 100_000) == 0)
        let samples = ToneSynth.samples(for: .status, volume: 1)
        let written = samples.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { snd_pcm_writei(handle, $0, snd_pcm_uframes_t(buffer.count)) } ?? 0
        }
        #expect(written == samples.count)
        snd_pcm_close(handle)

        let audio = try WavFile.read(path: wav)
        #expect(audio.samples == samples)
        let hz = Goertzel.dominantFrequency(audio.samples[...], sampleRate: audio.sampleRate)
        #expect(abs(hz - 1174.66) < 5)
    }

    /// #31: the daemon hears of a card that fails on the audio thread; it does not ask.
    @Test("a card that cannot be opened rings the fault signal, with the fault set", .timeLimit(.minutes(1)))
    func aMissingCardRingsTheFaultSignal() async {
        let signal = DeviceFaultSignal()
        let (rings, ringing) = AsyncStream<Void>.makeStream()
        signal.connect { ringing.yield() }
        let player = ALSAPlayer(device: "hw:99,0", faultSignal: signal)
        player.play(.success, volume: 1, repeatFor: nil)
        var heard = rings.makeAsyncIterator()
        await heard.next()
        #expect(player.fault?.isEmpty == false, "the fault is set before the signal rings")
        player.close()
    }
}

@Suite("ALSA player recovery")
struct ALSARecoveryTests {
    @Test("an alarm waiting for a broken device rings once the device comes back")
    func alarmResumesWhenDeviceReturns() throws {
        // The file plugin cannot write its output while the directory is missing: writes fail
        // with EIO, like a device that vanished. Creating the directory brings it back.
        let base = temporaryPath("unused")
        defer { removeTemporary(base) }
        let dir = (base as NSString).deletingLastPathComponent + "/later"
        let out = dir + "/out.wav"
        let alarm = Sound.alarm(.mainAlarm, .standard)
        let player = ALSAPlayer(device: "file:FILE=\(out),FORMAT=wav", retryInterval: .milliseconds(100))
        defer { player.close() }
        #expect(player.playBlocking(.success, volume: 1) != nil, "a one-shot sound is dropped while broken")
        // Dropped after one more try on the device opened again (a transient error is survived).
        #expect(player.recoveries >= 1, "the failed sound was played again once before it was dropped")
        let fault = player.fault
        print("ALSA fault for a missing output directory: \(fault ?? "nil")")
        #expect(fault?.hasPrefix("ALSA device file:FILE=\(out),FORMAT=wav failed while playing: ") == true)

        // The alarm rings for 3 s of its own time; the test waits on its completion (the
        // player's own latch), not on a clock. Recovery must leave most of that time audible.
        player.play(alarm, volume: 0.5, repeatFor: .seconds(3))
        #expect(player.current == alarm, "the alarm waits for the device")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        #expect(player.waitUntilIdle(timeout: .seconds(10)), "the alarm never finished")
        #expect(player.fault == nil)
        #expect(player.lastStart?.sound == alarm)
        player.close()
        // 16 kHz mono S16: more than 2 s of the 3 s alarm reached the file.
        #expect((FileManager.default.contents(atPath: out)?.count ?? 0) > 64_000)
        let audio = try WavFile.read(path: out)
        #expect(Goertzel.bursts(audio.mono, frequency: ToneSynth.style(for: .standard).low, sampleRate: audio.sampleRate).count >= 4)
    }
}
