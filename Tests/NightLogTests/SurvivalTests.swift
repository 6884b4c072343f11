import DoseCore
import Foundation
import Testing
@testable import NightLog

@Suite struct SurvivalTests {
    @Test func eventSurvivesCloseAndReopen() throws {
        try withTempDir { dir throws in
            let written: [LogRecord] = [Fixture.open(), Fixture.dose("d1", .dose1, at: 30)]
            do {
                let log = try NightLog.open(stateDirectory: dir)
                try log.append(written)
            } // the log is closed here
            let reopened = try NightLog.open(stateDirectory: dir)
            #expect(reopened.fault == nil)
            #expect(try reopened.latestSession()?.records == written)
        }
    }

    @Test func undoSurvivesReopenAndIsExcludedFromHistoryAndExport() throws {
        try withTempDir { dir throws in
            do {
                let log = try NightLog.open(stateDirectory: dir)
                try log.append([Fixture.open(), Fixture.dose("d1", .dose1, at: 30)])
                try log.append([Fixture.dose("d2-wrong", .dose2, at: 180)])
                try log.append([Fixture.undo("d2-wrong", at: 180.05)])
                try log.append([Fixture.dose("d2", .dose2, at: 195)])
            }
            let log = try NightLog.open(stateDirectory: dir)

            // The fold sees the undo right after the event it undoes.
            let records = try #require(try log.latestSession()).records
            #expect(ids(records) == ["open:S1", "dose:d1", "dose:d2-wrong", "undo:d2-wrong", "dose:d2"])

            // The row is still there, marked.
            let undoneAt = try log.readScalar("SELECT undone_at FROM dose_events WHERE id = 'd2-wrong'")
            #expect(undoneAt == Fixture.at(180.05).wall.iso8601)

            // History and export ignore it.
            let night = try #require(try log.recentNights(limit: 5).first)
            #expect(night.dose2 == Fixture.at(195).wall)
            #expect(night.intervalMinutes == 165)
            let doses = try log.csv(.boxDoseEvents)
            #expect(!doses.contains("d2-wrong"))
            #expect(doses.contains("d2,dose2,"))
        }
    }

    /// GRDB's WAL setup sets synchronous = NORMAL on the writer after prepareDatabase ran;
    /// NightLog sets FULL again. This pins that the writer really commits with FULL.
    @Test func writerUsesWALWithSynchronousFull() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            #expect(try log.writerScalar("PRAGMA journal_mode") == "wal")
            #expect(try log.writerScalar("PRAGMA synchronous") == "2") // FULL
            #expect(try log.readScalar("SELECT group_concat(identifier) FROM grdb_migrations") == "v1-initial,v2-session-target,v3-recoveries,v4-clock-offsets,v5-schema-v6-columns,v6-feed-seq,v7-notices,v8-fault-events,v9-medication-events,v10-seq-floor,v11-inventory-events,v12-last-dose-and-witness,v13-notice-alarm-silent,v14-session-time-zone,v15-checkin-narcolepsy-flags,v16-evening-drinks,v17-pre-sleep-logs,v18-export-order")
        }
    }

    @Test func emptyLogHasNoSession() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            #expect(try log.latestSession() == nil)
            #expect(try log.recentNights(limit: 30).isEmpty)
            #expect(try log.records(sessionID: "nope") == nil)
            try log.append([]) // a no-op, not an error
        }
    }
}
