import ArgumentParser
import BoxControl
import CBoxSys
import DoseCore
import Foundation
import NightLog

/// boxctl: the box over SSH. Exit codes: 0 worked, 2 usage, 3 refused by the rules,
/// 4 boxd unreachable, 5 the night log is unreadable, 6 not recorded (the box failed),
/// 7 the output cannot be written (export: --out not writable, or CSV files already there
/// without --force).
@main
struct Boxctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boxctl",
        abstract: "Talk to the DoseTap Box (boxd).",
        discussion: "Exit codes: 0 ok, 1 doctor found a failing check, 2 usage, 3 refused by the dose rules, 4 boxd unreachable (a socket path that is too long included), 5 night log unreadable, 6 not recorded, 7 output not writable.",
        subcommands: [Status.self, Take.self, Skip.self, Snooze.self, Undo.self, Dose.self, Log.self, CheckIn.self,
                      History.self, Export.self, Config.self, Target.self, Doctor.self, TestHardware.self, Sim.self])

    /// ArgumentParser's usage errors exit 64; the box's contract says 2.
    static func main() {
        do {
            var command = try parseAsRoot(globalOptionsLast(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// `boxctl --socket PATH status` reads naturally; the option lives on each subcommand, so
/// leading connection options are moved behind the subcommand.
func globalOptionsLast(_ args: [String]) -> [String] {
    var leading: [String] = []
    var rest = args[...]
    while let first = rest.first, ["--socket", "--state-dir", "--json"].contains(where: { first == $0 || first.hasPrefix($0 + "=") }) {
        leading.append(first)
        rest = rest.dropFirst()
        if first == "--socket" || first == "--state-dir", let value = rest.first {
            leading.append(value)
            rest = rest.dropFirst()
        }
    }
    return Array(rest) + leading
}

struct Connection: ParsableArguments {
    @Option(help: "boxd's control socket.")
    var socket: String = ProcessInfo.processInfo.environment["BOXCTL_SOCKET"] ?? ControlProtocol.defaultSocketPath

    @Option(help: "boxd's state directory, read directly when boxd is down.")
    var stateDir: String = ProcessInfo.processInfo.environment["BOXCTL_STATE_DIR"] ?? "/var/lib/boxd"

    @Flag(help: "Print boxd's reply as JSON.")
    var json = false

    /// Sends a request; prints the reply; exits with the reply's code.
    func run(_ request: ControlRequest, print render: ((ControlResponse) -> String)? = nil) throws {
        let reply = try send(request)
        if json {
            let data = (try? ControlProtocol.encoder().encode(reply)) ?? Data()
            print(String(decoding: data, as: UTF8.self))
        } else if reply.ok {
            print(render?(reply) ?? reply.message)
        } else {
            FileHandle.standardError.write(Data("\(reply.message)\n".utf8))
        }
        if reply.exit != .ok { throw ExitCode(reply.exit.rawValue) }
    }

    func send(_ request: ControlRequest) throws -> ControlResponse {
        do {
            return try ControlClient(path: socket).send(request)
        } catch {
            FileHandle.standardError.write(Data("\(error)\nIs boxd running? (systemctl status boxd)\n".utf8))
            throw ExitCode(BoxControl.ExitCode.unreachable.rawValue)
        }
    }

    /// What boxd left in settings.json: its time zone and any boxctl target.
    func savedSettings() -> [String: Any] {
        (try? Data(contentsOf: URL(fileURLWithPath: stateDir).appendingPathComponent("settings.json")))
            .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
    }

    var savedTimeZone: TimeZone? { (savedSettings()["timeZone"] as? String).flatMap(TimeZone.init(identifier:)) }

    func openLog() throws -> NightLog {
        do {
            return try NightLog.openReadOnly(stateDirectory: URL(fileURLWithPath: stateDir))
        } catch {
            FileHandle.standardError.write(Data("the night log cannot be read: \(error)\n".utf8))
            throw ExitCode(BoxControl.ExitCode.logUnreadable.rawValue)
        }
    }
}

// MARK: - status

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Where the night stands: phase, doses, window, next alarm, LED, health.")
    @OptionGroup var connection: Connection

    func run() throws {
        let report: StatusReport
        if let reply = try? ControlClient(path: connection.socket).send(ControlRequest("status")), let s = reply.status {
            report = s
        } else {
            report = try offlineStatus()
        }
        if connection.json {
            print(String(decoding: try ControlProtocol.encoder().encode(report), as: UTF8.self))
        } else {
            print(report.text())
        }
    }

    /// boxd is down: fold the night from the log, read-only, and say so.
    func offlineStatus() throws -> StatusReport {
        let log = try connection.openLog()
        let records: [LogRecord]
        do {
            records = try log.latestSession()?.records ?? []
        } catch {
            FileHandle.standardError.write(Data("the night log cannot be read: \(error)\n".utf8))
            throw ExitCode(BoxControl.ExitCode.logUnreadable.rawValue)
        }
        let saved = connection.savedSettings()
        var settings = BoxSettings(timeZone: connection.savedTimeZone ?? .current)
        if let t = saved["targetMinutes"] as? Int, settings.rules.window.validTargetsMin.contains(t) { settings.targetMinutes = t }
        let state = BoxState.rebuilt(settings: settings, records: records)
        return StatusReport(state: state, now: simulatedNow() ?? Moment(wall: Date(), boot: Self.bootID(), monoNanos: Self.bootTime()),
                            source: "log", health: nil)
    }

    /// A box that ran on the simulated clock left its reading in the state directory; its night is judged on that clock.
    func simulatedNow() -> Moment? {
        struct Reading: Decodable {
            var wall: Date
            var mono: Int64
            var boot: String
        }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: connection.stateDir).appendingPathComponent("sim-clock.json")),
              let r = try? JSONDecoder().decode(Reading.self, from: data) else { return nil }
        return Moment(wall: r.wall, boot: r.boot, monoNanos: r.mono)
    }

    static func bootID() -> String {
        (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
    }

    static func bootTime() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

// MARK: - actions

struct Take: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "take", abstract: "Take the next dose (Dose 1, or Dose 2 in the window). Early or late needs --confirm.")
    @Flag(help: "Confirm an early (before \(DoseConstants.number(DoseConstants.box.window.openMin)) min) or late (after \(DoseConstants.number(DoseConstants.box.window.closeMin)) min) Dose 2.") var confirm = false
    @OptionGroup var connection: Connection
    func run() throws { try connection.run(ControlRequest("take", confirm: confirm)) }
}

struct Skip: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skip", abstract: "Skip Dose 2 tonight (possible once the window is open).")
    @Option(help: "drowsy, side_effects or other.") var reason: SkipReason?
    @OptionGroup var connection: Connection
    func run() throws { try connection.run(ControlRequest("skip", reason: reason?.rawValue)) }
}

