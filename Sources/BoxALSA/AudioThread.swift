import BoxHardware
import CALSA
import Dispatch
import DoseCore
import Foundation
import Synchronization

// MARK: - The audio thread

final class Engine: Sendable {
    struct Config: Sendable {
        let device: String
        let sampleRate: Int
        let latencyMicros: UInt32
        let retryInterval: Duration
        let onStart: (@Sendable (Sound, ContinuousClock.Instant) -> Void)?
        let onSpeechDropped: (@Sendable (_ text: String, _ why: String) -> Void)?
    }

    struct State: Sendable {
        var wanted: Request?
        var nextID: UInt64 = 1
        var fault: String?
        var lastStart: (sound: Sound, at: ContinuousClock.Instant)?
        var lastSpeechStart: (text: String, at: ContinuousClock.Instant)?
        /// Sentences waiting for the sound before them to end, in order. An alarm ends when it
        /// has rung its time; one stopped (answered) takes them with it.
        var speech: [Request] = []
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
        let (replaced, dropped): (Request?, [Request]) = state.withLock { s in
            if s.shutdown {
                completion.finish("the audio player is closed")
                return (nil, [])
            }
            let old = s.wanted
            s.wanted = Request(id: s.nextID, content: .tone(sound), volume: volume, loops: loops, repeatFor: repeatFor,
                               requestedAt: .now, completion: completion)
            s.nextID += 1
            s.retryNow = true
            return (old, s.takeSpeech())
        }
        replaced?.completion.finish("interrupted by \(sound)")
        dropSpeech(dropped + [replaced].compactMap { $0?.text == nil ? nil : $0 }, why: "\(sound) came first")
        wake.signal()
        return completion
    }

    /// A sentence after what plays now: at once when idle, else once the sound (an alarm: its
    /// whole ring) is over. The alarm always wins: it is never paused for speech.
    func say(_ content: Request.Content, volume: Double) -> Completion {
        let completion = Completion()
        let refused: Bool = state.withLock { s in
            guard !s.shutdown else { return true }
            let request = Request(id: s.nextID, content: content, volume: volume, loops: false, repeatFor: nil,
                                  requestedAt: .now, completion: completion)
            s.nextID += 1
            if s.wanted != nil {
                s.speech.append(request)
            } else {
                s.wanted = request
                s.retryNow = true
            }
            return false
        }
        if refused { dropSpeech([Request(id: 0, content: content, volume: volume, loops: false, repeatFor: nil,
                                         requestedAt: .now, completion: completion)], why: "the audio player is closed") }
        wake.signal()
        return completion
    }

    func stop() {
        let (replaced, dropped) = state.withLock { s in
            defer { s.wanted = nil }
            return (s.wanted, s.takeSpeech())
        }
        replaced?.completion.finish("stopped")
        dropSpeech(dropped + [replaced].compactMap { $0?.text == nil ? nil : $0 }, why: "stopped")
        wake.signal()
    }

    func requestShutdown() {
        let (replaced, dropped) = state.withLock { s in
            s.shutdown = true
            defer { s.wanted = nil }
            return (s.wanted, s.takeSpeech())
        }
        replaced?.completion.finish("the audio player is closed")
        dropSpeech(dropped, why: "the audio player is closed")
        wake.signal()
    }

    /// A sentence overtaken (a newer sound, a stop): finished unsaid, and reported; one still
    /// being made is cancelled, so its synthesis can stop.
    private func dropSpeech(_ requests: [Request], why: String) {
        for r in requests {
            if case .stream(let stream) = r.content { stream.cancel() }
            r.completion.finish("dropped: \(why)")
            if let text = r.text { config.onSpeechDropped?(text, why) }
        }
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
                    case .unsaid(let message):
                        finish(request, message)
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
        /// `unsaid`: a sentence whose synthesis failed (the device is fine).
        case finished, interrupted, failed(String), unsaid(String)
    }

