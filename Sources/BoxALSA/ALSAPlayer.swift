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
/// - `play` returns at once and replaces the current sound; `stop` silences within about
///   one period (~25 ms) plus one 20 ms chunk: the thread writes small chunks and checks
///   between them, then drops what is buffered.
/// - A device that cannot be opened, or breaks mid-sound, never crashes the box: `fault` says
///   why and the thread retries every `retryInterval` (every second while an alarm waits) and
///   on each `play`. An alarm still due when the device comes back resumes; a one-shot sound
///   is dropped (a chime seconds late would mislead).
public final class ALSAPlayer: TonePlayer {
    public let device: String
    public let sampleRate: Int
    private let engine: Engine

    /// - Parameters:
    ///   - latency: the ALSA buffer; also the longest a new sound waits behind the old one's tail.
    ///   - onStart: called on the audio thread when a sound starts (see `lastStart`).
    public init(
        device: String,
        sampleRate: Int = ToneSynth.defaultSampleRate,
        latency: Duration = .milliseconds(100),
        retryInterval: Duration = .seconds(5),
        onStart: (@Sendable (Sound, ContinuousClock.Instant) -> Void)? = nil
    ) {
        ALSAPlayer.captureALSAErrors
        self.device = device
        self.sampleRate = sampleRate
        let engine = Engine(config: .init(
            device: device, sampleRate: sampleRate,
            latencyMicros: UInt32(clamping: max(latency.nanoseconds / 1000, 1000)),
            retryInterval: max(retryInterval, .milliseconds(100)), onStart: onStart))
        self.engine = engine
        // A plain thread, not the Swift concurrency pool: writes block for whole periods.
        let thread = Thread { engine.run() }
        thread.name = "boxd-audio"
        thread.start()
    }

    deinit { engine.requestShutdown() }

    public func play(_ sound: Sound, volume: Double, repeatFor: Duration?) {
        _ = engine.submit(sound, volume: volume, loops: ToneSynth.repeats(sound), repeatFor: repeatFor)
    }

    public func stop() { engine.stop() }

    public var fault: String? { engine.state.withLock { $0.fault } }

    /// The last sound that started, and when: the moment ALSA started the stream (its start
    /// threshold, a buffer's worth of frames, was reached, or the PCM reported RUNNING). The
    /// previous sound's buffer was dropped first, so that is when the first frame went out.
    /// A device that fails before its stream starts reports no start.
    public var lastStart: (sound: Sound, at: ContinuousClock.Instant)? { engine.state.withLock { $0.lastStart } }

    /// The sound playing now, or waiting for the device (an alarm); nil when idle.
    public var current: Sound? { engine.state.withLock { $0.wanted?.sound } }

    /// Underruns and suspends recovered with `snd_pcm_recover` since the player started.
    public var recoveries: Int { engine.state.withLock { $0.recoveries } }

    /// Plays a sound once (one cycle of an alarm) and waits until it has been written out,
    /// for `boxctl` test tones and tests. Returns nil when it played, else why not.
    @discardableResult
    public func playBlocking(_ sound: Sound, volume: Double, timeout: Duration? = nil) -> String? {
        let length = ToneSynth.duration(of: ToneSynth.pattern(for: sound))
        let completion = engine.submit(sound, volume: volume, loops: false, repeatFor: nil)
        return completion.wait(timeout: timeout ?? length + .seconds(2))
    }

    /// Waits until nothing is playing or waiting to play; false on timeout.
    public func waitUntilIdle(timeout: Duration) -> Bool {
        guard let completion = engine.state.withLock({ $0.wanted?.completion }) else { return true }
        return completion.wait(timeout: timeout) != Completion.timedOut
    }

