import BoxHardware
import CALSA
import Dispatch
import DoseCore
import Foundation
import Synchronization

// MARK: - The audio thread

final class AudioThread: Sendable {
    struct Config: Sendable {
        let device: String
        let sampleRate: Int
        let latencyMicros: UInt32
        let retryInterval: Duration
        let onStart: (@Sendable (Sound, ContinuousClock.Instant) -> Void)?
        let onSpeechDropped: (@Sendable (_ text: String, _ why: String) -> Void)?
        let faultSignal: DeviceFaultSignal?
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
    let chunkFrames: Int

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
        /// The request played again after a device error (once each).
        var replayed: UInt64?
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
                        // One device error while playing: open it again at once and play the
                        // sound again from its start (a chime or a sentence heard twice in part
                        // beats one not heard). A second error on the same sound is a fault.
                        if replayed != request.id,
                           case .success(let again) = PCM.open(device: config.device, sampleRate: config.sampleRate,
                                                               latencyMicros: config.latencyMicros) {
                            replayed = request.id
                            pcm = again
                            state.withLock { $0.recoveries += 1 }
                            continue
                        }
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
        let changed = state.withLock { s in
            defer { s.fault = message }
            return s.fault != message
        }
        if changed { config.faultSignal?.ring() }
    }
}

extension AudioThread.State {
    /// Every sentence waiting, taken out (a newer sound or a stop overtook them).
    mutating func takeSpeech() -> [Request] {
        defer { speech = [] }
        return speech
    }
}
