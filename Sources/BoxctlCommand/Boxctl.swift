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
/// Public for the programs that run it: `boxctl` and the multi-call `dosetap-box`.
public struct Boxctl: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "boxctl",
        abstract: "Talk to the DoseTap Box (boxd).",
        discussion: "Exit codes: 0 ok, 1 doctor found a failing check, 2 usage, 3 refused by the dose rules, 4 boxd unreachable (a socket path that is too long included), 5 night log unreadable, 6 not recorded, 7 output not writable.",
        subcommands: [Status.self, Take.self, Skip.self, Snooze.self, Undo.self, Dose.self, Log.self, CheckIn.self,
                      History.self, Med.self, SupplyCommand.self, DrinkCommand.self, PreSleepCommand.self, InsightsCommand.self, Plan.self, Report.self, Export.self, Forget.self, Prune.self, SupportBundleCommand.self, Watch.self, Config.self, Target.self, Doctor.self, TestHardware.self, SayStatus.self, Sim.self])

    /// ArgumentParser's usage errors exit 64; the box's contract says 2.
    public static func main() {
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

/// One environment variable. ProcessInfo's `environment` copies the whole environment into a
/// dictionary, ~0.45 M instructions a read, and a command made Connection's defaults five times
/// (four instances ArgumentParser makes, one it decodes) (#34).
func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

struct Connection: ParsableArguments {
    @Option(help: "boxd's control socket.")
    var socket: String = environment("BOXCTL_SOCKET") ?? BoxPaths.defaultSocket

    @Option(name: .customLong("state-dir"),
            help: "boxd's state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else \(BoxPaths.defaultStateDirectory).")
    var stateDirOption: String?

    /// Where the night log is: --state-dir (or $BOXCTL_STATE_DIR) when given; else the state
    /// directory the boxd behind --socket reports, so `boxctl --socket S export` reads that
    /// boxd's log; else the default.
    var stateDir: String {
        if let given = stateDirOption ?? environment("BOXCTL_STATE_DIR") { return given }
        let reply = try? ControlClient(path: socket, timeout: .seconds(2)).send(.status)
        return reply?.status?.stateDir ?? BoxPaths.defaultStateDirectory
    }

    @Flag(help: "Print boxd's reply as JSON.")
    var json = false

    /// Sends a command; prints the reply; exits with the reply's code.
    func run(_ command: Command, print render: ((Reply) -> String)? = nil) throws {
        let reply = try send(command)
        if json {
            let data = (try? ControlProtocol.encoder().encode(reply)) ?? Data()
            print(String(decoding: data, as: UTF8.self))
        } else if reply.ok {
            print(render?(reply) ?? reply.message)
        } else {
            FileHandle.standardError.write(Data("\(reply.message)\n".utf8))
        }
        if !reply.ok { throw ExitCode(Exit(reply)) }
    }

    func send(_ command: Command) throws -> Reply {
        do {
            return try ControlClient(path: socket, timeout: Self.replyTimeout(command)).send(command)
        } catch {
            FileHandle.standardError.write(Data("\(error)\nIs boxd running? (systemctl status boxd)\n".utf8))
            throw ExitCode(Exit.unreachable)
        }
    }

    /// A sentence is answered once it has been said, which may be behind an alarm ringing out
    /// and other sentences. boxd bounds that wait itself (ring_seconds, at most 600 s, + 30 s +
    /// the sentence), so boxctl waits longer than that. A simulation's command (simulated
    /// hardware only) does work in proportion to what it is given (fifty bouncy presses, a
    /// night's hours of alarms), which a busy machine stretches: 120 s (fifty presses took
    /// over 10 s at nice 19 beside CI's guests). Everything else answers at once.
    static func replyTimeout(_ command: Command) -> Duration {
        switch command {
        case .say: .seconds(900)
        case .sim, .bench: .seconds(120)
        default: .seconds(10)
        }
    }

    /// The patient's zone for local times: boxd's when it answers, else the newest night's
    /// in the log (`log`, if it is open already), else this machine's.
    func boxTimeZone(_ log: NightLog? = nil) -> TimeZone {
        (try? ControlClient(path: socket, timeout: .seconds(2)).send(.status))?
            .status.flatMap { TimeZone(identifier: $0.timeZone) } ?? newestNight(log)?.zone ?? .current
    }

    /// What the night log says of its newest night, best effort (nil without a readable log).
    /// boxd's own files beside it (settings, the simulated clock) are boxd's alone.
    func newestNight(_ open: NightLog? = nil) -> NewestNight? {
        guard let log = open ?? (try? NightLog.openReadOnly(stateDirectory: URL(fileURLWithPath: stateDir))),
              let session = (try? log.persistedNight())?.session else { return nil }
        return NewestNight(session)
    }

    func openLog(quickCheck: Bool = true) throws -> NightLog {
        do {
            return try NightLog.openReadOnly(stateDirectory: URL(fileURLWithPath: stateDir), quickCheck: quickCheck)
        } catch {
            FileHandle.standardError.write(Data("the night log cannot be read: \(error)\n".utf8))
            throw ExitCode(Exit.logUnreadable)
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
        do {
            // The text as boxd renders it: one string to decode, not the report's types (#34).
            let reply = try ControlClient(path: connection.socket).send(connection.json ? .status : .statusText)
            if case .text(let text) = reply { return print(text) }
            guard let s = reply.status else { throw ControlClient.Failure.unreachable("boxd answered without a status: \(reply.message)") }
            report = s
        } catch {
            report = try offlineStatus(unreachable: "\(error)")
        }
        if connection.json {
            print(String(decoding: try ControlProtocol.encoder().encode(report), as: UTF8.self))
        } else {
            print(report.text())
        }
    }

    /// boxd is down: fold the night from the log, read-only, and say so. With no log to read
    /// either, boxd being unreachable is the news (exit 4), and the log comes second.
    func offlineStatus(unreachable: String) throws -> StatusReport {
        let log: NightLog
        do {
            log = try NightLog.openReadOnly(stateDirectory: URL(fileURLWithPath: connection.stateDir))
        } catch {
            FileHandle.standardError.write(Data("""
                \(unreachable)
                Is boxd running? (systemctl status boxd)
                No status from the night log either: \(error)

                """.utf8))
            throw ExitCode(Exit.unreachable)
        }
        let persisted: PersistedNight
        do {
            persisted = try log.persistedNight()
        } catch {
            FileHandle.standardError.write(Data("the night log cannot be read: \(error)\n".utf8))
            throw ExitCode(Exit.logUnreadable)
        }
        // The newest night's zone and target: what the log says; a target changed since,
        // or a zone, boxd alone knows.
        let newest = persisted.session.map(NewestNight.init)
        var settings = BoxSettings(timeZone: newest?.zone ?? .current)
        if let newest { settings.targetMinutes = newest.targetMinutes }
        var state = BoxState.rebuilt(settings: settings, from: persisted)
        if let supply = try? log.supplyStatus() {
            state = DoseReducer.reduce(state, .supplyChanged(supply), Context(now: KernelClock.now())).state
        }
        return StatusReport(state: state, now: KernelClock.now(),
                            source: "log", health: nil, stateDir: log.fileURL.deletingLastPathComponent().path)
    }
}

/// The log's newest night, as boxctl reads it when boxd is not there: its date, its zone
/// (nil for a night logged before zones were kept) and the target it began with.
struct NewestNight {
    var date: String
    var zone: TimeZone?
    var targetMinutes: Int

    init(_ session: SessionRecord) {
        date = session.date
        zone = session.timeZone.flatMap(TimeZone.init(identifier:))
        let valid = DoseConstants.box.window.validTargetsMin.contains(session.targetMinutes)
        targetMinutes = valid ? session.targetMinutes : DoseConstants.box.window.defaultTargetMin
    }
}
