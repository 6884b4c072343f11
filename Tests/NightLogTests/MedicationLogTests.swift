import DoseCore
import Foundation
import Testing
@testable import NightLog

/// SSOT 2.4.2's medication_events in the log (migration "v9-medication-events"): stored with
/// the seed's columns, read back, found around a time for the duplicate guard, exported as
/// medication_events.csv, kept by a salvage, and outside the night and its event feed.
@Suite struct MedicationLogTests {
    static func med(_ id: String, _ medication: String = "adderall_ir", at minutes: Double, session: String? = "S1",
                    date: String = Fixture.date, dose: Double = 10, notes: String? = nil, duplicate: Bool = false) -> LogRecord {
        .medication(MedicationRecord(
            id: id, sessionID: session, sessionDate: date, medicationID: medication, doseValue: dose, doseUnit: "mg",
            formulation: medication == "adderall_xr" ? "xr" : "ir", takenAt: Fixture.at(minutes).wall, localOffsetMinutes: -300,
            notes: notes, confirmedDuplicate: duplicate, createdAt: Fixture.at(minutes + 1).wall, source: .cli(uid: 1000)))
    }

    /// Night S1 (Dose 1 at 0), two Adderall entries the next morning (600 and 602, the
    /// second a confirmed duplicate), an XR one, and one on a date with no night.
    static func filled(_ dir: URL) throws -> NightLog {
        let log = try NightLog.open(stateDirectory: dir)
        try log.append([Fixture.open(), Fixture.dose("d1", .dose1, at: 0)])
        try log.append([med("m1", at: 600, notes: "=with breakfast")])
        try log.append([med("m2", at: 602, dose: 7.5, duplicate: true), med("m3", "adderall_xr", at: 610)])
        try log.append([med("m4", at: 3000, session: nil, date: "2024-01-17"), Fixture.dose("d2", .dose2, at: 165)])
        return log
    }

    @Test func entriesReadBackAsWritten() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let all = try log.medicationEvents()
            #expect(all.map(\.id) == ["m1", "m2", "m3", "m4"])
            #expect(all.map { .medication($0) } == [Self.med("m1", at: 600, notes: "=with breakfast"),
                                                    Self.med("m2", at: 602, dose: 7.5, duplicate: true),
                                                    Self.med("m3", "adderall_xr", at: 610),
                                                    Self.med("m4", at: 3000, session: nil, date: "2024-01-17")])
            #expect(try log.medicationEvents(from: "2024-01-16").map(\.id) == ["m4"])
            // Around 605: the IR entries within 5 min (600, 602), not the XR one; around 606, 602 only.
            #expect(try log.medicationEvents("adderall_ir", near: Fixture.at(605).wall, within: 300).map(\.id) == ["m1", "m2"])
            #expect(try log.medicationEvents("adderall_ir", near: Fixture.at(606).wall, within: 300).map(\.id) == ["m2"])
            #expect(try log.sessionID(forDate: Fixture.date) == "S1")
            #expect(try log.sessionID(forDate: "2024-01-17") == nil)
        }
    }

    @Test func theNightAndItsFeedDoNotChange() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            // The feed numbers the night's records 1, 2, 3 with no gap for the entries.
            #expect(try log.feed(after: 0, limit: 100).map(\.id) == [1, 2, 3])
            let night = Night(replaying: try #require(try log.latestSession()).records)
            #expect(night.dose2 != nil)
        }
    }

    @Test func theExportHasTheSeedsColumns() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let csv = try log.csv(.medicationEvents)
            let lines = csv.components(separatedBy: "\r\n")
            #expect(lines[0] == "id,session_id,session_date,medication_id,dose_value,dose_unit,formulation,taken_at_utc,local_offset_minutes,notes,confirmed_duplicate,created_at")
            // The note that would run as a formula gets its quote; 7.5 stays 7.5.
            #expect(lines[1] == "m1,S1,2024-01-15,adderall_ir,10.0,mg,ir,2024-01-16T08:00:00.000Z,-300,'=with breakfast,false,2024-01-16T08:01:00.000Z")
            #expect(lines[2] == "m2,S1,2024-01-15,adderall_ir,7.5,mg,ir,2024-01-16T08:02:00.000Z,-300,,true,2024-01-16T08:03:00.000Z")
            #expect(lines[4].hasPrefix("m4,,2024-01-17,"))
            #expect(try log.csv(.medicationEvents, from: "2024-01-16") == lines[0] + "\r\n" + lines[4] + "\r\n")
        }
    }

    @Test func badRowsAndBadRecordsAreRefused() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            // A session that does not exist, a dose of 0: refused with their batch, by the schema.
            #expect(expectNightLogError { try log.append([Self.med("x", at: 0, session: "nope")]) } != nil)
            #expect(expectNightLogError { try log.append([Self.med("y", at: 0, session: nil, dose: 0)]) } != nil)
            #expect(try log.medicationEvents().isEmpty)
        }
    }

    @Test func aSalvagedLogKeepsItsMedications() throws {
        try withTempDir { dir throws in
            let file = dir.appendingPathComponent(NightLog.fileName)
            do { _ = try Self.filled(dir) }
            let original = try NightLog.dumpRows(path: file.path, table: "medication_events")
            #expect(original.count == 4)
            try SalvageTests.damageIndex("sqlite_autoindex_medication_events_1", in: dir)
            let log = try NightLog.open(stateDirectory: dir, now: SalvageTests.now)
            let report = try #require(log.salvage)
            #expect(report.table("medication_events") == SalvageReport.Table(name: "medication_events", salvaged: 4, refused: 0, complete: true, readErrors: 0))
            #expect(try log.dumpRows("medication_events") == original)
        }
    }
}
