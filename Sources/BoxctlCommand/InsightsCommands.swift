import ArgumentParser
import BoxControl
import BoxWords
import ClinicianReport
import DoseCore
import Foundation
import NightLog

/// Where the box stands for the weekly views: its clock, zone and target, from boxd when
/// it answers; else what the night log says: its newest night's zone and target, and that
/// night as the range's last day (the log knows no later night).
struct BoxContext {
    var now: Date
    var zone: TimeZone
    var targetMinutes: Int
    /// The range's last day: tonight's session date, or the log's newest night.
    var today: String

    /// The `days` session dates ending today.
    func range(days: Int) -> (from: String, to: String) {
        (SessionDate.adding(days: -(days - 1), to: today) ?? today, today)
    }

    init(_ connection: Connection) {
        let rollover = DoseConstants.box.session.rolloverHour
        if let s = (try? ControlClient(path: connection.socket, timeout: .seconds(2)).send(.status))?.status {
            now = s.now
            zone = TimeZone(identifier: s.timeZone) ?? .current
            targetMinutes = s.targetMinutes
            today = SessionRules.sessionKey(for: now, timeZone: zone, rolloverHour: rollover)
            return
        }
        let newest = connection.newestNight()
        now = Date()
        zone = newest?.zone ?? .current
        targetMinutes = newest?.targetMinutes ?? DoseConstants.box.window.defaultTargetMin
        today = newest?.date ?? SessionRules.sessionKey(for: now, timeZone: zone, rolloverHour: rollover)
    }
}

extension Connection {
    /// Reads the night log; one that cannot be read is exit 5, with the reason.
    func reading<T>(_ open: NightLog? = nil, _ body: (NightLog) throws -> T) throws -> T {
        let log = try open ?? openLog()
        do {
            return try body(log)
        } catch {
            FileHandle.standardError.write(Data("the night log cannot be read: \(error)\n".utf8))
            throw ExitCode(Exit.logUnreadable)
        }
    }

    /// Every night of the last `days` session dates, oldest first.
    func nightFacts(_ context: BoxContext, days: Int) throws -> [NightFacts] {
        let range = context.range(days: days)
        return try reading { try $0.nightFacts(from: range.from, to: range.to) }
    }

    /// The medication log's entries of the last `days` session dates, in the order taken.
    func medications(_ context: BoxContext, days: Int) throws -> [MedicationRecord] {
        let range = context.range(days: days)
        return try reading { try $0.medicationEvents(from: range.from, to: range.to) }
    }
}

struct InsightsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insights",
        abstract: "On-time %, Dose 1 to Dose 2 intervals, natural wakes and night wakings over the last nights.",
        discussion: "Counts finished nights with Dose 1. With fewer than \(DoseConstants.box.insights.minNights) of them it says there is not enough data yet (state insufficient_data).")
    @Option(help: "How many nights back, tonight included.") var days: Int = 30
    @OptionGroup var connection: Connection

    func validate() throws { guard (1...3650).contains(days) else { throw ValidationError("--days must be 1 to 3650") } }

    func run() throws {
        let context = BoxContext(connection)
        let insights = Insights.summarize(try connection.nightFacts(context, days: days))
        let range = context.range(days: days)
        if connection.json {
            print(String(decoding: try JSONSerialization.data(withJSONObject: Self.json(insights, range), options: [.sortedKeys]), as: UTF8.self))
        } else {
            print(Self.text(insights, range))
        }
    }

    static func text(_ i: Insights, _ range: (from: String, to: String)) -> String {
        let rules = DoseConstants.box
        var lines = ["Insights, \(range.from) to \(range.to): \(i.nights) finished nights with Dose 1."]
        guard i.state == .ready else {
            lines.append("Not enough data yet: insights need \(rules.insights.minNights) such nights.")
            return lines.joined(separator: "\n")
        }
        lines.append("On time (±\(DoseConstants.number(rules.window.onTimeThresholdMin)) min of the target): \(i.onTime) of \(i.nights) nights, \(percent(i.onTimePercent)).")
        if let iv = i.intervals {
            lines.append("Dose 1 → Dose 2: mean \(minutes(iv.mean)), median \(minutes(iv.median)), \(minutes(iv.min)) to \(minutes(iv.max)); \(iv.inWindow) of \(iv.count) inside \(rules.windowText) min.")
        } else {
            lines.append("Dose 1 → Dose 2: no Dose 2 taken.")
        }
        lines.append("Natural wake (before the window opened): \(i.naturalWakes) of \(i.nights) nights, \(percent(i.naturalWakePercent)).")
        lines.append("Night wakings logged (WASO): \(i.nightWakings), \(String(format: "%.1f", i.wakingsPerNight ?? 0)) a night.")
        let reasons = i.skipReasons.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        lines.append("Missed windows \(i.missedWindows): skipped \(i.skipped)\(reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))"), early \(i.earlyOverrides), late \(i.lateOverrides). Snoozes \(i.snoozes), extra doses \(i.extraDoses).")
        if let q = i.sleepQualityMean {
            lines.append("Check-ins \(i.checkIns), sleep quality \(String(format: "%.1f", q)) of 5 on average.")
        }
        return lines.joined(separator: "\n")
    }

    static func percent(_ p: Double?) -> String { p.map { String(format: "%.1f%%", $0) } ?? "—" }
    static func minutes(_ m: Double) -> String { "\(Int(m.rounded())) min" }

    static func json(_ i: Insights, _ range: (from: String, to: String)) -> [String: Any] {
        var out: [String: Any] = [
            "state": i.state.rawValue, "from": range.from, "to": range.to, "nights": i.nights, "dose2_taken": i.dose2Taken,
            "on_time": i.onTime, "natural_wakes": i.naturalWakes, "skipped": i.skipped, "missed_windows": i.missedWindows,
            "early_overrides": i.earlyOverrides, "late_overrides": i.lateOverrides, "snoozes": i.snoozes, "extra_doses": i.extraDoses,
            "night_wakings": i.nightWakings, "check_ins": i.checkIns,
            "skip_reasons": Dictionary(uniqueKeysWithValues: i.skipReasons.map { ($0.key.rawValue, $0.value) }),
        ]
        out["on_time_percent"] = i.onTimePercent
        out["natural_wake_percent"] = i.naturalWakePercent
        out["wakings_per_night"] = i.wakingsPerNight
        out["sleep_quality_mean"] = i.sleepQualityMean
        if let iv = i.intervals {
            out["interval_min"] = ["mean": iv.mean, "median": iv.median, "min": iv.min, "max": iv.max, "count": iv.count, "in_window": iv.inWindow]
        }
        return out
    }
}

struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "The weekly planner: next week's suggested target from the last 7 nights.",
        discussion: "Only a suggestion: the target changes with `boxctl target N --confirm`. The rules are the seed's (SSOT 2.4.3, Planner); see the README.")
    @OptionGroup var connection: Connection

    func run() throws {
        let context = BoxContext(connection)
        // The revert looks at the latest nights whatever their age, so read more than a week.
        let nights = try connection.nightFacts(context, days: 60)
        let s = Planner.suggestNextWeekTarget(nights: nights, currentTarget: context.targetMinutes, today: context.today)
        if connection.json {
            var out: [String: Any] = ["current": s.current, "suggested": s.target, "reason": s.reason.rawValue,
                                      "nights_in_week": s.nightsInWeek, "missed_in_a_row": s.missedInARow, "explanation": Written.explanation(s)]
            out["average_interval_min"] = s.averageInterval
            out["consistency"] = s.consistency
            print(String(decoding: try JSONSerialization.data(withJSONObject: out, options: [.sortedKeys]), as: UTF8.self))
            return
        }
        print("Target now: \(s.current) min. Suggested for next week: \(s.target) min.")
        print("Why: \(Written.explanation(s)).")
        if s.isChange { print("To use it: boxctl target \(s.target) --confirm") }
    }
}

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Write one HTML page for the sleep specialist: the nights' intervals against the window, the figures beside them.",
        discussion: "Self-contained (no network, inline SVG), prints on A4 or Letter. Exit code 7: --out cannot be written, or exists already (without --force).")
    @Option(help: "The HTML file to write.") var out: String
    @Option(help: "How many nights back, tonight included.") var days: Int = 30
    @Flag(help: "Replace --out if it exists.") var force = false
    @OptionGroup var connection: Connection

    func validate() throws {
        guard (1...3650).contains(days) else { throw ValidationError("--days must be 1 to 3650") }
        guard !out.isEmpty else { throw ValidationError("--out needs a file name") }
    }

    func run() throws {
        let url = URL(fileURLWithPath: out)
        if !force, FileManager.default.fileExists(atPath: url.path) { try fail("\(url.path) already exists; add --force to replace it") }
        let context = BoxContext(connection)
        // The planner's revert looks past the range; the page shows the range.
        let all = try connection.nightFacts(context, days: max(days, 60))
        let range = context.range(days: days)
        let input = ReportInput(
            from: range.from, to: range.to, zone: context.zone, generated: context.now,
            nights: all.filter { $0.sessionDate >= range.from }, medications: try connection.medications(context, days: days),
            plan: Planner.suggestNextWeekTarget(nights: all, currentTarget: context.targetMinutes, today: context.today))
        do {
            try Data(ClinicianReport.html(input).utf8).write(to: url, options: .atomic)
        } catch {
            try fail("cannot write \(url.path): \(NightLog.plainFileReason(error, path: url.path))")
        }
        print(url.path)
    }

    func fail(_ message: String) throws -> Never {
        FileHandle.standardError.write(Data("report: \(message)\n".utf8))
        throw ExitCode(Exit.outputNotWritable)
    }
}
