import DoseCore
import Foundation

// Pure tone synthesis: a `Sound` and a volume become mono PCM16 samples. No I/O, no clock,
// so the ALSA player, the WAV sink and the tests all hear exactly the same thing.

/// The shape of one tone.
public enum Waveform: String, Sendable, Hashable, CaseIterable {
    /// A pure tone: soft, for chimes and the gentle alarm.
    case sine
    /// A band-limited square (odd harmonics below Nyquist, so no aliasing whine):
    /// buzzy and hard to sleep through.
    case square
}

/// One note (or rest) of a sound's pattern. A frequency of 0 is silence.
public struct ToneSegment: Sendable, Hashable, CustomStringConvertible {
    /// Fundamental in Hz; 0 for silence.
    public var frequency: Double
    public var duration: Duration
    public var waveform: Waveform
    /// Peak amplitude as a fraction of full scale, before the configured volume.
    public var gain: Double

    public init(frequency: Double, duration: Duration, waveform: Waveform = .sine, gain: Double) {
        self.frequency = frequency
        self.duration = duration
        self.waveform = waveform
        self.gain = gain
    }

    public static func tone(_ hz: Double, ms: Int, _ waveform: Waveform = .sine, gain: Double) -> ToneSegment {
        ToneSegment(frequency: hz, duration: .milliseconds(ms), waveform: waveform, gain: gain)
    }

    public static func silence(ms: Int) -> ToneSegment {
        ToneSegment(frequency: 0, duration: .milliseconds(ms), gain: 0)
    }

    public var isSilence: Bool { frequency <= 0 || gain <= 0 }

    public var description: String {
        let ms = Int((duration.seconds * 1000).rounded())
        return isSilence ? "rest \(ms)ms" : "\(waveform.rawValue) \(Int(frequency.rounded()))Hz \(ms)ms ×\(gain)"
    }
}

/// How an alarm level rings: loudness, timbre and cadence. One cycle is a group of beeps
/// and a rest; players loop the cycle, so it stays short (1 to 1.5 s) to stop quickly.
public struct AlarmStyle: Sendable, Hashable {
    public var gain: Double
    public var waveform: Waveform
    public var beep: Duration
    public var gap: Duration
    public var beepsPerCycle: Int
    public var rest: Duration
    /// The level's base pitch and the pitch it pairs with (a fourth above).
    public var low: Double
    public var high: Double

    public var cycle: Duration { beep * beepsPerCycle + gap * (beepsPerCycle - 1) + rest }
    /// Beep onsets per second: the cadence that escalates with the level.
    public var beepsPerSecond: Double { Double(beepsPerCycle) / cycle.seconds }
}

public enum ToneSynth {
    public static let defaultSampleRate = 16_000
    /// Raised-cosine fade in and out of every tone, so no segment starts or ends with a click.
    public static let attack: Duration = .milliseconds(5)
    public static let release: Duration = .milliseconds(15)

    // Notes (equal temperament), named so the patterns read like a score.
    static let e3 = 164.81, e4 = 329.63, a4 = 440.0, c5 = 523.25, e5 = 659.26, g5 = 783.99
    static let a5 = 880.0, c6 = 1046.5, d6 = 1174.66, f6 = 1396.91

    /// The cadence of each alarm level: louder, faster and harsher as the night escalates.
    public static func style(for level: AlarmLevel) -> AlarmStyle {
        switch level {
        case .gentle:  // two soft beeps every 1.5 s
            AlarmStyle(gain: 0.35, waveform: .sine, beep: .milliseconds(200), gap: .milliseconds(150),
                       beepsPerCycle: 2, rest: .milliseconds(950), low: e5, high: a5)
        case .standard:  // four beeps every 1.2 s
            AlarmStyle(gain: 0.7, waveform: .sine, beep: .milliseconds(130), gap: .milliseconds(90),
                       beepsPerCycle: 4, rest: .milliseconds(410), low: a5, high: d6)
        case .critical:  // six square two-tone beeps every second, full scale
            AlarmStyle(gain: 1.0, waveform: .square, beep: .milliseconds(80), gap: .milliseconds(40),
                       beepsPerCycle: 6, rest: .milliseconds(320), low: c6, high: f6)
        }
    }

