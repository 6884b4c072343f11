import BoxWords
import DoseCore
import Foundation
import Plot

/// What the report shows: the nights of a range and the figures drawn from them. Plain
/// values, so the page is a pure function of them (two renderings are byte-identical).
public struct ReportInput: Sendable {
    public var from: String
    public var to: String
    /// The patient's zone, for the times of day.
    public var zone: TimeZone
    public var generated: Date
    /// Every night with a session date in the range, oldest first.
    public var nights: [NightFacts]
    /// The medication log's entries of the range, in the order taken.
    public var medications: [MedicationRecord]
    public var plan: Planner.Suggestion

    public init(from: String, to: String, zone: TimeZone, generated: Date, nights: [NightFacts], medications: [MedicationRecord],
                plan: Planner.Suggestion) {
        self.from = from
        self.to = to
        self.zone = zone
        self.generated = generated
        self.nights = nights
        self.medications = medications
        self.plan = plan
    }
}

/// `boxctl report`: one self-contained HTML page for the sleep specialist (no script, no
/// network, the charts inline SVG), sized to print on A4 and Letter alike.
///
/// The document is built with Plot (JohnSundell/Plot), which escapes every text node, so
/// nothing the patient typed can become markup. The charts are SVG rectangles, lines,
/// circles and text placed by `IntervalChart` and `OutcomeBar`; no Swift charting library
/// is among the box's packages, and a JavaScript one would need a script in a page meant to
/// be printed and archived.
public enum ClinicianReport {
    public static func html(_ input: ReportInput) -> String {
        let insights = Insights.summarize(input.nights)
        let html = HTML(
            .lang(.english),
            .head(
                .meta(.charset(.utf8)),
                .title("DoseTap Box report, \(input.from) to \(input.to)"),
                .style(stylesheet)
            ),
            .body(
                .header(
                    .h1("Two-dose nights, \(input.from) to \(input.to)"),
                    .p(.class("meta"), .text("DoseTap Box · generated \(stamp(input.generated, input.zone)) · times in \(input.zone.identifier) · window \(DoseConstants.box.windowText) min after Dose 1"))
                ),
                summary(insights, plan: input.plan),
                .section(
                    .class("chart"),
                    .h2("Dose 1 → Dose 2, night by night"),
                    IntervalChart(nights: input.nights, from: input.from, to: input.to).node,
                    .p(.class("legend"), .text("Green band: the window (\(DoseConstants.box.windowText) min). Dash: the night's target. Dot: Dose 2 — green on time (±\(DoseConstants.number(DoseConstants.box.window.onTimeThresholdMin)) min of the target), blue in the window, red outside it. S: Dose 2 skipped. ×: Dose 1 with no Dose 2."))
                ),
                .section(
                    .class("chart"),
                    .h2("How the nights ended"),
                    OutcomeBar(nights: input.nights).node
                ),
                .section(
                    .class("chart"),
                    .h2("The evenings before"),
                    EveningChart(nights: input.nights).node,
                    .p(.class("legend"), .text("Each dot: one night's Dose 1 → Dose 2 interval, green on time. Alcohol logged: any alcoholic drink logged for that night's evening (boxctl drink, a drink button or the pre-sleep log). Shown side by side only: the report compares nothing and concludes nothing."))
                ),
                nightTable(input.nights, zone: input.zone),
                medicationTable(input.medications, zone: input.zone)
            )
        )
        return html.render(indentedBy: .spaces(1)) + "\n"
    }

    // MARK: - the figures

    static func summary(_ i: Insights, plan: Planner.Suggestion) -> Node<HTML.BodyContext> {
        let rules = DoseConstants.box
        func row(_ label: String, _ value: String, id: String? = nil) -> Node<HTML.TableContext> {
            .tr(.th(.text(label)), .td(.unwrap(id) { .id($0) }, .text(value)))
        }
        var rows: [Node<HTML.TableContext>] = [
            row("Nights with Dose 1", "\(i.nights)", id: "nights"),
            row("On time (±\(DoseConstants.number(rules.window.onTimeThresholdMin)) min of target)",
                i.onTimePercent.map { "\(percent($0)) (\(i.onTime) of \(i.nights))" } ?? "—", id: "on-time"),
        ]
        if let iv = i.intervals {
            rows.append(row("Interval, mean / median", "\(minutes(iv.mean)) / \(minutes(iv.median))", id: "interval-mean"))
            rows.append(row("Interval, range", "\(minutes(iv.min)) – \(minutes(iv.max))"))
            rows.append(row("Inside the window", "\(iv.inWindow) of \(iv.count)"))
        }
        let reasons = i.skipReasons.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue.replacingEvery("_", with: " ")) \($0.value)" }
        rows += [
            row("Natural wake before the window", i.naturalWakePercent.map { "\(percent($0)) (\(i.naturalWakes))" } ?? "—"),
            row("Night wakings logged (WASO)", i.wakingsPerNight.map { String(format: "%.1f a night (%d)", $0, i.nightWakings) } ?? "—"),
            row("Snoozes", "\(i.snoozes)"),
            row("Skipped", "\(i.skipped)" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")),
            row("Early / late overrides", "\(i.earlyOverrides) / \(i.lateOverrides)"),
            row("Extra doses", "\(i.extraDoses)"),
            row("Check-ins, mean sleep quality", i.sleepQualityMean.map { String(format: "%d, %.1f of 5", i.checkIns, $0) } ?? "none"),
            row("Target now → suggested", "\(plan.current) → \(plan.target) min (\(Written.explanation(plan)))", id: "plan"),
        ]
        return .section(
            .class("figures"),
            .h2("Figures"),
            .if(i.state == .insufficientData,
                .p(.id("insufficient"), .class("warn"), .text("Not enough nights for trends yet: \(i.nights) with Dose 1, \(rules.insights.minNights) needed."))),
            .table(.group(rows))
        )
    }