    /// Stops, closes the device and ends the thread (waits up to 2 s for it). Idempotent.
    public func close() {
        engine.requestShutdown()
        _ = engine.exited.wait(timeout: .seconds(2))
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

// MARK: - The audio thread

/// One-shot latch: `finish` once (the first outcome wins), any number of waiters.
final class Completion: Sendable {
    static let timedOut = "timed out waiting for the audio thread"
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Mutex<(finished: Bool, message: String?)>((false, nil))

    func finish(_ message: String?) {
        let first = outcome.withLock { o in
            guard !o.finished else { return false }
            o = (true, message)
            return true
        }
        if first { done.signal() }
    }

    func wait(timeout: Duration) -> String? {
        guard done.wait(timeout: .now() + .nanoseconds(Int(clamping: timeout.nanoseconds))) == .success else {
            return Self.timedOut
        }
        done.signal()  // pass the wake-up on to the next waiter
        return outcome.withLock { $0.message }
    }
}

struct Request: Sendable {
    let id: UInt64
    let sound: Sound
    let volume: Double
    let loops: Bool
    /// For loops: ring until this long after `requestedAt`; nil rings until `stop()`.
    let repeatFor: Duration?
    let requestedAt: ContinuousClock.Instant
    let completion: Completion

    func framesLeft(at now: ContinuousClock.Instant, sampleRate: Int) -> Int {
        guard loops, let repeatFor else { return .max }
        return ToneSynth.frames(of: repeatFor - (now - requestedAt), sampleRate: sampleRate)
    }
}

final class Engine: Sendable {
    struct Config: Sendable {
        let device: String
        let sampleRate: Int
        let latencyMicros: UInt32
        let retryInterval: Duration
        let onStart: (@Sendable (Sound, ContinuousClock.Instant) -> Void)?
    }

    struct State: Sendable {
        var wanted: Request?
        var nextID: UInt64 = 1
        var fault: String?
        var lastStart: (sound: Sound, at: ContinuousClock.Instant)?
        var recoveries = 0
        var shutdown = false
        /// A `play` arrived: try the device now rather than at the next retry.
        var retryNow = false
    }

    let config: Config
    let state = Mutex(State())
    let exited = Completion()
    private let wake = DispatchSemaphore(value: 0)
    /// 20 ms: how often the thread checks for stop or a new sound while writing.
    private let chunkFrames: Int

    init(config: Config) {
        self.config = config
        self.chunkFrames = max(config.sampleRate / 50, 16)
    }

    func submit(_ sound: Sound, volume: Double, loops: Bool, repeatFor: Duration?) -> Completion {
        let completion = Completion()
        let replaced: Request? = state.withLock { s in
            if s.shutdown {
                completion.finish("the audio player is closed")
                return nil
            }
            let old = s.wanted
            s.wanted = Request(id: s.nextID, sound: sound, volume: volume, loops: loops, repeatFor: repeatFor,
                               requestedAt: .now, completion: completion)
            s.nextID += 1
            s.retryNow = true
            return old
        }
        replaced?.completion.finish("interrupted by \(sound)")
        wake.signal()
        return completion
    }

    func stop() {
        let replaced = state.withLock { s in
            defer { s.wanted = nil }
            return s.wanted
        }
        replaced?.completion.finish("stopped")
        wake.signal()
    }

    func requestShutdown() {
        let replaced = state.withLock { s in
            s.shutdown = true
            defer { s.wanted = nil }
            return s.wanted
        }
        replaced?.completion.finish("the audio player is closed")
        wake.signal()
    }

    // Everything below runs on the audio thread only; the PCM handle never leaves it.

    func run() {
        var pcm: PCM?
        var nextOpen = ContinuousClock.now
        var nextCheck = ContinuousClock.now + config.retryInterval
        while true {
            let (request, shutdown, retryNow) = state.withLock { s in
                defer { s.retryNow = false }
                return (s.wanted, s.shutdown, s.retryNow)
            }
            if shutdown { break }
            let now = ContinuousClock.now

            if pcm == nil, retryNow || now >= nextOpen {
                switch PCM.open(device: config.device, sampleRate: config.sampleRate, latencyMicros: config.latencyMicros) {
                case .success(let opened):
                    pcm = opened
                    setFault(nil)
                case .failure(let failure):
                    setFault(failure.message)
                    nextOpen = now + retryInterval(for: request)
                }
            } else if let open = pcm, request == nil, now >= nextCheck {
                // Idle health check: a USB speaker pulled out while silent shows up here.
                nextCheck = now + config.retryInterval
                if let problem = open.problem(device: config.device) {
                    open.close()
                    pcm = nil
                    setFault(problem)
                    nextOpen = now
                    continue
                }
            }

            if let request {
                if request.framesLeft(at: now, sampleRate: config.sampleRate) <= 0 {
                    finish(request, nil)
                    continue
                }
                if let open = pcm {
                    switch play(request, on: open) {
                    case .finished:
                        finish(request, nil)
                    case .interrupted:
                        break  // whoever replaced it has finished its completion
                    case .failed(let message):
                        open.close()
                        pcm = nil
                        setFault(message)
                        nextOpen = ContinuousClock.now + retryInterval(for: request)
                        if !request.loops { finish(request, message) }
                    }
                    continue
                }
                if !request.loops {
                    finish(request, state.withLock { $0.fault } ?? "ALSA device \(config.device) unavailable")
                    continue
                }
            }

            // Sleep until a command, the next open attempt or health check, or an alarm's end.
            var until = pcm == nil ? nextOpen : nextCheck
            if let request, request.loops, let repeatFor = request.repeatFor {
                until = min(until, request.requestedAt + repeatFor)
            }
            let wait = max(until - ContinuousClock.now, .milliseconds(1))
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(clamping: wait.nanoseconds)))
        }
        pcm?.close()
        exited.finish(nil)
    }

