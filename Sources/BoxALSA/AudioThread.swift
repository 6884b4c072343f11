import BoxHardware
import CALSA
import Dispatch
import DoseCore
import Foundation
import Synchronization

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
    /// The first cycle is synthesised a chunk at a time as it is written, so the stream
    /// starts once its first buffer is synthesised, not a whole cycle (an alarm's onset);
    /// the repeats write the cycle kept from the first pass.
    private func play(_ request: Request, on pcm: PCM) -> Outcome {
        let budget = request.framesLeft(at: .now, sampleRate: config.sampleRate)
        var pieces = ToneSynth.Pieces(ToneSynth.pattern(for: request.sound), volume: request.volume,
                                      sampleRate: config.sampleRate, maxFrames: chunkFrames)
        var cycle: [Int16] = []
        var written = 0
        var progress = Progress()
        var outcome = Outcome.finished
        while let piece = pieces.next() {
            if request.loops { cycle += piece }
            switch write(piece, to: pcm, id: request.id, progress: &progress, sound: request.sound) {
            case .ok(let frames): written += frames
            case .interrupted: outcome = .interrupted
            case .failed(let message): return .failed(message)
            }
            if isInterrupted(outcome) { break }
        }
        // Whole cycles while time is left: an alarm ends on a rest, never mid-beep.
        while request.loops && written < budget && !cycle.isEmpty && !isInterrupted(outcome) {
            switch write(cycle, to: pcm, id: request.id, progress: &progress, sound: request.sound) {
            case .ok(let frames): written += frames
            case .interrupted: outcome = .interrupted
            case .failed(let message): return .failed(message)
            }
        }
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
