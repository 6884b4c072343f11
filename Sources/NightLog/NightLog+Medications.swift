import DoseCore
import Foundation
import GRDB

extension NightLog {
    /// A medication_events row back to its record; odd data is `.unreadable`, never a crash.
    static func medicationRecord(_ r: StoredRow) throws -> MedicationRecord {
        let doseValue: Double = try r.double("dose_value")
        guard doseValue > 0, doseValue.isFinite else { throw r.bad("dose_value", String(doseValue)) }
        return MedicationRecord(
            id: try r.text("id"), sessionID: try r.optionalText("session_id"), sessionDate: try r.text("session_date"),
            medicationID: try r.text("medication_id"), doseValue: doseValue, doseUnit: try r.text("dose_unit"),
            formulation: try r.optionalText("formulation") ?? "", takenAt: try r.date(try r.text("taken_at_utc")),
            localOffsetMinutes: try r.int("local_offset_minutes"), notes: try r.optionalText("notes"),
            confirmedDuplicate: try r.optionalBool("confirmed_duplicate") ?? false, createdAt: try r.date(try r.text("created_at")),
            source: try r.source("source"))
    }

    /// The entries with a session date in the range, in the order they were taken.
    public func medicationEvents(from: String? = nil, to: String? = nil) throws(NightLogError) -> [MedicationRecord] {
        let range = try ExportRange(from: from, to: to)
        let path = self.path
        return try guarded {
            try db.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM medication_events \(range.whereClause("session_date")) ORDER BY taken_at_utc, id",
                                 arguments: range.arguments)
                    .map { try Self.medicationRecord(StoredRow($0, "medication_events", path: path)) }
            }
        }
    }

    /// The entries of one medication taken within `seconds` of `at`, either side: what the
    /// duplicate guard compares a new entry with.
    public func medicationEvents(_ medicationID: String, near at: Date, within seconds: Double) throws(NightLogError) -> [MedicationRecord] {
        let path = self.path
        return try guarded {
            try db.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT * FROM medication_events WHERE medication_id = ? AND taken_at_utc >= ? AND taken_at_utc <= ? ORDER BY taken_at_utc
                    """, arguments: [medicationID, at.addingTimeInterval(-seconds).iso8601, at.addingTimeInterval(seconds).iso8601])
                    .map { try Self.medicationRecord(StoredRow($0, "medication_events", path: path)) }
            }
        }
    }

    /// The night of a session date: the last session opened with it, if any.
    public func sessionID(forDate date: String) throws(NightLogError) -> String? {
        try guarded {
            try db.read { db in
                try String.fetchOne(db, sql: "SELECT session_id FROM sleep_sessions WHERE session_date = ? ORDER BY seq DESC LIMIT 1",
                                    arguments: [date])
            }
        }
    }
}
