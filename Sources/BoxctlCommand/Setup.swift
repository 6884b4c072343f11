import ArgumentParser
import BoxControl
import CBoxSys
import DoseCore
import Foundation
import NightLog

// MARK: - configuration and checks

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "The active configuration.", subcommands: [Show.self])
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Every value and where it came from.")
        @OptionGroup var connection: Connection
        func run() throws {
            try connection.run(.config) { reply in
                (reply.config ?? []).map { "\($0.key) = \($0.value)    (\($0.source))" }.joined(separator: "\n")
            }
        }
    }
}

struct Target: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "target",
        abstract: "Set the target interval for Dose 2 (\(DoseConstants.box.window.validTargetsMin.map(String.init).joined(separator: ", ")) minutes). Needs --confirm.",
        discussion: "The target moves the wake alarm. Whatever the target, Dose 2 must be taken \(DoseConstants.box.windowText) minutes after Dose 1.")
    @Argument(help: "Minutes after Dose 1.") var minutes: Int
    @Flag(help: "Confirm the change.") var confirm = false
    @OptionGroup var connection: Connection

    func validate() throws {
        let valid = DoseConstants.box.window.validTargetsMin
        guard valid.contains(minutes) else { throw ValidationError("target must be one of \(valid.map(String.init).joined(separator: ", "))") }
    }

    func run() throws {
        if !confirm {
            print("Safety rule: Dose 2 must be taken \(DoseConstants.box.windowText) minutes after Dose 1. The target (\(minutes) min) only moves the wake alarm.")
        }
        try connection.run(.target(minutes: minutes, confirm: confirm))
    }
}

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor", abstract: "Check buttons, audio, the night log, time sync and the socket; one pass/fail line each.",
        discussion: "Exits 0 when every check passes, 1 when one fails. --json prints the checks as a JSON list.")
    @Flag(help: "Also play a short tone.") var play = false
    @OptionGroup var connection: Connection

    /// One check's result; `--json` prints the list.
    struct Check: Encodable {
        var check: String
        var ok: Bool
        var detail: String
    }

    func run() throws {
        var checks: [Check] = []
        func line(_ ok: Bool, _ what: String, _ detail: String) {
            checks.append(Check(check: what, ok: ok, detail: detail))
        }
        // The socket: present, a socket, group-accessible.
        var st = stat()
        if stat(connection.socket, &st) == 0 {
            let isSocket = (st.st_mode & S_IFMT) == S_IFSOCK
            let mode = st.st_mode & 0o777
            line(isSocket && mode & 0o060 == 0o060 && mode & 0o007 == 0, "socket", "\(connection.socket) mode \(String(mode, radix: 8))")
        } else {
            line(false, "socket", "\(connection.socket) missing: is boxd running?")
        }
        let reply = try? ControlClient(path: connection.socket).send(.doctor)
        if let h = reply?.status?.health {
            line(h.buttons == .ok, "buttons", h.buttons.text)
            line(h.audio == .ok, "audio", h.audio.text)
            line(h.log == .ok, "night log (boxd)", h.log.text)
            // A damaged log or one that lost records (#29): say why a dose needs a confirmation.
            let doubt = reply?.status?.doubt
            line(doubt == nil, "tonight's record", doubt.map { "in doubt: \($0) A dose needs a 2 s hold (or --confirm)." } ?? "known")
        } else {
            line(false, "boxd", "not reachable; buttons and audio not checked")
        }
        do {
            let log = try NightLog.openReadOnly(stateDirectory: URL(fileURLWithPath: connection.stateDir))
            line(true, "night log integrity", "quick_check ok (\(log.fileURL.path))")
        } catch {
            line(false, "night log integrity", "\(error)")
        }
        line(box_clock_synchronized() == 1, "time sync", box_clock_synchronized() == 1 ? "synchronised"
             : "not synchronised (NTP): times shown may be off, and after a reboot the dose window is measured on this clock")
        if play {
            let r = try? ControlClient(path: connection.socket).send(.testSound(name: "status", inMs: nil))
            line(r?.ok == true, "test tone", r?.message ?? "boxd not reachable")
        }
        if connection.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(checks), as: UTF8.self))
        } else {
            for c in checks { print("\(c.ok ? "PASS" : "FAIL")  \(c.check): \(c.detail)") }
        }
        if checks.contains(where: { !$0.ok }) { throw ExitCode(Exit.checkFailed) }
    }
}

struct TestHardware: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Show an LED pattern, play a sound or hear the voice, for setting up hardware.",
        usage: "boxctl test led <name>\nboxctl test sound <name> [--in <in>]\nboxctl test voice")
    @Argument(help: "led, sound or voice.") var what: String
    @Argument(help: "A pattern or colour (green, slow_pulse, fault, ...) or a sound (success, warning, error, stop, status, alarm_critical, ...); none for voice.")
    var name: String?
    @Option(name: .customLong("in"), help: "Sound only: play after this delay (2s) on the alarm timer and report the onset error.") var delay: String?
    @OptionGroup var connection: Connection

    func validate() throws {
        guard ["led", "sound", "voice"].contains(what) else { throw ValidationError("test led NAME, test sound NAME or test voice") }
        guard (what == "voice") == (name == nil) else {
            throw ValidationError(what == "voice" ? "test voice takes no name" : "test \(what) needs a name")
        }
        if let delay { guard what == "sound", DurationText.parseMilliseconds(delay).map({ $0 > 0 }) == true else { throw ValidationError("--in takes a delay such as 2s, for sounds") } }
    }
    func run() throws {
        let inMs = delay.flatMap(DurationText.parseMilliseconds).map { Int(clamping: $0) }
        switch what {
        case "voice": try connection.run(.say(.test))
        case "led": try connection.run(.testLED(name: name ?? ""))
        default: try connection.run(.testSound(name: name ?? "", inMs: inMs))
        }
    }
}

/// The status, aloud: what a hold on the dose button would say, through the box's speaker.
struct SayStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say-status", abstract: "Say the status aloud through the box's speaker, as a hold on the button does.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.run(.say(.status)) }
}