extension SkipReason: ExpressibleByArgument {}

struct Snooze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze", abstract: "Snooze the wake alarm by 10 minutes (at most 3 a night).")
    @OptionGroup var connection: Connection
    func run() throws { try connection.run(ControlRequest("snooze")) }
}

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Undo the last dose action within the undo window.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.run(ControlRequest("undo")) }
}

struct Dose: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dose", abstract: "Dose records that no button can make.", subcommands: [Extra.self])

    struct Extra: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "extra", abstract: "Record an extra dose after Dose 2. Needs --confirm.")
        @Flag(help: "Confirm that an extra dose was really taken.") var confirm = false
        @OptionGroup var connection: Connection
        // The box's reply says why (STOP after Dose 2, "take Dose 1 first" before it).
        func run() throws { try connection.run(ControlRequest("extra", confirm: confirm)) }
    }
}

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Log a sleep event.")
    @Argument(help: "One of: \(SleepEventType.allCases.map(\.rawValue).joined(separator: ", ")).") var event: SleepEventType
    @Option(help: "A note.") var note: String?
    @Flag(help: "wake_final while Dose 2 is still owed: end the night and record Dose 2 as skipped.") var confirm = false
    @OptionGroup var connection: Connection
    func validate() throws {
        if let problem = ControlProtocol.noteProblem(note, option: "--note") { throw ValidationError(problem) }
    }
    func run() throws { try connection.run(ControlRequest("log", confirm: confirm, event: event.rawValue, note: note)) }
}

extension SleepEventType: ExpressibleByArgument {}
extension CheckInAnswers.FeelRested: ExpressibleByArgument {}
extension CheckInAnswers.Grogginess: ExpressibleByArgument {}
extension CheckInAnswers.Mood: ExpressibleByArgument {}

