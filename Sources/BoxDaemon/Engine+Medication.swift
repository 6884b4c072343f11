import BoxControl
import DoseCore
import Foundation
import NightLog

/// The medication log (SSOT 2.4.2): an action of the core (`Action.logMedication`, its guard
/// `MedicationLog.decide`). The engine reads what the guard compares with, then applies it:
/// the entry is written by the one write path, and acknowledged only once it is on disk.
extension Engine {
    func logMedication(_ entry: MedicationEntry, confirmed: Bool, source: Source) -> Reply {
        guard let log else {
            return notDone("Not recorded", logFaultDetail ?? "the night log is not open")
        }
        let takenAt = entry.takenAt ?? clock.now().wall
        let rules = state.settings.rules
        let nearby: [MedicationRecord], night: String?
        do {
            nearby = try log.medicationEvents(entry.medicationID, near: takenAt, within: rules.medication.duplicateGuardMin * 60)
            night = try log.sessionID(forDate: MedicationLog.sessionDate(of: takenAt, timeZone: state.settings.timeZone, rules: rules))
        } catch {
            return notDone("Not recorded", "the night log cannot be read: \(error)")
        }
        return reply(apply(.logMedication(entry, confirmed: confirmed, nearby: nearby, night: night), source: source))
    }
}
