import DoseCore
import Foundation
import Synchronization

/// One sound the sink was asked to play, stamped with the injected (sim) clock.
public struct SoundLogEntry: Sendable, Hashable, CustomStringConvertible {
    public var at: Duration
    public var name: String
    public var level: AlarmLevel?
    public var volume: Double
    public var sound: Sound
    public var repeatFor: Duration?

    public init(at: Duration, sound: Sound, volume: Double, repeatFor: Duration?) {
        self.at = at
        self.name = sound.name
        self.level = sound.level
        self.volume = volume
        self.sound = sound
        self.repeatFor = repeatFor
    }

    public var description: String {
        let ms = Int((at.seconds * 1000).rounded())
        return "\(ms)ms \(sound) vol \(volume)" + (repeatFor.map { " for \(Int($0.seconds))s" } ?? "")
    }
}

/// One sentence the sink was asked to say: when (sim clock), what, how long and how loud.
public struct SpeechLogEntry: Sendable, Hashable, CustomStringConvertible {
    public var at: Duration
    public var text: String
    public var frames: Int
    public var peak: Int

    public var description: String { "\(Int((at.seconds * 1000).rounded()))ms \(text)" }
}

/// The simulated speaker: logs what would have played and appends its samples to a WAV file.
///
/// The sink runs on a simulated clock and cannot know how long an alarm will ring before
/// `stop()`, so each `play` writes the sound once (one cycle of an alarm) and the log entry
/// keeps `repeatFor`. The WAV is the sounds back to back, not a timeline: a silent gap of
/// hours between two alerts would only make a huge file.
public final class WavSink: TonePlayer {
    public static let simulatedFailure = "audio sink failed (simulated)"

    private struct State {
        var writer: WavWriter?
        var writeFault: String?
        var failing = false
        var log: [SoundLogEntry] = []
        var spoken: [SpeechLogEntry] = []
        var stops: [Duration] = []
        var frames = 0

        /// Appends to the WAV file. A write that fails keeps the log going (the log is what
        /// tests check) and reports the broken file.
        mutating func append(_ samples: [Int16]) {
            guard let w = writer else { return }
            do {
                try w.append(samples)
                frames += samples.count
            } catch {
                writeFault = "WAV sink cannot write \(w.path): \(error)"
                writer = nil
            }
        }
    }

    public let path: String?
    public let sampleRate: Int
    private let clock: @Sendable () -> Duration
    private let state: Mutex<State>

    /// - Parameters:
    ///   - path: the WAV file to write, or nil to keep only the log.
    ///   - clock: now on the sim clock (the offset since the simulation began).
    public init(path: String? = nil, sampleRate: Int = ToneSynth.defaultSampleRate, clock: @escaping @Sendable () -> Duration) {
        self.path = path
        self.sampleRate = sampleRate
        self.clock = clock
        var initial = State()
        if let path {
            do {
                initial.writer = try WavWriter(path: path, sampleRate: sampleRate)
            } catch {
                initial.writeFault = "WAV sink cannot write \(path): \(error)"
            }
        }
        state = Mutex(initial)
    }

    public func play(_ sound: Sound, volume: Double, repeatFor: Duration?) {
        let at = clock()  // outside the lock: the sim clock may take its own
        let samples = ToneSynth.samples(for: sound, volume: volume, sampleRate: sampleRate)
        state.withLock { s in
            guard !s.failing else { return }
            s.log.append(SoundLogEntry(at: at, sound: sound, volume: volume, repeatFor: repeatFor))
            s.append(samples)
        }
    }

    /// Speech is written after the sound before it, as it would play; the sim clock does not
    /// move while it plays, so nothing overtakes it here.
    public func say(_ clip: SpeechClip, volume: Double) {
        let at = clock()
        let samples = clip.samples(volume: volume)
        state.withLock { s in
            guard !s.failing else { return }
            s.spoken.append(SpeechLogEntry(at: at, text: clip.text, frames: samples.count, peak: samples.map { abs(Int($0)) }.max() ?? 0))
            s.append(samples)
        }
    }

    public func stop() {
        let at = clock()
        state.withLock { s in
            if !s.failing { s.stops.append(at) }
        }
    }

    public var fault: String? {
        state.withLock { $0.failing ? Self.simulatedFailure : $0.writeFault }
    }

    /// Every play since the start or the last `clear()`, in order.
    public var entries: [SoundLogEntry] { state.withLock { $0.log } }

    /// Every sentence said since the start or the last `clear()`, in order.
    public var spoken: [SpeechLogEntry] { state.withLock { $0.spoken } }

    /// The sim-clock times of every `stop()`.
    public var stops: [Duration] { state.withLock { $0.stops } }

    /// Frames written to the WAV file so far.
    public var framesWritten: Int { state.withLock { $0.frames } }

    /// Forgets the log; the WAV file keeps what it has.
    public func clear() {
        state.withLock { s in
            s.log.removeAll()
            s.spoken.removeAll()
            s.stops.removeAll()
        }
    }

    /// A sink that could not be created (or broke) is tried again: the fault clears once the
    /// file can be written, e.g. after space was freed.
    public func retryIfBroken() {
        state.withLock { s in
            guard s.writer == nil, s.writeFault != nil, let path else { return }
            if let writer = try? WavWriter(path: path, sampleRate: sampleRate) {
                s.writer = writer
                s.writeFault = nil
            }
        }
    }

    /// Simulates the audio device vanishing (true) and coming back (false).
    public func setFailing(_ failing: Bool) {
        state.withLock { $0.failing = failing }
    }

    /// Closes the WAV file (it is already valid on disk after every play); later plays are only logged.
    public func close() {
        state.withLock { s in
            try? s.writer?.close()
            s.writer = nil
        }
    }
}