    /// An alarm waiting for the device retries every second: a failed open costs microseconds,
    /// and a USB glitch should not silence an alarm for long.
    private func retryInterval(for request: Request?) -> Duration {
        request?.loops == true ? min(config.retryInterval, .seconds(1)) : config.retryInterval
    }

    private enum Outcome {
        case finished, interrupted, failed(String)
    }

    /// Writes the sound (looped for alarms) and a buffer's worth of silence, so every real
    /// frame has reached the speaker, then drops and re-prepares the stream for the next one.
    private func play(_ request: Request, on pcm: PCM) -> Outcome {
        let samples = ToneSynth.samples(for: request.sound, volume: request.volume, sampleRate: config.sampleRate)
        let budget = request.framesLeft(at: .now, sampleRate: config.sampleRate)
        var written = 0
        var progress = Progress()
        var outcome = Outcome.finished
        // Whole cycles while time is left: an alarm ends on a rest, never mid-beep.
        repeat {
            switch write(samples, to: pcm, id: request.id, progress: &progress, sound: request.sound) {
            case .ok(let frames): written += frames
            case .interrupted: outcome = .interrupted
            case .failed(let message): return .failed(message)
            }
        } while request.loops && written < budget && !samples.isEmpty && !isInterrupted(outcome)
        if !isInterrupted(outcome) {
            let tail = [Int16](repeating: 0, count: pcm.bufferFrames)
            if case .failed(let message) = write(tail, to: pcm, id: request.id, progress: &progress, sound: request.sound) {
                return .failed(message)
            }
        }
        pcm.reset()
        return outcome
    }

    private func isInterrupted(_ outcome: Outcome) -> Bool {
        if case .interrupted = outcome { return true }
        return false
    }

    private enum WriteResult {
        case ok(Int), interrupted, failed(String)
    }

    /// Frames of one request written so far, and whether its start was reported.
    private struct Progress {
        var frames = 0
        var started = false
    }

