import ArgumentParser
import BoxControl
import BoxWords
import CBoxSys
import DoseCore
import Foundation
import NightLog

// MARK: - viewing

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "One line per night: Dose 1, Dose 2, interval, on time, how it ended.")
    @Option(help: "How many nights.") var days: Int = 14
    @OptionGroup var connection: Connection

    func validate() throws { guard (1...3650).contains(days) else { throw ValidationError("--days must be 1 to 3650") } }

    func run() throws {
        let log = try connection.openLog()
        let (nights, evenings) = try connection.reading(log) { log in
            let nights = try log.recentNights(limit: days)
            return (nights, try log.evenings(from: nights.last?.sessionDate, to: nights.first?.sessionDate))
        }
        if connection.json {
            let rows = nights.map { n -> [String: String] in
                ["session_date": n.sessionDate, "dose1": n.dose1?.iso8601 ?? "", "dose2": n.dose2?.iso8601 ?? "",
                 "interval_min": n.intervalMinutes.map { String(Int($0.rounded())) } ?? "", "on_time": String(n.onTime),
                 "skipped": String(n.skipped), "terminal_state": n.terminalState?.rawValue ?? "open",
                 "alcohol_drinks": evenings[n.sessionDate].map { String($0.alcoholicDrinks) } ?? ""]
            }
            print(String(decoding: try JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys]), as: UTF8.self))
            return
        }
        let zone = connection.boxTimeZone(log)
        if nights.isEmpty {
            print("No nights recorded yet.")
            return
        }
        // On time is ±10 min of the night's target; the snoozes it took stand beside it.
        print("night       dose 1  dose 2  interval  on time  snoozes  ended      evening before")
        for n in nights {
            let d2 = n.skipped ? "skip " : clock(n.dose2, zone)
            let interval = n.intervalMinutes.map { String(format: "%4d min", Int($0.rounded())) } ?? "       —"
            print("\(n.sessionDate)  \(clock(n.dose1, zone))   \(d2)   \(interval)  \(n.dose2 == nil ? "  —  " : (n.onTime ? " yes " : " no  "))    \(n.snoozeCount)        \((n.terminalState?.rawValue ?? "open").padding(toLength: 9, withPad: " ", startingAt: 0))  \(Written.evening(evenings[n.sessionDate], zone: zone))")
        }
    }

    func clock(_ d: Date?, _ zone: TimeZone) -> String { d.map { LocalTime.hhmm($0, in: zone) } ?? "  —  " }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the night log as CSV files: the seeds' (events, sessions, sleep events, check-ins, analytics) and the box's own (box-*.csv).",
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
        // The log's quick_check runs beside the export, not before it (see `NightLog.export`).
        let log = try connection.openLog(quickCheck: false)
        do {
            // analytics.csv's times of day are the patient's (the box's zone); every other file is UTC.
            let files = try log.export(to: dir, from: from, to: to, overwrite: force, zone: connection.boxTimeZone(log), checkingBeside: true)
            for f in files { print(f.path) }
        } catch {
            switch error {
            case .exportFailed(let path, let detail):
                try notWritable(detail == "already exists" ? "\(path) already exists; add --force to replace it" : "cannot write \(path): \(detail)")
            case .invalidArgument(let detail):
                FileHandle.standardError.write(Data("export: \(detail)\n".utf8))
                throw ExitCode(Exit.usage)
            default:
                // A damaged log, found by the check beside the export, in the words every reader uses.
                let what = if case .corrupt = error { "the night log cannot be read" } else { "export failed" }
                FileHandle.standardError.write(Data("\(what): \(error)\n".utf8))
                throw ExitCode(Exit.logUnreadable)
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
        throw ExitCode(Exit.outputNotWritable)
    }
}
