import BoxHardware
import Dispatch
import DoseCore
import Synchronization

// What the audio thread is asked to play, and how an asker learns it has played.

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
    /// A tone of the box, or a sentence (its samples already at the player's rate), whole or
    /// still being made.
    enum Content: Sendable {
        case tone(Sound)
        case speech(SpeechClip)
        case stream(SpeechStream)
    }

    let id: UInt64
    let content: Content
    let volume: Double
    let loops: Bool
    /// For loops: ring until this long after `requestedAt`; nil rings until `stop()`.
    let repeatFor: Duration?
    let requestedAt: ContinuousClock.Instant
    let completion: Completion

    var sound: Sound? { if case .tone(let s) = content { s } else { nil } }
    var text: String? {
        switch content {
        case .tone: nil
        case .speech(let clip): clip.text
        case .stream(let stream): stream.text
        }
    }

    func framesLeft(at now: ContinuousClock.Instant, sampleRate: Int) -> Int {
        guard loops, let repeatFor else { return .max }
        return ToneSynth.frames(of: repeatFor - (now - requestedAt), sampleRate: sampleRate)
    }
}

extension Request {
    func samples(volume: Double) -> [Int16] {
        guard case .speech(let clip) = content else { return [] }
        return clip.samples(volume: volume)
    }
}
