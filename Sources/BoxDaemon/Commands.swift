import BoxControl
import BoxHardware
import DoseCore
import Foundation

/// What each control request does. Mutating requests carry the caller's uid as the source.
extension Engine {
    public func handle(_ req: ControlRequest, uid: UInt32) async -> ControlResponse {
        let source = Source.cli(uid: uid)
        switch req.cmd {
        case "status":
            var r = ControlResponse.success("ok")
            r.status = status()
            return r
        case "take": return reply(apply(.takeDose(confirmed: req.confirm ?? false), source: source))
        case "skip":
            var reason: SkipReason?
            if let text = req.reason {
                guard let r = SkipReason(rawValue: text) else {
                    return .usage("reason must be one of \(SkipReason.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                reason = r
            }
            return reply(apply(.skipDose2(reason: reason), source: source))
        case "snooze": return reply(apply(.snooze, source: source))
        case "undo": return reply(apply(.undo, source: source))
        case "extra": return reply(apply(.extraDose(confirmed: req.confirm ?? false), source: source))
        case "log":
            if let problem = ControlProtocol.noteProblem(req.note, option: "note") { return .usage(problem) }
            guard let text = req.event, let type = SleepEventType(rawValue: text) else {
                return .usage("event must be one of \(SleepEventType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return reply(apply(.logSleepEvent(type, notes: req.note, confirmed: req.confirm ?? false), source: source))
        case "checkin":
            guard let answers = req.checkin else { return .usage("checkin needs the answers") }
            if let problem = ControlProtocol.noteProblem(answers.notes, option: "notes") { return .usage(problem) }
            return reply(apply(.checkIn(answers, confirmed: req.confirm ?? false), source: source))
        case "target":
            guard let m = req.minutes else { return .usage("target needs minutes") }
            return reply(apply(.setTarget(minutes: m, confirmed: req.confirm ?? false), source: source))
        case "config":
            var r = ControlResponse.success("ok")
            r.config = configEntries()
            return r
        case "test-led":
            guard let name = req.name, let p = Self.testPatterns[name] else {
                return .usage("LED test names: \(Self.testPatterns.keys.sorted().joined(separator: ", "))")
            }
            hardware.led.flash(p, duration: .seconds(3))
            return .success("Showing \(p.color.rawValue) \(p.name) for 3 s.")
        case "test-sound":
            guard let name = req.name, let s = Self.testSounds[name] else {
                return .usage("sound test names: \(Self.testSounds.keys.sorted().joined(separator: ", "))")
            }
            if let ms = req.ms {
                // A timer `ms` ahead on the real clock, then the sound: measures alarm onset error.
                guard (1...600_000).contains(ms) else { return .usage("--in must be 1 ms to 10 min") }
                let error = await timedPlay(s, in: .milliseconds(ms))
                let ok = ControlResponse.success(String(format: "Played %@; onset error %+.1f ms", s.description, error.seconds * 1000))
                return hardware.audio.fault.map { ControlResponse(ok: false, exit: .failed, message: "Audio failed: \($0)", code: "503_AUDIO") } ?? ok
            }
            hardware.audio.play(s, volume: volume, repeatFor: s.level == nil ? nil : .seconds(3))
            refreshHealth()
            if let fault = hardware.audio.fault { return ControlResponse(ok: false, exit: .failed, message: "Audio failed: \(fault)", code: "503_AUDIO") }
            return .success("Playing \(s).")
        case "inject":
            // One edge, stamped now: for the benchmark on the real clock with simulated buttons.
            guard let edge = req.edges, edge == "down" || edge == "up" else { return .usage("inject needs edges: down or up") }
            guard await inject(button: req.button ?? "dose", pressed: edge == "down") else {
                return ControlResponse(ok: false, exit: .refused, message: "inject works only with simulated buttons and a known button", code: "403_NOT_SIMULATED")
            }
            return .success("ok")
        case "metrics":
            var r = ControlResponse.success("ok")
            r.metrics = takeMetrics()
            return r
        case "doctor":
            var r = ControlResponse.success("ok")
            r.status = status()
            return r
        default:
            if req.cmd.hasPrefix("sim-") { return await simCommand(req) }
            return .usage("unknown command \(req.cmd)")
        }
    }

    static let testPatterns: [String: LEDPattern] = Dictionary(uniqueKeysWithValues: [
        LEDPattern.slowPulse, .pulse, .fastBlink, .urgentBlink, .closedBlink, .slowGlow, .confirmEarly, .confirmLate, .fault,
        .ack, .confirmation, .refused, .stop, .undone, .ready, .doubt, .confirmDoubt, .alreadyRecorded,
    ].map { ($0.name, $0) } + LEDColor.allCases.filter { $0 != .off }.map {
        ($0.rawValue, LEDPattern(name: $0.rawValue, color: $0, segments: [3000], repeats: false))
    })

    static let testSounds: [String: Sound] = {
        var all: [String: Sound] = ["success": .success, "warning": .warning, "error": .error, "stop": .stop, "status": .status,
                                        "already_recorded": .alreadyRecorded]
        for level in AlarmLevel.allCases { all["alarm_\(level)"] = .alarm(.mainAlarm, level) }
        for kind in AlertKind.allCases { all[kind.rawValue] = .alarm(kind, .standard) }
        return all
    }()

    func reply(_ result: ApplyResult) -> ControlResponse {
        var r: ControlResponse
        switch result {
        case .done(.accepted(let a)): r = .success(a.message)
        case .done(.ignored): r = .success("Nothing to do.")
        case .done(.refused(let refusal)):
            r = ControlResponse(ok: false, exit: .refused, message: refusal.message(timeZone: state.settings.timeZone), code: refusal.code)
        case .failed(let message):
            r = ControlResponse(ok: false, exit: .failed, message: message, code: "507_NOT_RECORDED")
        }
        r.status = status()
        return r
    }

    func configEntries() -> [ConfigEntry] {
        var out = config.entries.map { ConfigEntry(key: $0.key, value: $0.value, source: config.sources[$0.key] ?? (config.path ?? "default")) }
        if let saved = SettingsStore(directory: stateDirectory).load(), let t = saved.targetMinutes,
           let i = out.firstIndex(where: { $0.key == "box.target_minutes" }) {
            out[i] = ConfigEntry(key: "box.target_minutes", value: String(t), source: SettingsStore(directory: stateDirectory).url.path + " (boxctl target)")
        }
        out.append(ConfigEntry(key: "clock", value: clock.description, source: "command line"))
        return out
    }

    func simCommand(_ req: ControlRequest) async -> ControlResponse {
        guard clock is SimClock else {
            return ControlResponse(ok: false, exit: .refused, message: "sim commands work only when boxd runs with --hardware sim and --clock sim:…",
                                   code: "403_NOT_SIMULATED")
        }
        do {
            switch req.cmd {
            case "sim-press":
                let hold = Int64(req.holdMs ?? 120)
                guard (1...60_000).contains(hold) else { return .usage("hold must be 1 to 60000 ms") }
                try await simEdges(button: req.button ?? "dose", [(0, .falling), (hold, .rising)])
            case "sim-double":
                try await simEdges(button: req.button ?? "dose", [(0, .falling), (120, .rising), (250, .falling), (370, .rising)])
            case "sim-edges":
                guard let text = req.edges, let edges = Self.parseEdges(text) else {
                    return .usage("edges look like \"0:down,12:up,15:down,140:up\" (ms offsets, ascending)")
                }
                try await simEdges(button: req.button ?? "dose", edges)
            case "sim-advance":
                guard let ms = req.ms, ms >= 0, ms <= 7 * 86_400_000 else { return .usage("advance needs 0 to 7 days") }
                advance(by: .milliseconds(ms))
            case "sim-clock-step":
                // A range check that cannot overflow (abs(Int64.min) traps).
                guard let ms = req.ms, (-400 * 86_400_000...400 * 86_400_000).contains(ms) else {
                    return .usage("clock-step needs a signed duration of at most 400 days")
                }
                _ = stepWallClock(by: .milliseconds(ms))
            case "sim-led":
                var r = ControlResponse.success("ok")
                let base = hardware.led.base
                r.led = LEDReport(color: base.color.rawValue, pattern: base.name, flash: hardware.led.currentFlash?.name)
                return r
            case "sim-sounds":
                var r = ControlResponse.success("ok")
                r.sounds = soundLog
                if req.clear == true { clearSoundLog() }
                return r
            case "sim-fault":
                switch req.name {
                case "log-readonly": try simulateReadOnlyLog()
                case "audio-fail", "audio-ok":
                    guard let sink = hardware.audio as? WavSink else { return .usage("audio faults are simulated on the WAV sink only") }
                    sink.setFailing(req.name == "audio-fail")
                    refreshHealth()
                default: return .usage("faults: log-readonly, audio-fail, audio-ok")
                }
            default:
                return .usage("unknown command \(req.cmd)")
            }
        } catch let e as SimError {
            switch e {
            case .unknownButton(let b): return ControlResponse(ok: false, exit: .usage, message: "no button named \(b) (see boxctl config show)", code: "404_UNKNOWN_BUTTON")
            case .notSimulated: return ControlResponse(ok: false, exit: .refused, message: "not simulated", code: "403_NOT_SIMULATED")
            }
        } catch {
            return ControlResponse(ok: false, exit: .failed, message: "\(error)", code: "500_SIM")
        }
        var r = ControlResponse.success("ok")
        r.status = status()
        return r
    }

    /// "0:down,12:up" -> [(0, pressed), (12, released)], ascending offsets.
    static func parseEdges(_ text: String) -> [(ms: Int64, direction: RawEdge.Direction)]? {
        var out: [(Int64, RawEdge.Direction)] = []
        for part in text.split(separator: ",") {
            let kv = part.split(separator: ":")
            guard kv.count == 2, let ms = Int64(kv[0].trimmingCharacters(in: .whitespaces)), ms >= 0, ms <= 600_000 else { return nil }
            switch kv[1].trimmingCharacters(in: .whitespaces) {
            case "down": out.append((ms, .falling))
            case "up": out.append((ms, .rising))
            default: return nil
            }
            if out.count > 1, out[out.count - 2].0 > ms { return nil }
        }
        return out.isEmpty || out.count > 10_000 ? nil : out
    }
}
