import BoxControl
import BoxHardware
import BoxWords
import DoseCore
import Foundation

/// The hardware tests (any box) and the sim and bench commands (simulated boxes only;
/// `handle` checks that before calling here).
extension Engine {
    func testLED(_ name: String) -> Reply {
        guard let p = TestSignals.patterns[name] else { return .usage("no LED test named \(name)") }
        hardware.led.flash(p, duration: .seconds(3))
        return .done("Showing \(p.color.rawValue) \(p.name) for 3 s.", status: nil)
    }

    func testSound(_ name: String, inMs: Int?) async -> Reply {
        guard let s = TestSignals.sounds[name] else { return .usage("no sound test named \(name)") }
        let audioFailed = { (fault: String) in Reply.failed(code: "503_AUDIO", message: "Audio failed: \(fault)", status: nil) }
        if let inMs {
            // A timer `inMs` ahead on the real clock, then the sound: measures alarm onset error.
            let error = await timedPlay(s, in: .milliseconds(inMs))
            if let fault = hardware.audio.fault { return audioFailed(fault) }
            return .done(String(format: "Played %@; onset error %+.1f ms", s.description, error.seconds * 1000), status: nil)
        }
        hardware.audio.play(s, volume: volume, repeatFor: s.level == nil ? nil : .seconds(3))
        refreshHealth()
        if let fault = hardware.audio.fault { return audioFailed(fault) }
        return .done("Playing \(s).", status: nil)
    }

    /// `boxctl say-status` / `boxctl test voice`: one sentence through the box's speaker, the
    /// reply once it was said, with what it cost.
    func say(_ what: SayWhat) async -> Reply {
        guard let voice else {
            let why = config.voice.enabled ? "espeak-ng could not start (the journal says why)" : "[voice] enabled = false in boxd.toml"
            return .refused(code: "409_VOICE_OFF", message: "The voice is off: \(why).", status: nil)
        }
        let text = what == .status ? Speech.status(state, at: clock.now(), style: state.settings.voice.clock) : Speech.voiceTest
        let said = await voice.sayAndWait(text)
        logSpeech(text, failed: said.problem != nil)
        refreshHealth()
        if let problem = said.problem { return .failed(code: "503_AUDIO", message: "Not said: \(problem)", status: nil) }
        let cost = String(format: "synthesis %.0f ms", said.synthesis.seconds * 1000)
            + (said.firstSample.map { String(format: ", first sample %.0f ms after the request", $0.seconds * 1000) } ?? "")
        return .done("Said: \"\(text)\" (\(cost)).", status: nil)
    }

    func simCommand(_ command: SimCommand) async -> Reply {
        do {
            switch command {
            case .press(let button, let holdMs):
                try await simEdges(button: button, [(0, true), (Int64(holdMs), false)])
            case .double(let button):
                try await simEdges(button: button, [(0, true), (120, false), (250, true), (370, false)])
            case .edges(let button, let edges):
                try await simEdges(button: button, edges.map { (ms: $0.ms, pressed: $0.pressed) })
            case .advance(let ms): advance(by: .milliseconds(ms))
            case .clockStep(let ms): _ = stepWallClock(by: .milliseconds(ms))
            case .led:
                let base = hardware.led.base
                return .led(LEDReport(color: base.color.rawValue, pattern: base.name, flash: hardware.led.currentFlash?.name))
            case .sounds(let clear):
                defer { if clear { clearSoundLog() } }
                return .sounds(soundLog)
            case .fault(.logReadonly): try simulateReadOnlyLog()
            case .fault(let fault):
                guard let sink = hardware.audio as? WavSink else { return .usage("audio faults are simulated on the WAV sink only") }
                sink.setFailing(fault == .audioFail)
                refreshHealth()
            }
        } catch let e as SimError {
            switch e {
            case .unknownButton(let b): return .usage("no button named \(b) (see boxctl config show)", code: "404_UNKNOWN_BUTTON")
            case .notSimulated: return .refused(code: "403_NOT_SIMULATED", message: "not simulated", status: nil)
            }
        } catch {
            return .failed(code: "500_SIM", message: "\(error)", status: nil)
        }
        return .done("ok", status: status())
    }

    func benchCommand(_ command: BenchCommand) async -> Reply {
        switch command {
        case .inject(let button, let pressed):
            // One edge, stamped now: for the benchmark on the real clock with simulated buttons.
            guard await inject(button: button, pressed: pressed) else {
                return .usage("no button named \(button) (see boxctl config show)", code: "404_UNKNOWN_BUTTON")
            }
            return .done("ok", status: nil)
        case .metrics: return .metrics(takeMetrics())
        }
    }
}
