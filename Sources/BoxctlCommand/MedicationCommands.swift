import ArgumentParser
import BoxControl
import BoxWords
import DoseCore
import Foundation
import NightLog

/// SSOT 2.4.2's medication log: `boxctl med add` through boxd (the duplicate guard and the
/// write are boxd's), `boxctl med list` from the log.
struct Med: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "med", abstract: "The medication log: Adderall IR and XR beside XYWAV.", subcommands: [Add.self, List.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Log a medication taken.",
            discussion: "The same medication logged less than \(DoseConstants.number(DoseConstants.box.medication.duplicateGuardMin)) minutes from another entry is refused (409) unless --confirm says it was really taken twice.")
        @Argument(help: "One of: \(MedicationType.known.map(\.id).joined(separator: ", ")).") var medication: String
        // Unconditional: "-5" is the dose's value (refused as not positive), not an unknown flag.
        @Option(parsing: .unconditional, help: "The dose, e.g. 10 or 7.5 (\(Self.doseRange) for Adderall).") var dose: Double
        @Option(help: "One of: \(MedicationLog.units.joined(separator: ", ")).") var unit: String = "mg"
        @Option(help: "When it was taken: HH:MM (the last such time, in the box's zone) or an ISO 8601 time. Default: now.") var at: String?
        @Option(help: "A note.") var note: String?
        @Flag(help: "Log it even though the same medication was logged less than 5 minutes from it.") var confirm = false
        @OptionGroup var connection: Connection

        func validate() throws {
            guard MedicationType.named(medication) != nil else {
                throw ValidationError("medication must be one of \(MedicationType.known.map(\.id).joined(separator: ", "))")
            }
            guard MedicationLog.units.contains(unit) else { throw ValidationError("--unit must be one of \(MedicationLog.units.joined(separator: ", "))") }
            if let problem = MedicationLog.doseProblem(dose, unit: unit) { throw ValidationError("--dose \(Written.doseProblem(problem))") }
            if let at, Self.time(at, now: Date(), zone: .current) == nil {
                throw ValidationError("--at must be HH:MM or an ISO 8601 time such as 2026-11-21T08:00:00Z, not '\(at)'")
            }
            if let problem = ControlProtocol.noteProblem(note, option: "--note") { throw ValidationError(problem) }
        }

        func run() throws {
            var takenAt: Date?
            if let at {
                // HH:MM is the box's clock and zone, not this shell's.
                let context = BoxContext(connection)
                takenAt = Self.time(at, now: context.now, zone: context.zone)
            }
            try connection.run(.medication(MedicationEntry(medicationID: medication, doseValue: dose, doseUnit: unit,
                                                           takenAt: takenAt, notes: note), confirm: confirm))
        }

        static var doseRange: String {
            let m = DoseConstants.box.medication
            return "\(DoseConstants.number(m.minDoseMg)) to \(DoseConstants.number(m.maxDoseMg)) mg"
        }

        /// "08:00": the latest 08:00 at or before `now` in `zone`; else an ISO 8601 time.
        static func time(_ text: String, now: Date, zone: TimeZone) -> Date? {
            if let iso = Date(iso8601: text) { return iso }
            guard let clock = ClockTime(text) else { return nil }
            let next = SessionRules.nextOccurrence(of: clock, after: now, timeZone: zone)
            let previous = SessionRules.calendar(zone).date(byAdding: .day, value: -1, to: next) ?? next
            return next <= now ? next : previous
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The medications logged over the last nights.")
        @Option(help: "How many nights back, tonight included.") var days: Int = 14
        @OptionGroup var connection: Connection

        func validate() throws { guard (1...3650).contains(days) else { throw ValidationError("--days must be 1 to 3650") } }

        func run() throws {
            let context = BoxContext(connection)
            let range = context.range(days: days)
            let entries = try connection.medications(context, days: days)
            if connection.json {
                let rows = entries.map { m -> [String: Any] in
                    ["id": m.id, "session_date": m.sessionDate, "medication_id": m.medicationID, "dose_value": m.doseValue,
                     "dose_unit": m.doseUnit, "formulation": m.formulation, "taken_at_utc": m.takenAt.iso8601,
                     "local_offset_minutes": m.localOffsetMinutes, "notes": m.notes ?? "", "confirmed_duplicate": m.confirmedDuplicate]
                }
                print(String(decoding: try JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys]), as: UTF8.self))
                return
            }
            guard !entries.isEmpty else {
                print("No medications logged from \(range.from) to \(range.to).")
                return
            }
            print("night       taken  medication    dose")
            for m in entries {
                let name = MedicationType.named(m.medicationID)?.name ?? m.medicationID
                let dup = m.confirmedDuplicate ? "  (confirmed duplicate)" : ""
                let note = m.notes.map { "  \($0)" } ?? ""
                print("\(m.sessionDate)  \(LocalTime.hhmm(m.takenAt, in: context.zone))  \(name.padding(toLength: 12, withPad: " ", startingAt: 0))  \(DoseConstants.number(m.doseValue)) \(m.doseUnit)\(dup)\(note)")
            }
        }
    }
}
