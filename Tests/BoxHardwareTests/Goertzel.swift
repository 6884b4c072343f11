import Foundation

/// A tiny tone detector: the Goertzel algorithm measures one frequency's amplitude in a
/// block of samples, so tests can check what a sound (or ALSA's capture of it) really holds.
enum Goertzel {
    /// Amplitude of `frequency` in `samples`, in sample units (a full-scale sine gives ~32767).
    static func amplitude(_ samples: ArraySlice<Int16>, frequency: Double, sampleRate: Int) -> Double {
        guard !samples.isEmpty else { return 0 }
        let coeff = 2 * cos(2 * Double.pi * frequency / Double(sampleRate))
        var s1 = 0.0, s2 = 0.0
        for x in samples {
            let s0 = Double(x) + coeff * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = max(0, s1 * s1 + s2 * s2 - coeff * s1 * s2)
        return 2 * power.squareRoot() / Double(samples.count)
    }

    /// The strongest frequency in `range`: a 10 Hz scan, then a 0.25 Hz refinement.
    static func dominantFrequency(_ samples: ArraySlice<Int16>, sampleRate: Int, in range: ClosedRange<Double> = 100...4000) -> Double {
        func best(_ candidates: StrideThrough<Double>) -> Double {
            candidates.max { amplitude(samples, frequency: $0, sampleRate: sampleRate) < amplitude(samples, frequency: $1, sampleRate: sampleRate) } ?? 0
        }
        let coarse = best(stride(from: range.lowerBound, through: range.upperBound, by: 10))
        return best(stride(from: coarse - 10, through: coarse + 10, by: 0.25))
    }

    /// Where `frequency` sounds: runs of 4 ms blocks whose amplitude is above half the loudest
    /// block's, as frame ranges. Good to a block (4 ms) at either end.
    static func bursts(_ samples: [Int16], frequency: Double, sampleRate: Int) -> [Range<Int>] {
        let block = max(sampleRate / 250, 1)
        let levels = stride(from: 0, to: samples.count, by: block).map { start in
            amplitude(samples[start..<min(start + block, samples.count)], frequency: frequency, sampleRate: sampleRate)
        }
        guard let loudest = levels.max(), loudest > 0 else { return [] }
        var out: [Range<Int>] = []
        var runStart: Int?
        for (i, level) in levels.enumerated() {
            let on = level > loudest / 2
            if on, runStart == nil { runStart = i }
            if !on, let s = runStart {
                out.append(s * block..<i * block)
                runStart = nil
            }
        }
        if let s = runStart { out.append(s * block..<samples.count) }
        return out
    }

    static func seconds(_ frames: Int, _ sampleRate: Int) -> Double { Double(frames) / Double(sampleRate) }
}