struct CheckIn: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "checkin", abstract: "The morning check-in (quick mode). It closes the night.")
    @Option(help: "Sleep quality, 1 to 5.") var quality: Int
    @Option(help: "notAtAll, slightly, moderate, well or veryWell.") var rested: CheckInAnswers.FeelRested = .moderate
    @Option(help: "none, mild, moderate, severe or cantFunction.") var grogginess: CheckInAnswers.Grogginess = .mild
    @Option(help: "Mental clarity, 1 to 10.") var clarity: Int = 5
    @Option(help: "veryLow, low, neutral, good or great.") var mood: CheckInAnswers.Mood = .neutral
    @Option(help: "Notes.") var notes: String?
    @Flag(help: "Check in while Dose 2 is still owed: end the night and record Dose 2 as skipped.") var confirm = false
    @OptionGroup var connection: Connection

    func validate() throws {
        guard CheckInAnswers.qualityRange.contains(quality) else { throw ValidationError("--quality must be 1 to 5") }
        guard CheckInAnswers.clarityRange.contains(clarity) else { throw ValidationError("--clarity must be 1 to 10") }
        if let problem = ControlProtocol.noteProblem(notes, option: "--notes") { throw ValidationError(problem) }
    }

    func run() throws {
        let answers = CheckInAnswers(sleepQuality: quality, feelRested: rested, grogginess: grogginess, mentalClarity: clarity, mood: mood, notes: notes)
        try connection.run(ControlRequest("checkin", confirm: confirm, checkin: answers))
    }
}

// MARK: - viewing

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "One line per night: Dose 1, Dose 2, interval, on time, how it ended.")
    @Option(help: "How many nights.") var days: Int = 14
    @OptionGroup var connection: Connection

    func validate() throws { guard (1...3650).contains(days) else { throw ValidationError("--days must be 1 to 3650") } }

    func run() throws {
        let log = try connection.openLog()
        let nights: [NightSummary]
        do { nights = try log.recentNights(limit: days) } catch {
            FileHandle.standardError.write(Data("the night log cannot be read: \(error)\n".utf8))
            throw ExitCode(BoxControl.ExitCode.logUnreadable.rawValue)
        }
        if connection.json {
            let rows = nights.map { n -> [String: String] in
                ["session_date": n.sessionDate, "dose1": n.dose1?.iso8601 ?? "", "dose2": n.dose2?.iso8601 ?? "",
                 "interval_min": n.intervalMinutes.map { String(Int($0.rounded())) } ?? "", "on_time": String(n.onTime),
                 "skipped": String(n.skipped), "terminal_state": n.terminalState?.rawValue ?? "open"]
            }
            print(String(decoding: try JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys]), as: UTF8.self))
            return
        }
        // Local times in the box's time zone when boxd can say which; else this machine's.
        let zone = (try? ControlClient(path: connection.socket, timeout: .seconds(2)).send(ControlRequest("status")))?
            .status.flatMap { TimeZone(identifier: $0.timeZone) } ?? connection.savedTimeZone ?? .current
        if nights.isEmpty {
            print("No nights recorded yet.")
            return
        }
        // On time is ±10 min of the night's target; the snoozes it took stand beside it.
        print("night       dose 1  dose 2  interval  on time  snoozes  ended")
        for n in nights {
            let d2 = n.skipped ? "skip " : clock(n.dose2, zone)
            let interval = n.intervalMinutes.map { String(format: "%4d min", Int($0.rounded())) } ?? "       —"
            print("\(n.sessionDate)  \(clock(n.dose1, zone))   \(d2)   \(interval)  \(n.dose2 == nil ? "  —  " : (n.onTime ? " yes " : " no  "))    \(n.snoozeCount)        \(n.terminalState?.rawValue ?? "open")")
        }
    }

    func clock(_ d: Date?, _ zone: TimeZone) -> String {
        guard let d else { return "  —  " }
        let c = SessionRules.calendar(zone).dateComponents([.hour, .minute], from: d)
        return String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0)
    }
}