    // MARK: - the nights, as numbers

    static func nightTable(_ nights: [NightFacts], zone: TimeZone) -> Node<HTML.BodyContext> {
        let head: Node<HTML.TableContext> = .thead(.tr(
            .th("Night"), .th("Dose 1"), .th("Dose 2"), .th("Interval"), .th("Target"), .th("On time"),
            .th("Snoozes"), .th("Skip / override"), .th("Wakings"), .th("Evening"), .th("Check-in")))
        let rows: [Node<HTML.TableContext>] = nights.map { n in
            var notes: [String] = []
            if n.skipped { notes.append("skipped" + (n.skipReason.map { " (\($0.rawValue.replacingEvery("_", with: " ")))" } ?? "")) }
            if n.earlyOverride { notes.append("early") }
            if n.lateOverride { notes.append("late") }
            if n.extraDoses > 0 { notes.append("extra dose") }
            if n.dose1 != nil && n.dose2 == nil && !n.skipped { notes.append(n.isClosed ? "no Dose 2" : "night open") }
            return .tr(
                .class(n.missedWindow(DoseConstants.box.window) && n.isClosed ? "missed" : ""),
                .td(.text(n.sessionDate)),
                .td(.text(n.dose1.map { LocalTime.hhmm($0, in: zone) } ?? "—")),
                .td(.text(n.dose2.map { LocalTime.hhmm($0, in: zone) } ?? "—")),
                .td(.text(n.intervalMinutes.map { minutes($0) } ?? "—")),
                .td(.text("\(n.targetMinutes)")),
                .td(.text(n.dose2 == nil ? "—" : (n.onTime ? "yes" : "no"))),
                .td(.text("\(n.snoozeCount)")),
                .td(.text(notes.joined(separator: ", "))),
                .td(.text("\(n.nightWakings)")),
                .td(.class("evening"), .text(Written.evening(n.evening, zone: zone))),
                .td(.text(n.checkIn.map(checkIn) ?? "—")))
        }
        return .section(.class("nights"), .h2("Night by night"), .table(.id("nights-table"), head, .tbody(.group(rows))))
    }

    /// A night's check-in in a cell: every answer of Quick Mode, then the flags said yes to.
    static func checkIn(_ a: CheckInAnswers) -> String {
        let answers = "sleep \(a.sleepQuality)/5, rested \(CheckInWords.rested(a.feelRested)), groggy \(CheckInWords.groggy(a.grogginess)), "
            + "clarity \(a.mentalClarity)/10, mood \(CheckInWords.mood(a.mood))"
        let flags = a.flags.sorted().map(CheckInWords.flagName)
        return flags.isEmpty ? answers : answers + "; " + flags.joined(separator: ", ")
    }

    /// Every entry of the medication log, notes included (escaped by Plot like every text).
    static func medicationTable(_ entries: [MedicationRecord], zone: TimeZone) -> Node<HTML.BodyContext> {
        guard !entries.isEmpty else {
            return .section(.class("medications"), .h2("Medications"), .p(.text("None logged in this period.")))
        }
        let rows: [Node<HTML.TableContext>] = entries.map { m in
            .tr(.td(.text(m.sessionDate)), .td(.text(LocalTime.hhmm(m.takenAt, in: zone))),
                .td(.text(MedicationType.named(m.medicationID)?.name ?? m.medicationID)),
                .td(.text("\(DoseConstants.number(m.doseValue)) \(m.doseUnit)")),
                .td(.text((m.confirmedDuplicate ? "confirmed duplicate. " : "") + (m.notes ?? ""))))
        }
        return .section(.class("medications"), .h2("Medications"),
                        .table(.id("medications-table"), .thead(.tr(.th("Night"), .th("Taken"), .th("Medication"), .th("Dose"), .th("Note"))),
                               .tbody(.group(rows))))
    }

    // MARK: - formatting

    static func percent(_ p: Double) -> String { String(format: "%.1f%%", p) }
    static func minutes(_ m: Double) -> String { "\(Int(m.rounded())) min" }

    static func stamp(_ date: Date, _ zone: TimeZone) -> String {
        let day = SessionDate.text(date.addingTimeInterval(TimeInterval(zone.secondsFromGMT(for: date))))
        return "\(day) \(LocalTime.hhmm(date, in: zone))"
    }

    /// Print: content 180 mm wide fits A4 (210 mm) and Letter (216 mm) with 12 mm margins;
    /// a chart or a table row never splits across pages.
    static let stylesheet = """
        @page { margin: 12mm; }
        body { font: 10pt/1.35 "DejaVu Sans", Arial, sans-serif; color: #111; max-width: 180mm; margin: 0 auto; }
        h1 { font-size: 15pt; margin: 0 0 2mm; }
        h2 { font-size: 11.5pt; margin: 5mm 0 2mm; }
        .meta, .legend { color: #444; font-size: 8.5pt; margin: 0; }
        .warn { color: #a00; font-weight: bold; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 0.6mm 1.5mm; border-bottom: 0.2mm solid #ccc; }
        .figures th { width: 45%; font-weight: normal; color: #333; }
        .nights table, .medications table { font-size: 8pt; }
        .nights tr.missed td { color: #a00; }
        svg { width: 100%; height: auto; display: block; }
        .chart, tr, .figures { break-inside: avoid; page-break-inside: avoid; }
        svg text { font: 9px "DejaVu Sans", Arial, sans-serif; fill: #333; }
        """
}
