import BoxControl
import DoseCore
import Foundation
import NightLog

/// The medication log (SSOT 2.4.2): the guard's rule is `MedicationLog.decide` in the core;
/// the engine reads what it compares with, and writes the entry through the one write path,
/// so an entry is acknowledged only once it is on disk.
extension Engine {
    func logMedication(_ entry: MedicationEntry, confirmed: Bool, source: Source) -> Reply {
        let now = clock.now().wall
        let zone = state.settings.timeZone
        guard let log else {
            return notDone("Not recorded", logFaultDetail ?? "the night log is not open")
        }
        let takenAt = entry.takenAt ?? now
        let decision: MedicationLog.Decision
        do {
            let guardSeconds = state.settings.rules.medication.duplicateGuardMin * 60
            let nearby = try log.medicationEvents(entry.medicationID, near: takenAt, within: guardSeconds)
            // The night it belongs to, read here so a read that fails is this reply's failure.
            let date = MedicationLog.sessionDate(of: takenAt, timeZone: zone, rules: state.settings.rules)
            let night = try log.sessionID(forDate: date)
            decision = MedicationLog.decide(
                entry, confirmed: confirmed, nearby: nearby, now: now, timeZone: zone,
                sessionID: { $0 == date ? night : nil },
                id: UUID().uuidString.lowercased(), source: source, rules: state.settings.rules)
        } catch {
            return notDone("Not recorded", "the night log cannot be read: \(error)")
        }
        switch decision {
        case .refused(let refusal):
            return .refused(code: refusal.code, message: refusal.message(timeZone: zone), status: nil)
        case .record(let record):
            switch write([.medication(record)]) {
            case .failed(let failure):
                return notDone("Not recorded", failure)
            case .written, .nothing:
                let name = MedicationType.named(record.medicationID)?.name ?? record.medicationID
                let again = record.confirmedDuplicate ? " (a confirmed duplicate)" : ""
                return .done("Logged \(name) \(DoseConstants.number(record.doseValue)) \(record.doseUnit) at \(LocalTime.hhmm(record.takenAt, in: zone))\(again), night of \(record.sessionDate).", status: nil)
            }
        }
    }
}
