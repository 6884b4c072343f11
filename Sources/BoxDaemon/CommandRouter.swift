import BoxControl
import BoxHardware
import BoxWords
import DoseCore
import Foundation

/// Routes each control command, in its turn in the input loop (Engine+Inputs). Commands
/// arrive decoded and checked (`ControlProtocol.decodeCommand`), so this only routes.
/// Changes carry the caller's uid as the source.
extension Engine {
    /// The reply now, or nil for a command that waits for the box (`answerLater`).
    func answerNow(_ command: Command, uid: UInt32) -> Reply? {
        let source = Source.cli(uid: uid)
        // The caregiver bridge is in group boxd to reach the socket, and may only read: no
        // MQTT message can record, undo or skip a dose, even through a bridge gone wrong.
        if let bridge = Self.bridgeUID, uid == bridge, !command.isReadOnly {
            return .refused(code: "403_READ_ONLY", message: "boxd-mqtt may only read (status, watch): \(command.name) refused", status: nil)
        }
        switch command {
        case .status, .doctor: return .status(status())
        case .statusText: return .text(status().text())
        case .take(let confirm): return reply(apply(.takeDose(confirmed: confirm), source: source))
        case .skip(let reason): return reply(apply(.skipDose2(reason: reason), source: source))
        case .snooze: return reply(apply(.snooze, source: source))
        case .undo: return reply(apply(.undo, source: source))
        case .extra(let confirm): return reply(apply(.extraDose(confirmed: confirm), source: source))
        case .log(let type, let note, let confirm):
            return reply(apply(.logSleepEvent(type, notes: note, confirmed: confirm), source: source))
        case .checkin(let answers, let confirm): return reply(apply(.checkIn(answers, confirmed: confirm), source: source))
        case .target(let minutes, let confirm): return reply(apply(.setTarget(minutes: minutes, confirmed: confirm), source: source))
        case .medication(let entry, let confirm): return logMedication(entry, confirmed: confirm, source: source)
        case .forget(let from, let to, let confirm): return forget(from: from, to: to, confirmed: confirm, source: source)
        case .supply(let change): return changeSupply(change, source: source)
        case .drink(.add(let type, let units, let at)): return reply(apply(.logDrink(type, units: units, at: at), source: source))
        case .drink(.undo): return reply(apply(.undoDrink, source: source))
        case .preSleep(let answers): return reply(apply(.logPreSleep(answers), source: source))
        case .config: return .config(configEntries())
        case .testLED(let name): return testLED(name)
        case .testSound, .say: return nil
        case .watch:
            // The control server streams a watch on its own connection; one that reaches here cannot stream.
            return .usage("watch streams the event feed on its own connection; it cannot be answered with one reply")
        case .link:
            return .usage("link reports come from the caregiver bridge on its watch connection")
        case .sim:
            // The sim clock, not merely sim buttons: sim commands move time.
            guard clock.isSimulated else {
                return .refused(code: "403_NOT_SIMULATED",
                                message: "sim commands work only when boxd runs with --hardware sim and --clock sim:…", status: nil)
            }
            return nil
        case .bench:
            guard hardware.simulatedGPIO != nil else {
                return .refused(code: "403_NOT_SIMULATED", message: "bench commands work only when boxd runs with --hardware sim", status: nil)
            }
            return nil
        }
    }

    /// The commands that wait for the box: a sound or a sentence until it has played, a
    /// simulation or a bench press until its edges have come round the loop.
    func answerLater(_ command: Command) async -> Reply {
        switch command {
        case .testSound(let name, let inMs): await testSound(name, inMs: inMs)
        case .say(let what): await say(what)
        case .sim(let sim): await simCommand(sim)
        case .bench(let bench): await benchCommand(bench)
        default: .usage("\(command.name) is answered in its turn, not later")
        }
    }

    /// The caregiver bridge's user (systemd/boxd-sysusers.conf), if this machine has it.
    static let bridgeUID: UInt32? = getpwnam("boxd-mqtt").map { $0.pointee.pw_uid }

    /// The event feed after `after` (at most `limit` entries) and the newest id, for `watch`.
    public func feedPage(after: Int64?, limit: Int) -> Result<(newest: Int64, events: [FeedEvent]), WatchSource.WatchFailure> {
        guard let log else { return .failure(.init(logFaultDetail ?? "the night log is not open")) }
        do {
            let newest = try log.lastFeedID()
            guard let after else { return .success((newest, [])) }
            return .success((newest, try log.feed(after: after, limit: limit)))
        } catch {
            return .failure(.init("\(error)"))
        }
    }

    /// What an action came to, with the status after it.
    func reply(_ result: ApplyResult) -> Reply {
        switch result {
        case .done(.accepted(let a)): .done(Written.acceptance(a, in: state.settings.timeZone), status: status())
        case .done(.ignored): .done("Nothing to do.", status: status())
        case .done(.refused(let refusal)):
            .refused(code: refusal.code, message: Written.refusal(refusal, in: state.settings.timeZone), status: status())
        case .failed(let message): .failed(code: "507_NOT_RECORDED", message: message, status: status())
        }
    }

    /// Every config value and where it came from; a saved target overrides the file's.
    func configEntries() -> [ConfigEntry] {
        var out = config.entries.map { ConfigEntry(key: $0.key, value: $0.value, source: config.source(of: $0.key)) }
        let store = SettingsStore(directory: stateDirectory)
        if let t = store.load()?.targetMinutes, let i = out.firstIndex(where: { $0.key == "box.target_minutes" }) {
            out[i] = ConfigEntry(key: "box.target_minutes", value: String(t), source: store.url.path + " (boxctl target)")
        }
        out.append(ConfigEntry(key: "clock", value: clock.description, source: "command line"))
        return out
    }
}
