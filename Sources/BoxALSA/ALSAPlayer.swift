import BoxHardware
import CALSA
import Dispatch
import DoseCore
import Foundation
import Synchronization

/// Plays the box's sounds through ALSA, on a thread of its own.
///
/// - `device` is an ALSA PCM name. A system service should name the card, e.g.
///   `plughw:CARD=Headphones` or `plughw:1,0` (the plug layer converts rate and format), or a
///   `plug:dmix` device to share the card; "default" depends on whoever is logged in.
/// - Output is S16_LE mono at `sampleRate`, through a ~100 ms buffer. Volume is applied to the
///   samples (ToneSynth), so no mixer control is touched.
/// - `say` queues a sentence behind what plays (an alarm: its whole ring; the alarm is never
///   paused for speech); a later `play` or `stop` drops it and `onSpeechDropped` says so.
/// - `play` returns at once and replaces the current sound; `stop` silences within about
///   one period (~25 ms) plus one 20 ms chunk: the thread writes small chunks and checks
///   between them, then drops what is buffered.
/// - A device that cannot be opened, or breaks mid-sound, never crashes the box: `fault` says
///   why and the thread retries every `retryInterval` (every second while an alarm waits) and
///   on each `play`. An alarm still due when the device comes back resumes; a one-shot sound
///   is dropped (a chime seconds late would mislead).
public final class ALSAPlayer: SpeechStreamPlayer {
    public let device: String
    public let sampleRate: Int
    private let audio: AudioThread

    /// - Parameters:
    ///   - latency: the ALSA buffer; also the longest a new sound waits behind the old one's tail.
    ///   - onStart: called on the audio thread when a sound starts (see `lastStart`).
    ///   - faultSignal: rung on the audio thread whenever `fault` changes.
    public init(
        device: String,
        sampleRate: Int = ToneSynth.defaultSampleRate,
        latency: Duration = .milliseconds(100),
        retryInterval: Duration = .seconds(5),
        onStart: (@Sendable (Sound, ContinuousClock.Instant) -> Void)? = nil,
        onSpeechDropped: (@Sendable (_ text: String, _ why: String) -> Void)? = nil,
        faultSignal: DeviceFaultSignal? = nil
    ) {
        ALSAPlayer.captureALSAErrors
        self.device = device
        self.sampleRate = sampleRate
        let audio = AudioThread(config: .init(
            device: device, sampleRate: sampleRate,
            latencyMicros: UInt32(clamping: max(latency.nanoseconds / 1000, 1000)),
            retryInterval: max(retryInterval, .milliseconds(100)), onStart: onStart,
            onSpeechDropped: onSpeechDropped, faultSignal: faultSignal))
        self.audio = audio
        // A plain thread, not the Swift concurrency pool: writes block for whole periods.
        let thread = Thread { audio.run() }
        thread.name = "boxd-audio"
        thread.start()
    }

    deinit { audio.requestShutdown() }

    public func play(_ sound: Sound, volume: Double, repeatFor: Duration?) {
        _ = audio.submit(sound, volume: volume, loops: ToneSynth.repeats(sound), repeatFor: repeatFor)
    }

    public func say(_ clip: SpeechClip, volume: Double) {
        _ = audio.say(.speech(clip), volume: volume)
    }

    /// A sentence still being made: its samples are written as they come, in its turn.
    public func say(_ stream: SpeechStream, volume: Double) {
        _ = audio.say(.stream(stream), volume: volume)
    }

    public func stop() { audio.stop() }

    public var fault: String? { audio.state.withLock { $0.fault } }

    /// The last sound that started, and when: the moment ALSA started the stream (its start
    /// threshold, a buffer's worth of frames, was reached, or the PCM reported RUNNING). The
    /// previous sound's buffer was dropped first, so that is when the first frame went out.
    /// A device that fails before its stream starts reports no start.
    public var lastStart: (sound: Sound, at: ContinuousClock.Instant)? { audio.state.withLock { $0.lastStart } }

    /// The last sentence that started, and when (as `lastStart`, for the voice's latency).
    public var lastSpeechStart: (text: String, at: ContinuousClock.Instant)? { audio.state.withLock { $0.lastSpeechStart } }

    /// The sound playing now, or waiting for the device (an alarm); nil when idle.
    public var current: Sound? { audio.state.withLock { $0.wanted?.sound } }

    /// Says a sentence and waits until it has been written out (`boxctl test voice`, tests).
    /// Returns nil when it was said, else why not.
    @discardableResult
    public func sayBlocking(_ clip: SpeechClip, volume: Double, timeout: Duration? = nil) -> String? {
        let length = Duration.seconds(Double(clip.samples.count) / Double(sampleRate))
        return audio.say(.speech(clip), volume: volume).wait(timeout: timeout ?? length + .seconds(5))
    }

    /// Says a sentence still being made and waits until it has been written out (or dropped,
    /// or its synthesis failed). Returns nil when it was said, else why not.
    @discardableResult
    public func sayBlocking(_ stream: SpeechStream, volume: Double, timeout: Duration) -> String? {
        audio.say(.stream(stream), volume: volume).wait(timeout: timeout)
    }

    /// Underruns and suspends recovered with `snd_pcm_recover` since the player started.
    public var recoveries: Int { audio.state.withLock { $0.recoveries } }

    /// Plays a sound once (one cycle of an alarm) and waits until it has been written out,
    /// for `boxctl` test tones and tests. Returns nil when it played, else why not.
    @discardableResult
    public func playBlocking(_ sound: Sound, volume: Double, timeout: Duration? = nil) -> String? {
        let length = ToneSynth.duration(of: ToneSynth.pattern(for: sound))
        let completion = audio.submit(sound, volume: volume, loops: false, repeatFor: nil)
        return completion.wait(timeout: timeout ?? length + .seconds(2))
    }

    /// Waits until nothing is playing or waiting to play (the sentences queued behind a sound
    /// included); false on timeout.
    public func waitUntilIdle(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while let completion = audio.state.withLock({ $0.wanted?.completion }) {
            let left = deadline - .now
            guard left > .zero, completion.wait(timeout: left) != Completion.timedOut else { return false }
        }
        return true
    }

    /// Stops, closes the device and ends the thread (waits up to 2 s for it). Idempotent.
    public func close() {
        audio.requestShutdown()
        _ = audio.exited.wait(timeout: .seconds(2))
    }

    /// Opens and configures the device once, then closes it: nil if it works, else the error
    /// (for `boxctl doctor`). Fails with "busy" while boxd holds a hw device.
    public static func probe(device: String, sampleRate: Int = ToneSynth.defaultSampleRate) -> String? {
        captureALSAErrors
        switch PCM.open(device: device, sampleRate: sampleRate, latencyMicros: 100_000) {
        case .success(let pcm):
            pcm.close()
            return nil
        case .failure(let failure):
            return failure.message
        }
    }

    /// Routes alsa-lib's stderr chatter into our fault messages, once per process.
    private static let captureALSAErrors: Void = { _ = calsa_capture_errors() }()
}