    /// Alerts about the window closing echo the warning tone: each pair of beeps steps down.
    /// Wake alerts hold one pitch, except critical ones, which alternate two tones upward.
    public static func isClosingAlert(_ kind: AlertKind) -> Bool {
        switch kind {
        case .remainingWarning, .hardStop, .expired: true
        case .windowOpen, .preAlarm, .mainAlarm, .followUp: false
        }
    }

    /// Alarms loop their pattern; every other sound plays once.
    public static func repeats(_ sound: Sound) -> Bool { sound.level != nil }

    /// The notes of a sound: the whole sound, or one cycle of an alarm.
    public static func pattern(for sound: Sound) -> [ToneSegment] {
        switch sound {
        case .success:  // rising chime: C5 E5 G5
            return [.tone(c5, ms: 110, gain: 0.6), .tone(e5, ms: 110, gain: 0.6), .tone(g5, ms: 220, gain: 0.6)]
        case .warning:  // descending tone: G5 down a fifth to C5
            return [.tone(g5, ms: 200, gain: 0.6), .tone(c5, ms: 350, gain: 0.6)]
        case .error:  // sharp buzz, twice
            return [.tone(e4, ms: 120, .square, gain: 0.5), .silence(ms: 60), .tone(e4, ms: 120, .square, gain: 0.5)]
        case .stop:  // STOP: three long low square blasts, unlike anything else the box plays
            let blast = ToneSegment.tone(e3, ms: 400, .square, gain: 0.8)
            return [blast, .silence(ms: 200), blast, .silence(ms: 200), blast]
        case .status:  // short neutral chirp
            return [.tone(d6, ms: 70, gain: 0.4)]
        case .alreadyRecorded:  // two equal mid beeps: heard, nothing changed
            return [.tone(g5, ms: 90, gain: 0.5), .silence(ms: 90), .tone(g5, ms: 90, gain: 0.5)]
        case .successRefillDue:  // the success chime, a pause, then two soft low notes: "refill"
            return pattern(for: .success) + [.silence(ms: 350), .tone(a4, ms: 180, gain: 0.45), .silence(ms: 120), .tone(a4, ms: 260, gain: 0.45)]
        case .skipHold:  // two slow falling notes, low and soft: a skip, unlike the chimes and the buzz
            return [.tone(a4, ms: 250, gain: 0.55), .silence(ms: 80), .tone(e4, ms: 400, gain: 0.55)]
        case .minuteTick:  // one short soft tick, quieter than any alert
            return [.tone(c6, ms: 25, gain: 0.3)]
        case .alarm(let kind, let level):
            let style = style(for: level)
            let closing = isClosingAlert(kind)
            var out: [ToneSegment] = []
            for i in 0..<style.beepsPerCycle {
                if i > 0 { out.append(ToneSegment(frequency: 0, duration: style.gap, gain: 0)) }
                let pitch: Double
                if closing {
                    pitch = i.isMultiple(of: 2) ? style.high : style.low
                } else if level == .critical {
                    pitch = i.isMultiple(of: 2) ? style.low : style.high
                } else {
                    pitch = style.low
                }
                out.append(ToneSegment(frequency: pitch, duration: style.beep, waveform: style.waveform, gain: style.gain))
            }
            out.append(ToneSegment(frequency: 0, duration: style.rest, gain: 0))
            return out
        }
    }

    public static func duration(of segments: [ToneSegment]) -> Duration {
        segments.reduce(.zero) { $0 + $1.duration }
    }

    /// One play of a sound (one cycle of an alarm) at `volume` (0...1, from the config).
    public static func samples(for sound: Sound, volume: Double, sampleRate: Int = defaultSampleRate) -> [Int16] {
        render(pattern(for: sound), volume: volume, sampleRate: sampleRate)
    }