/// Exit code 7: the export's output cannot be written (not in BoxControl's ExitCode, which
/// is the control protocol's; only export writes files).
let outputNotWritableExit: Int32 = 7

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the night log as CSV files (sessions, dose events, sleep events, check-ins, analytics).",
        discussion: "Existing CSV files in --out are kept unless --force is given. Exit code 7: --out cannot be written, or holds CSV files already (without --force).")
    @Option(help: "Directory to write into (created if missing).") var out: String
    @Option(help: "First session date, YYYY-MM-DD.") var from: String?
    @Option(help: "Last session date, YYYY-MM-DD.") var to: String?
    @Flag(help: "Replace CSV files already in --out.") var force = false
    @OptionGroup var connection: Connection

    func validate() throws {
        for (flag, date) in [("--from", from), ("--to", to)] {
            if let date, let problem = ExportRange.problem(with: date) { throw ValidationError("\(flag): \(problem)") }
        }
        if let from, let to, from > to { throw ValidationError("--from \(from) is after --to \(to)") }
    }

    func run() throws {
        let dir = URL(fileURLWithPath: out)
        try checkOutput(dir)
        let log = try connection.openLog()
        do {
            let files = try log.export(to: dir, from: from, to: to, overwrite: force)
            for f in files { print(f.path) }
        } catch {
            switch error {
            case .exportFailed(let path, let detail):
                try notWritable(detail == "already exists" ? "\(path) already exists; add --force to replace it" : "cannot write \(path): \(detail)")
            case .invalidArgument(let detail):
                FileHandle.standardError.write(Data("export: \(detail)\n".utf8))
                throw ExitCode(BoxControl.ExitCode.usage.rawValue)
            default:
                FileHandle.standardError.write(Data("export failed: \(error)\n".utf8))
                throw ExitCode(BoxControl.ExitCode.logUnreadable.rawValue)
            }
        }
    }

    /// Before reading the log: --out must be (or become) a writable directory, and without
    /// --force must not hold export files already.
    func checkOutput(_ dir: URL) throws {
        if let problem = NightLog.directoryProblem(dir.path) { try notWritable("cannot write to \(dir.path): \(problem)") }
        if !force, let existing = NightLog.existingExportFiles(in: dir).first {
            try notWritable("\(existing.path) already exists; add --force to replace it")
        }
    }

    func notWritable(_ message: String) throws -> Never {
        FileHandle.standardError.write(Data("export: \(message)\n".utf8))
        throw ExitCode(outputNotWritableExit)
    }
}

// MARK: - configuration and checks

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "The active configuration.", subcommands: [Show.self])
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Every value and where it came from.")
        @OptionGroup var connection: Connection
        func run() throws {
            try connection.run(ControlRequest("config")) { reply in
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
        try connection.run(ControlRequest("target", confirm: confirm, minutes: minutes))
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
        let reply = try? ControlClient(path: connection.socket).send(ControlRequest("doctor"))
        if let h = reply?.status?.health {
            line(h.buttons == "ok", "buttons", h.buttons)
            line(h.audio == "ok", "audio", h.audio)
            line(h.log == "ok", "night log (boxd)", h.log)
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
            let r = try? ControlClient(path: connection.socket).send(ControlRequest("test-sound", name: "status"))
            line(r?.ok == true, "test tone", r?.message ?? "boxd not reachable")
        }
        if connection.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(checks), as: UTF8.self))
        } else {
            for c in checks { print("\(c.ok ? "PASS" : "FAIL")  \(c.check): \(c.detail)") }
        }
        if checks.contains(where: { !$0.ok }) { throw ExitCode(Self.checkFailed) }
    }

    /// doctor's own exit code: a check failed (documented in the README and --help).
    static let checkFailed: Int32 = 1
}

struct TestHardware: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "test", abstract: "Show an LED pattern or play a sound, for setting up hardware.")
    @Argument(help: "led or sound.") var what: String
    @Argument(help: "A pattern or colour (green, slow_pulse, fault, ...) or a sound (success, warning, error, stop, status, alarm_critical, ...).") var name: String
    @Option(name: .customLong("in"), help: "Sound only: play after this delay (2s) on the alarm timer and report the onset error.") var delay: String?
    @OptionGroup var connection: Connection

    func validate() throws {
        guard what == "led" || what == "sound" else { throw ValidationError("test led NAME or test sound NAME") }
        if let delay { guard what == "sound", DurationText.parseMilliseconds(delay).map({ $0 > 0 }) == true else { throw ValidationError("--in takes a delay such as 2s, for sounds") } }
    }
    func run() throws {
        try connection.run(ControlRequest(what == "led" ? "test-led" : "test-sound", ms: delay.flatMap(DurationText.parseMilliseconds), name: name))
    }
}