    private func write(_ samples: [Int16], to pcm: PCM, id: UInt64, progress: inout Progress, sound: Sound) -> WriteResult {
        samples.withUnsafeBufferPointer { buffer -> WriteResult in
            guard let base = buffer.baseAddress else { return .ok(0) }
            var offset = 0
            var attempts = 0
            while offset < buffer.count {
                if state.withLock({ $0.wanted?.id != id || $0.shutdown }) { return .interrupted }
                let count = min(chunkFrames, buffer.count - offset)
                let result = snd_pcm_writei(pcm.handle, base + offset, snd_pcm_uframes_t(count))
                if result < 0 {
                    // -EPIPE (underrun), -ESTRPIPE (suspended) and -EINTR are what
                    // snd_pcm_recover repairs; anything else, or a repair that keeps failing,
                    // means the device is gone.
                    let code = Int32(clamping: result)
                    attempts += 1
                    guard attempts <= 5, snd_pcm_recover(pcm.handle, code, 1) >= 0 else {
                        return .failed("ALSA device \(config.device) failed while playing: \(PCM.describe(code))")
                    }
                    state.withLock { $0.recoveries += 1 }
                    continue
                }
                if result == 0 {
                    attempts += 1
                    if attempts > 5 { return .failed("ALSA device \(config.device) accepts no frames") }
                    continue
                }
                attempts = 0
                progress.frames += result
                if !progress.started, progress.frames >= pcm.startFrames || snd_pcm_state(pcm.handle) == SND_PCM_STATE_RUNNING {
                    progress.started = true
                    let at = ContinuousClock.now
                    state.withLock { $0.lastStart = (sound, at) }
                    config.onStart?(sound, at)
                }
                offset += result
            }
            return .ok(buffer.count)
        }
    }

    private func finish(_ request: Request, _ message: String?) {
        state.withLock { s in
            if s.wanted?.id == request.id { s.wanted = nil }
        }
        request.completion.finish(message)
    }

    private func setFault(_ message: String?) {
        state.withLock { $0.fault = message }
    }
}

// MARK: - The PCM handle

/// An open, configured playback PCM. Not Sendable: it stays on the thread that opened it.
struct PCM {
    struct Failure: Error {
        let message: String
    }

    let handle: OpaquePointer
    let bufferFrames: Int
    /// snd_pcm_set_params starts the stream once this many frames are queued.
    let startFrames: Int

    static func open(device: String, sampleRate: Int, latencyMicros: UInt32) -> Result<PCM, Failure> {
        calsa_error_reset()
        var handle: OpaquePointer?
        // Non-blocking open: a busy hw device fails at once with EBUSY instead of hanging the
        // thread; writes are switched back to blocking below.
        var rc = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard rc >= 0, let handle else {
            return .failure(Failure(message: "ALSA device \(device) unavailable: \(describe(rc))"))
        }
        rc = snd_pcm_nonblock(handle, 0)
        if rc >= 0 {
            rc = snd_pcm_set_params(handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
                                    1, UInt32(clamping: sampleRate), 1, latencyMicros)
        }
        guard rc >= 0 else {
            snd_pcm_close(handle)
            let hint = device.hasPrefix("hw:") ? " (a plughw: device converts)" : ""
            return .failure(Failure(message: "ALSA device \(device) rejected 16-bit mono \(sampleRate) Hz: \(describe(rc))\(hint)"))
        }
        var buffer: snd_pcm_uframes_t = 0
        var period: snd_pcm_uframes_t = 0
        let known = snd_pcm_get_params(handle, &buffer, &period) >= 0 && buffer > 0 && period > 0
        let frames = known ? Int(buffer) : max(Int(latencyMicros) * sampleRate / 1_000_000, 1)
        calsa_error_reset()  // so a later write error does not quote an old open-time message
        return .success(PCM(handle: handle, bufferFrames: frames,
                            startFrames: known ? Int(buffer / period * period) : frames))
    }

    /// Discards what is buffered and makes the stream ready for the next sound.
    func reset() {
        snd_pcm_drop(handle)
        snd_pcm_prepare(handle)
    }

    func close() { snd_pcm_close(handle) }

    func problem(device: String) -> String? {
        snd_pcm_state(handle) == SND_PCM_STATE_DISCONNECTED ? "ALSA device \(device) disconnected" : nil
    }

    /// "No such file or directory (-2)", plus alsa-lib's own first message when it gave one.
    static func describe(_ code: Int32) -> String {
        let text = snd_strerror(code).map { String(cString: $0) } ?? "error"
        let detail = String(cString: calsa_error_text())
        return "\(text) (\(code))" + (detail.isEmpty ? "" : "; alsa-lib: \(detail)")
    }
}