    /// Renders segments back to back. Each segment is rounded to whole frames on its own,
    /// so a segment's length in frames is `frames(of:)` of its duration.
    public static func render(_ segments: [ToneSegment], volume: Double, sampleRate: Int = defaultSampleRate) -> [Int16] {
        let volume = volume.isFinite ? min(max(volume, 0), 1) : 0
        var out: [Int16] = []
        out.reserveCapacity(segments.reduce(0) { $0 + frames(of: $1.duration, sampleRate: sampleRate) })
        for segment in segments {
            appendSegment(segment, frames: 0..<frames(of: segment.duration, sampleRate: sampleRate), volume: volume, sampleRate: sampleRate, to: &out)
        }
        return out
    }

    /// Renders segments a piece at a time, at most `maxFrames` a piece, so a player can
    /// start on the first piece instead of waiting for a whole cycle's synthesis (an alarm's
    /// onset). Joined, the pieces are exactly `render(segments)`.
    public struct Pieces: IteratorProtocol {
        let segments: [ToneSegment]
        let volume: Double
        let sampleRate: Int
        let maxFrames: Int
        var segment = 0
        var frame = 0

        public init(_ segments: [ToneSegment], volume: Double, sampleRate: Int = defaultSampleRate, maxFrames: Int) {
            self.segments = segments
            self.volume = volume.isFinite ? min(max(volume, 0), 1) : 0
            self.sampleRate = sampleRate
            self.maxFrames = max(maxFrames, 1)
        }

        public mutating func next() -> [Int16]? {
            while segment < segments.count {
                let count = frames(of: segments[segment].duration, sampleRate: sampleRate)
                guard frame < count else {
                    segment += 1
                    frame = 0
                    continue
                }
                let end = min(frame + maxFrames, count)
                var out: [Int16] = []
                out.reserveCapacity(end - frame)
                appendSegment(segments[segment], frames: frame..<end, volume: volume, sampleRate: sampleRate, to: &out)
                frame = end
                return out
            }
            return nil
        }
    }

    public static func frames(of duration: Duration, sampleRate: Int) -> Int {
        max(0, Int((duration.seconds * Double(sampleRate)).rounded()))
    }

    /// Frames `range` of the segment (0..<count is all of it): each frame depends only on
    /// its index, so a segment rendered in pieces is the same as rendered whole.
    private static func appendSegment(_ segment: ToneSegment, frames range: Range<Int>, volume: Double, sampleRate: Int,
                                      to out: inout [Int16]) {
        let count = frames(of: segment.duration, sampleRate: sampleRate)
        guard count > 0, !range.isEmpty else { return }
        let amplitude = min(max(segment.gain, 0), 1) * volume * Double(Int16.max)
        guard !segment.isSilence, amplitude > 0, sampleRate > 0 else {
            out.append(contentsOf: repeatElement(0, count: range.count))
            return
        }
        let rate = Double(sampleRate)
        // Short segments get proportionally shorter fades, so a fade never eats the tone.
        let attackFrames = min(frames(of: attack, sampleRate: sampleRate), count / 3)
        let releaseFrames = min(frames(of: release, sampleRate: sampleRate), count / 3)
        // Odd harmonics of the square wave, kept under 0.45 × the rate (no aliasing, margin for resamplers).
        let harmonics: [Double] = switch segment.waveform {
        case .sine: [1]
        case .square: stride(from: 1.0, through: max(1, 0.45 * rate / segment.frequency), by: 2).map { $0 }
        }
        let omega = 2 * Double.pi * segment.frequency / rate
        for n in range {
            var wave = 0.0
            for k in harmonics { wave += sin(k * omega * Double(n)) / k }
            let value = wave * envelope(n, count: count, attack: attackFrames, release: releaseFrames) * amplitude
            out.append(Int16(clamping: Int(value.rounded())))
        }
    }

    /// 0 at both ends of the segment, 1 in the middle, raised-cosine ramps in between.
    private static func envelope(_ n: Int, count: Int, attack: Int, release: Int) -> Double {
        if attack > 0, n < attack {
            return 0.5 - 0.5 * cos(Double.pi * Double(n) / Double(attack))
        }
        let fromEnd = count - 1 - n
        if release > 0, fromEnd < release {
            return 0.5 - 0.5 * cos(Double.pi * Double(fromEnd) / Double(release))
        }
        return 1
    }
}
