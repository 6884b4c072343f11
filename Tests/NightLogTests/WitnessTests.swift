import DoseCore
import Foundation
import Testing
@testable import NightLog

/// Issue 29: what boxd starts from is read from the whole log, and the witness beside the
/// log catches a log that lost records and carries the doses it knew into the new one.
@Suite struct WitnessTests {
    typealias F = Fixture

    /// Three nights: A with both doses, then B and C opened by sleep events and closed by
    /// check-ins, with nothing taken (defect 1's shape); plus a dose undone in C.
    static let threeNights: [LogRecord] = [
        F.open("A", at: 0), F.dose("A-d1", .dose1, at: 0, session: "A"), F.dose("A-d2", .dose2, at: 170, session: "A"),
        F.checkIn("A-ci", at: 171, session: "A"), F.close("A", at: 171),
        F.open("B", at: 172), F.sleepEvent("B-bath", .bathroom, at: 172, session: "B"), F.checkIn("B-ci", at: 173, session: "B"),
        F.close("B", at: 173, state: .aborted),
        F.open("C", at: 174), F.sleepEvent("C-water", .water, at: 174, session: "C"),
        F.dose("C-x", .extraDose, at: 175, session: "C"), F.undo("C-x", at: 175.05),
    ]

    /// The log's query and the pure reading (`PersistedNight(log:)`, the model's restart) agree:
    /// the latest session and the last dose taken anywhere, undone ones skipped.
    @Test func persistedNightReadsTheWholeLogsLastDose() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append(Self.threeNights)
            let read = try log.persistedNight()
            let pure = PersistedNight(log: Self.threeNights)
            #expect(read.lastDoseTaken?.id == "A-d2")
            #expect(pure.lastDoseTaken?.id == "A-d2")
            #expect(ids(read.records) == ids(pure.records))
            #expect(ids(read.records) == ["open:C", "sleep:C-water", "dose:C-x", "undo:C-x"])
            // The night boxd rebuilds carries that dose, so the 240-minute guard sees it.
            #expect(Night(read).priorDose?.id == "A-d2")
            // One lookup in the partial index, not a scan of every dose.
            let plan = try log.queryPlan("SELECT * FROM dose_events WHERE \(Schema.doseTakenCondition) ORDER BY seq DESC LIMIT 1")
            #expect(plan.contains("dose_events_taken"), "\(plan)")
        }
    }

    @Test func theWitnessNamesTheLatestDosesAndTheHighWater() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append(Self.threeNights)
            guard case .found(let w) = Witness.read(in: dir) else { Issue.record("no witness"); return }
            // The undo was the last record written: its seq is the log's high-water.
            #expect("\(w.highSeq)" == (try log.readScalar("SELECT MAX(undone_seq) FROM dose_events")))
            #expect(w.doses.map(\.id) == ["A-d1", "A-d2"]) // C-x was undone
            #expect(w.sessions.map(\.id) == ["A"])
        }
    }

    /// A salvage that cannot carry a dose (the schema refuses its damaged row): the witness
    /// puts it back, marked, and the recovery is not certain.
    @Test func theWitnessRestoresWhatASalvageCouldNotCarry() throws {
        try withTempDir { dir throws in
            do {
                let log = try NightLog.open(stateDirectory: dir)
                try log.append(F.night("A", date: "2024-01-15", startDay: 0))
                _ = try log.writerScalar("PRAGMA ignore_check_constraints = ON")
                _ = try log.writerScalar("UPDATE dose_events SET event_type = 'dose3' WHERE id = 'A-d2'")
                _ = try log.writerScalar("PRAGMA ignore_check_constraints = OFF")
            }
            // Damage SQLite can see, so the open recovers.
            let file = dir.appendingPathComponent(NightLog.fileName)
            var bytes = try Data(contentsOf: file)
            bytes.replaceSubrange(4096 * 2..<4096 * 3, with: Data(count: 4096))
            try bytes.write(to: file)
            let log = try NightLog.open(stateDirectory: dir)
            guard case .lostRecords(_, _, let restored)? = log.witnessFault else {
                Issue.record("no lost records: \(String(describing: log.witnessFault))")
                return
            }
            #expect(restored.contains { $0.hasPrefix("Dose 2 at") }, "\(restored)")
            #expect(try log.lastRecovery()?.doseRecordCertain == false)
            let d2 = try log.readScalar("SELECT json_extract(metadata, '$.restored_from') FROM dose_events WHERE id = 'A-d2'")
            #expect(d2 == "witness")
        }
    }

    /// A witness from another log (a higher seq than this log ever had) makes the log behind:
    /// moved aside untouched, a new log, the witness's doses in it.
    @Test func aLogBehindItsWitnessIsMovedAsideUntouched() throws {
        try withTempDir { dir throws in
            do {
                let log = try NightLog.open(stateDirectory: dir)
                try log.append(F.night("A", date: "2024-01-15", startDay: 0))
                log.close()
            }
            let file = dir.appendingPathComponent(NightLog.fileName)
            let older = try Data(contentsOf: file)
            do {
                let log = try NightLog.open(stateDirectory: dir)
                try log.append(F.night("B", date: "2024-01-16", startDay: 1))
                log.close()
            }
            try older.write(to: file)
            let log = try NightLog.open(stateDirectory: dir)
            #expect(log.fault == nil)
            guard case .lostRecords(let aside, let reason, let restored)? = log.witnessFault else {
                Issue.record("not behind: \(String(describing: log.witnessFault))")
                return
            }
            #expect(aside.lastPathComponent.hasPrefix("nightlog.sqlite.behind-"))
            #expect(try Data(contentsOf: aside) == older)
            #expect(reason.contains("witness"), "\(reason)")
            #expect(restored.count == 3, "\(restored)") // B's Dose 1, snooze and Dose 2
            #expect(try log.persistedNight().lastDoseTaken?.id == "B-d2")
            // Reopened, the log agrees with its (rewritten) witness: no second recovery.
            log.close()
            #expect(try NightLog.open(stateDirectory: dir).witnessFault == nil)
        }
    }
}
