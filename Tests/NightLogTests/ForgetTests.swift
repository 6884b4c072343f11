import DoseCore
import Foundation
import Testing
@testable import NightLog

/// Forgetting nights (SSOT 2.4.3 "Data Management"): the night's rows go with everything
/// recorded in them, the rest stays, the feed's ids never repeat, and the deleted text is
/// not left in the file.
@Suite struct ForgetTests {
    /// Nights A (15th), B (16th, a note and a medication entry), C (17th), and an unlinked
    /// medication entry dated the 16th.
    static func filled(_ dir: URL) throws -> NightLog {
        let log = try NightLog.open(stateDirectory: dir)
        try log.append(Fixture.night("A", date: "2024-01-15", startDay: 0))
        try log.append(Fixture.night("B", date: "2024-01-16", startDay: 1, notes: "secret-note-of-night-B"))
        try log.append([MedicationLogTests.med("mB", at: 1440 + 600, session: "B", date: "2024-01-16"),
                        MedicationLogTests.med("mU", "adderall_xr", at: 1440 + 700, session: nil, date: "2024-01-16"),
                        MedicationLogTests.med("mA", at: 600, session: "A", date: "2024-01-15")])
        try log.append(Fixture.night("C", date: "2024-01-17", startDay: 2))
        return log
    }

    static func plan(_ log: NightLog, from: String?, to: String, latest: String? = "C") throws -> Forgetting.Plan {
        Forgetting.plan(try log.nightsToForget(from: from, to: to), latestSessionID: latest, now: Fixture.at(10 * 1440).wall)
    }

    @Test func aNightGoesWithEverythingInItAndNothingElse() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let feedBefore = try log.feed(after: 0, limit: 1000)
            let plan = try Self.plan(log, from: "2024-01-16", to: "2024-01-16")
            #expect(plan.forget.map(\.sessionID) == ["B"])
            // Fixture.night: 2 doses + a snooze, 2 sleep events, a check-in; B's entry and the unlinked one.
            var expected = ForgetCounts()
            (expected.nights, expected.doseEvents, expected.sleepEvents, expected.checkIns, expected.medications) = (1, 3, 2, 1, 2)
            #expect(try log.forgetCounts(plan, from: "2024-01-16", to: "2024-01-16") == expected)
            #expect(try log.recentNights(limit: 10).count == 3, "counting deletes nothing")
            #expect(try log.forget(plan, from: "2024-01-16", to: "2024-01-16") == expected)
            #expect(try log.recentNights(limit: 10).map(\.sessionID) == ["C", "A"])
            #expect(try log.medicationEvents().map(\.id) == ["mA"])
            #expect(try log.records(sessionID: "B") == nil)
            #expect(try log.feed(after: 0, limit: 1000) == feedBefore.filter { $0.sessionID != "B" })
            #expect(try log.readScalar("PRAGMA foreign_key_check") == nil)
        }
    }

    @Test func theDeletedTextIsNotLeftInTheFile() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let file = dir.appendingPathComponent(NightLog.fileName)
            func bytes() throws -> Data {
                var all = try Data(contentsOf: file)
                let wal = URL(fileURLWithPath: file.path + "-wal")
                if FileManager.default.fileExists(atPath: wal.path) { all += try Data(contentsOf: wal) }
                return all
            }
            let needle = Data("secret-note-of-night-B".utf8)
            #expect(try bytes().range(of: needle) != nil, "the note is in the file before")
            _ = try log.forget(try Self.plan(log, from: nil, to: "2024-01-16"), from: nil, to: "2024-01-16")
            #expect(try bytes().range(of: needle) == nil, "the note is gone from the file and its WAL")
        }
    }

    @Test func theFeedsIdsNeverRepeatAfterADelete() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let newest = try log.lastFeedID()
            // The newest night (C, the highest seqs) goes; nothing is the latest here.
            _ = try log.forget(try Self.plan(log, from: "2024-01-17", to: "2024-01-17", latest: nil), from: "2024-01-17", to: "2024-01-17")
            #expect(try log.feed(after: 0, limit: 1000).last.map(\.id).map { $0 < newest } == true)
            #expect(try log.lastFeedID() == newest, "the high-water stays")
            try log.append([Fixture.open("D", date: "2024-01-20", at: 5 * 1440)])
            #expect(try log.lastFeedID() == newest + 1, "a watcher past \(newest) sees the new night")
            #expect(try log.feed(after: newest, limit: 10).map(\.sessionID) == ["D"])
        }
    }

    @Test func keptNightsKeepTheirMedications() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            // Everything up to the 16th, but B is the latest night here: only A goes, and the
            // unlinked entry dated B's night stays with it.
            let plan = try Self.plan(log, from: nil, to: "2024-01-16", latest: "B")
            #expect(plan.forget.map(\.sessionID) == ["A"])
            _ = try log.forget(plan, from: nil, to: "2024-01-16")
            #expect(try log.medicationEvents().map(\.id) == ["mB", "mU"])
        }
    }
}
