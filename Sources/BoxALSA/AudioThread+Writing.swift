import BoxHardware
import CALSA
import DoseCore

// The audio thread's writing: a tone, a sentence whole or as it is made, in 20 ms chunks
// that check between them for a newer sound or a stop (the thread itself: AudioThread.swift).
extension AudioThread {
    enum Outcome {
        /// `unsaid`: a sentence whose synthesis failed (the device is fine).
        case finished, interrupted, failed(String), unsaid(String)
    }

    /// Writes the sound (looped for alarms) and a buffer's worth of silence, so every real
    /// frame has reached the speaker, then drops and re-prepares the stream for the next one.
    /// The first cycle is synthesised a chunk at a time as it is written, so the stream
    /// starts once its first buffer is synthesised, not a whole cycle (an alarm's onset);
    /// the repeats write the cycle kept from the first pass.
    func play(_ request: Request, on pcm: PCM) -> Outcome {
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

    func isInterrupted(_ outcome: Outcome) -> Bool {
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
}