    /// Writes the sound (looped for alarms) and a buffer's worth of silence, so every real
    /// frame has reached the speaker, then drops and re-prepares the stream for the next one.
    /// The first cycle is synthesised a chunk at a time as it is written, so the stream
    /// starts once its first buffer is synthesised, not a whole cycle (an alarm's onset);
    /// the repeats write the cycle kept from the first pass.
    private func play(_ request: Request, on pcm: PCM) -> Outcome {
        let budget = request.framesLeft(at: .now, sampleRate: config.sampleRate)
        var written = 0
        var progress = Progress()
        var outcome = Outcome.finished
        var cycle: [Int16] = []
        switch request.content {
        case .speech:
            switch write(request.samples(volume: request.volume), to: pcm, id: request.id, progress: &progress, request: request) {
            case .ok(let frames): written += frames
            case .interrupted: outcome = .interrupted
            case .failed(let message): return .failed(message)
            }
        case .stream(let stream):
            // The sentence as it is made: what is there is written, and the thread waits for
            // more in 20 ms steps, still answering a newer sound or a stop.
            var offset = 0
            reading: while !isInterrupted(outcome) {
                if state.withLock({ $0.wanted?.id != request.id || $0.shutdown }) {
                    outcome = .interrupted
                    break
                }
                switch stream.read(from: offset, max: chunkFrames, timeout: .milliseconds(20)) {
                case .samples(let samples):
                    offset += samples.count
                    switch write(SpeechClip.scaled(samples, volume: request.volume), to: pcm, id: request.id,
                                 progress: &progress, request: request) {
                    case .ok(let frames): written += frames
                    case .interrupted: outcome = .interrupted
                    case .failed(let message): return .failed(message)
                    }
                case .waiting: continue
                case .end: break reading
                case .failed(let message):
                    if offset == 0 { return .unsaid(message) }
                    break reading  // what was made is said; the tail below ends it cleanly
                }
            }
        case .tone(let sound):
            var pieces = ToneSynth.Pieces(ToneSynth.pattern(for: sound), volume: request.volume,
                                          sampleRate: config.sampleRate, maxFrames: chunkFrames)
            while let piece = pieces.next() {
                if request.loops { cycle += piece }
                switch write(piece, to: pcm, id: request.id, progress: &progress, request: request) {
                case .ok(let frames): written += frames
                case .interrupted: outcome = .interrupted
                case .failed(let message): return .failed(message)
                }
                if isInterrupted(outcome) { break }
            }
        }
        // Whole cycles while time is left: an alarm ends on a rest, never mid-beep.
        while request.loops && written < budget && !cycle.isEmpty && !isInterrupted(outcome) {
            switch write(cycle, to: pcm, id: request.id, progress: &progress, request: request) {
            case .ok(let frames): written += frames
            case .interrupted: outcome = .interrupted
            case .failed(let message): return .failed(message)
            }
        }
        if !isInterrupted(outcome) {
            let tail = [Int16](repeating: 0, count: pcm.bufferFrames)
            if case .failed(let message) = write(tail, to: pcm, id: request.id, progress: &progress, request: request) {
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

    private func write(_ samples: [Int16], to pcm: PCM, id: UInt64, progress: inout Progress, request: Request) -> WriteResult {
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
                    switch request.content {
                    case .tone(let sound):
                        state.withLock { $0.lastStart = (sound, at) }
                        config.onStart?(sound, at)
                    case .speech, .stream:
                        state.withLock { $0.lastSpeechStart = (request.text ?? "", at) }
                    }
                }
                offset += result
            }
            return .ok(buffer.count)
        }
    }

    /// The request is over: the next sentence waiting takes its place.
    private func finish(_ request: Request, _ message: String?) {
        let dropped: [Request] = state.withLock { s in
            guard s.wanted?.id == request.id else { return [] }
            // A one-shot that could not play (no device) takes its sentences with it: late
            // speech about a sound nobody heard would mislead.
            if message != nil, request.sound != nil {
                s.wanted = nil
                return s.takeSpeech()
            }
            s.wanted = s.speech.isEmpty ? nil : s.speech.removeFirst()
            return []
        }
        request.completion.finish(message)
        dropSpeech(dropped, why: message ?? "")
    }

    private func setFault(_ message: String?) {
        state.withLock { $0.fault = message }
    }
}

extension Engine.State {
    /// Every sentence waiting, taken out (a newer sound or a stop overtook them).
    mutating func takeSpeech() -> [Request] {
        defer { speech = [] }
        return speech
    }
}
