import BoxHardware
import DoseCore
import Testing

let namedSounds: [Sound] = [.success, .warning, .error, .stop, .status, .alreadyRecorded, .successRefillDue]
let alarmSounds: [Sound] = AlertKind.allCases.flatMap { kind in AlarmLevel.allCases.map { Sound.alarm(kind, $0) } }
let allSounds = namedSounds + alarmSounds

private func tones(_ sound: Sound) -> [ToneSegment] { ToneSynth.pattern(for: sound).filter { !$0.isSilence } }

/// Beep onsets per second over one cycle.
private func cadence(_ sound: Sound) -> Double {
    Double(tones(sound).count) / ToneSynth.duration(of: ToneSynth.pattern(for: sound)).seconds
}

/// How long a tone is above half amplitude: its length less half of each raised-cosine fade.
func audibleSeconds(_ tone: ToneSegment) -> Double {
    tone.duration.seconds - (ToneSynth.attack.seconds + ToneSynth.release.seconds) / 2
}

private func peak(_ samples: [Int16]) -> Int { samples.map { abs(Int($0)) }.max() ?? 0 }

private func rms(_ samples: [Int16]) -> Double {
    (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
}

@Suite("Tone synthesis")
struct ToneSynthTests {
    @Test("every sound has a short, audible pattern", arguments: allSounds)
    func everySoundHasAPattern(sound: Sound) {
        let pattern = ToneSynth.pattern(for: sound)
        #expect(!tones(sound).isEmpty)
        let length = ToneSynth.duration(of: pattern)
        #expect(length >= .milliseconds(50) && length <= .seconds(2), "\(sound) lasts \(length)")
        for tone in tones(sound) {
            #expect((100...4000).contains(tone.frequency))
            #expect(tone.gain > 0 && tone.gain <= 1)
        }
        #expect(ToneSynth.repeats(sound) == (sound.level != nil))
        let samples = ToneSynth.samples(for: sound, volume: 1)
        #expect(samples.count == ToneSynth.frames(of: length, sampleRate: ToneSynth.defaultSampleRate))
    }

    @Test("alarm cycles are short enough to loop and stop quickly", arguments: alarmSounds)
    func alarmCyclesAreShort(sound: Sound) {
        let cycle = ToneSynth.duration(of: ToneSynth.pattern(for: sound))
        #expect(cycle >= .milliseconds(900) && cycle <= .milliseconds(1500))
        #expect(ToneSynth.pattern(for: sound).last?.isSilence == true, "a cycle ends on a rest")
    }

    @Test("alarms get louder and faster with each level", arguments: AlertKind.allCases)
    func alarmsEscalate(kind: AlertKind) {
        let levels: [AlarmLevel] = [.gentle, .standard, .critical]
        let sounds = levels.map { Sound.alarm(kind, $0) }
        let gains = sounds.map { tones($0).map(\.gain).max() ?? 0 }
        let rates = sounds.map(cadence)
        let rendered = sounds.map { ToneSynth.samples(for: $0, volume: 1) }
        for i in 1..<levels.count {
            #expect(gains[i] > gains[i - 1], "\(levels[i]) gain")
            #expect(rates[i] > rates[i - 1], "\(levels[i]) cadence \(rates)")
            #expect(peak(rendered[i]) > peak(rendered[i - 1]), "\(levels[i]) peak")
            #expect(rms(rendered[i]) > rms(rendered[i - 1]), "\(levels[i]) energy")
            #expect(ToneSynth.style(for: levels[i]).beepsPerSecond > ToneSynth.style(for: levels[i - 1]).beepsPerSecond)
        }
        // Critical is full scale and harsh: square, two tones.
        #expect(gains[2] == 1.0)
        #expect(tones(sounds[2]).allSatisfy { $0.waveform == .square })
        #expect(Set(tones(sounds[2]).map(\.frequency)).count == 2)
        #expect(tones(sounds[0]).allSatisfy { $0.waveform == .sine })
    }

    @Test("rendered a chunk at a time (the player's first cycle), a sound is sample for sample the same", arguments: allSounds)
    func piecesJoinToTheWholeRender(sound: Sound) {
        let segments = ToneSynth.pattern(for: sound)
        for size in [1, 320, 7919] {
            var pieces = ToneSynth.Pieces(segments, volume: 0.8, maxFrames: size)
            var joined: [Int16] = []
            while let piece = pieces.next() {
                #expect(piece.count <= size && !piece.isEmpty)
                joined += piece
            }
            #expect(joined == ToneSynth.render(segments, volume: 0.8))
        }
    }

    @Test("no sample leaves the Int16 range or clips, whatever the volume", arguments: allSounds)
    func samplesStayInRange(sound: Sound) {
        let full = ToneSynth.samples(for: sound, volume: 1)
        #expect(peak(full) <= Int(Int16.max), "no clipping at full volume")
        #expect(!full.contains(Int16.min))
        #expect(ToneSynth.samples(for: sound, volume: 7) == full, "volume is clamped to 1")
        #expect(ToneSynth.samples(for: sound, volume: -1).allSatisfy { $0 == 0 })
        #expect(ToneSynth.samples(for: sound, volume: .nan).allSatisfy { $0 == 0 })
        let half = ToneSynth.samples(for: sound, volume: 0.5)
        #expect(abs(Double(peak(half)) - Double(peak(full)) / 2) <= 1, "volume scales linearly")
    }

    @Test("critical alarms reach near full scale")
    func criticalIsFullScale() {
        let samples = ToneSynth.samples(for: .alarm(.expired, .critical), volume: 1)
        #expect(Double(peak(samples)) > 0.85 * Double(Int16.max))
    }

    @Test("the rising chime rises, the descending tone descends")
    func contours() {
        let rising = tones(.success).map(\.frequency)
        #expect(rising.count >= 3)
        #expect(zip(rising, rising.dropFirst()).allSatisfy { $0 < $1 })
        let falling = tones(.warning).map(\.frequency)
        #expect(falling.count >= 2)
        #expect(zip(falling, falling.dropFirst()).allSatisfy { $0 > $1 })
        // Window-closing alerts echo the warning: each pair of beeps steps down.
        for level in AlarmLevel.allCases {
            for kind in [AlertKind.remainingWarning, .hardStop, .expired] {
                let f = tones(.alarm(kind, level)).map(\.frequency)
                #expect(f[0] > f[1], "\(kind)/\(level)")
            }
        }
    }

    @Test("stop is three low square blasts; error a short buzz; status a short chirp")
    func namedSoundShapes() {
        let stop = tones(.stop)
        #expect(stop.count == 3)
        #expect(stop.allSatisfy { $0.waveform == .square && $0.frequency < 200 && $0.duration >= .milliseconds(300) })
        let error = tones(.error)
        #expect(error.allSatisfy { $0.waveform == .square && $0.duration <= .milliseconds(150) })
        #expect(ToneSynth.duration(of: ToneSynth.pattern(for: .status)) <= .milliseconds(100))
        // The refill reminder's Dose 1 starts as the plain chime, so the dose is heard as taken.
        #expect(ToneSynth.pattern(for: .successRefillDue).starts(with: ToneSynth.pattern(for: .success)))
        // Every named sound differs from every other.
        #expect(Set(namedSounds.map { ToneSynth.pattern(for: $0) }).count == namedSounds.count)
    }

    @Test("every tone fades in from and out to silence (no clicks)", arguments: allSounds)
    func envelopes(sound: Sound) {
        let rate = ToneSynth.defaultSampleRate
        let samples = ToneSynth.samples(for: sound, volume: 1)
        let nearZero = Int(0.01 * Double(Int16.max))
        var start = 0
        for segment in ToneSynth.pattern(for: sound) {
            let count = ToneSynth.frames(of: segment.duration, sampleRate: rate)
            defer { start += count }
            guard !segment.isSilence else {
                #expect(samples[start..<start + count].allSatisfy { $0 == 0 })
                continue
            }
            #expect(abs(Int(samples[start])) <= nearZero, "\(segment) starts at \(samples[start])")
            #expect(abs(Int(samples[start + count - 1])) <= nearZero, "\(segment) ends at \(samples[start + count - 1])")
        }
        #expect(start == samples.count)
    }
}

@Suite("Goertzel checks of synthesized tones")
struct GoertzelTests {
    let rate = ToneSynth.defaultSampleRate

    @Test("a gentle wake beep is 659 Hz for 200 ms, twice, 150 ms apart")
    func gentleBeep() {
        let samples = ToneSynth.samples(for: .alarm(.preAlarm, .gentle), volume: 1)
        let style = ToneSynth.style(for: .gentle)
        let bursts = Goertzel.bursts(samples, frequency: style.low, sampleRate: rate)
        #expect(bursts.count == 2)
        for burst in bursts {
            let seconds = Goertzel.seconds(burst.count, rate)
            let want = audibleSeconds(tones(.alarm(.preAlarm, .gentle))[0])
            #expect(abs(seconds - want) <= 0.1 * want, "burst \(seconds)s, want \(want)s")
            let f = Goertzel.dominantFrequency(samples[burst], sampleRate: rate)
            #expect(abs(f - style.low) < 3, "dominant \(f) Hz")
        }
        if bursts.count == 2 {
            let gap = Goertzel.seconds(bursts[1].lowerBound - bursts[0].upperBound, rate)
            let want = style.gap.seconds + (ToneSynth.attack.seconds + ToneSynth.release.seconds) / 2
            #expect(abs(gap - want) <= 0.1 * want, "gap \(gap)s, want \(want)s")
        }
    }

    @Test("the status chirp and the critical square beeps carry their fundamentals")
    func otherTones() {
        for sound in [Sound.status, .alarm(.followUp, .critical), .stop] {
            let samples = ToneSynth.samples(for: sound, volume: 0.8)
            let first = tones(sound)[0]
            let bursts = Goertzel.bursts(samples, frequency: first.frequency, sampleRate: rate)
            guard let burst = bursts.first else {
                Issue.record("no burst in \(sound)")
                continue
            }
            let f = Goertzel.dominantFrequency(samples[burst], sampleRate: rate, in: 100...2000)
            #expect(abs(f - first.frequency) / first.frequency < 0.01, "\(sound): \(f) Hz, want \(first.frequency)")
            let seconds = Goertzel.seconds(burst.count, rate)
            let want = audibleSeconds(first)
            #expect(abs(seconds - want) <= 0.1 * want, "\(sound): \(seconds)s, want \(want)s")
        }
    }
}
