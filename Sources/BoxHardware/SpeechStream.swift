import Dispatch
import Synchronization

/// A sentence still being made: the synthesiser appends its samples as they come and the
/// player writes them as they arrive, so the first words sound before the last are made
/// (#15: hold to first spoken sample ≤ 300 ms). One writer, one reader.
public final class SpeechStream: Sendable {
    public let text: String
    private struct State {
        var samples: [Int16] = []
        var done = false
        var failure: String?
        var cancelled = false
    }
    private let state = Mutex(State())
    /// Signalled on every change; the reader re-reads the state, so extra signals are harmless.
    private let changed = DispatchSemaphore(value: 0)

    public init(text: String) { self.text = text }

    /// What `read` found.
    public enum Chunk: Sendable, Equatable {
        case samples([Int16])
        /// Nothing new yet: the synthesiser is still at work.
        case waiting
        case end
        case failed(String)
    }

    // The writer (the synthesiser).

    public func append<S: Sequence<Int16>>(_ samples: S) {
        state.withLock { $0.samples.append(contentsOf: samples) }
        changed.signal()
    }

    /// Every sample is in (nil), or synthesis failed (the reader stops there).
    public func finish(failure: String? = nil) {
        state.withLock { s in
            guard !s.done else { return }
            s.done = true
            s.failure = failure
        }
        changed.signal()
    }

    /// The player dropped the sentence (a newer sound, a stop): synthesis may stop early.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    // The reader (the player).

    /// Also wakes a reader waiting for samples, so a newer sound starts at once.
    public func cancel() {
        state.withLock { $0.cancelled = true }
        changed.signal()
    }

    /// Up to `max` samples from `offset`, waiting up to `timeout` for the synthesiser.
    public func read(from offset: Int, max: Int, timeout: Duration) -> Chunk {
        if let chunk = available(from: offset, max: max) { return chunk }
        _ = changed.wait(timeout: .now() + .nanoseconds(Int(clamping: timeout.nanoseconds)))
        return available(from: offset, max: max) ?? .waiting
    }

    private func available(from offset: Int, max: Int) -> Chunk? {
        state.withLock { s in
            if offset < s.samples.count {
                return .samples(Array(s.samples[offset..<min(s.samples.count, offset + max)]))
            }
            guard s.done else { return nil }
            return s.failure.map { .failed($0) } ?? .end
        }
    }

    /// Why synthesis failed, once it has.
    public var failure: String? { state.withLock { $0.failure } }

    /// The whole sentence once it is made without a failure and was not cut short by a
    /// cancel, else nil (for the voice's cache).
    public var clip: SpeechClip? {
        state.withLock { s in s.done && s.failure == nil && !s.cancelled ? SpeechClip(text: text, samples: s.samples) : nil }
    }
}
