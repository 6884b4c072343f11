import DoseCore
import Foundation
import Testing
@testable import NightLog

/// Notices ("v7-notices"): an alarm rang, or a caregiver escalation fell due. Kept in the log,
/// read back with the session's records in seq order, listed by the feed, left out of export.
@Suite struct NoticeTests {
    static let date = Fixture.date

    /// One night with a notice of every kind among the other records, in append order
    /// (seq 1…9), each appended on its own as boxd would.
    static let night: [LogRecord] = [
        Fixture.open(at: 0),                                                                        // 1
        Fixture.dose("d1", .dose1, at: 30),                                                         // 2
        Fixture.notice("n1", .alarmRang, at: 180, alert: .mainAlarm, level: .standard),             // 3
        Fixture.notice("n2", .alarmUnanswered, at: 190),                                            // 4
        Fixture.sleepEvent("w1", .wakeTemp, at: 192, notes: "up"),                                  // 5
        Fixture.notice("n3", .alarmRang, at: 225, alert: .followUp, level: .critical),              // 6
        Fixture.notice("n4", .dose2Missing, at: 255),                                               // 7
        Fixture.notice("n5", .windowClosedWithoutDose2, at: 270),                                   // 8
        Fixture.close(at: 271, state: .expired, reason: .missedCheckInCutoff),                      // 9
    ]

    static func appendNight(_ log: NightLog) throws {
        for record in night { try log.append([record]) }
    }

    static let expectedFeed: [FeedEvent] = [
        FeedEvent(id: 1, kind: .nightStarted, at: "2024-01-15T22:00:00.000Z", sessionID: "S1", sessionDate: date,
                  targetMinutes: DoseConstants.box.window.defaultTargetMin),
        FeedEvent(id: 2, kind: .dose1, at: "2024-01-15T22:30:00.000Z", sessionID: "S1", sessionDate: date,
                  subject: "d1", source: "button:main"),
        FeedEvent(id: 3, kind: .alarmRang, at: "2024-01-16T01:00:00.000Z", sessionID: "S1", sessionDate: date,
                  subject: "d1", eventType: "main_alarm", level: "standard"),
        FeedEvent(id: 4, kind: .alarmUnanswered, at: "2024-01-16T01:10:00.000Z", sessionID: "S1", sessionDate: date, subject: "d1"),
        FeedEvent(id: 5, kind: .sleepEvent, at: "2024-01-16T01:12:00.000Z", sessionID: "S1", sessionDate: date,
                  subject: "w1", source: "button:main", eventType: "wake_temp", notes: "up"),
        FeedEvent(id: 6, kind: .alarmRang, at: "2024-01-16T01:45:00.000Z", sessionID: "S1", sessionDate: date,
                  subject: "d1", eventType: "follow_up", level: "critical"),
        FeedEvent(id: 7, kind: .dose2Missing, at: "2024-01-16T02:15:00.000Z", sessionID: "S1", sessionDate: date, subject: "d1"),
        FeedEvent(id: 8, kind: .windowClosedWithoutDose2, at: "2024-01-16T02:30:00.000Z", sessionID: "S1", sessionDate: date,
                  subject: "d1"),
        FeedEvent(id: 9, kind: .nightClosed, at: "2024-01-16T02:31:00.000Z", sessionID: "S1", sessionDate: date,
                  reason: "missed_checkin_cutoff", terminalState: "expired"),
    ]

    @Test func noticesOfEveryKindComeBackWithTheSessionsRecordsInOrder() throws {
        try withTempDir { dir throws in
            do {
                let log = try NightLog.open(stateDirectory: dir)
                try Self.appendNight(log)
                // The next night, with a notice of its own, in one append.
                try log.append([Fixture.open("S2", date: "2024-01-16", at: 1440),
                                Fixture.dose("S2-d1", .dose1, at: 1470, session: "S2", date: "2024-01-16"),
                                Fixture.notice("S2-n1", .alarmRang, at: 1620, session: "S2", date: "2024-01-16", dose1: "S2-d1",
                                               alert: .preAlarm, level: .gentle)])
            }
            let log = try NightLog.open(stateDirectory: dir)
            let s1 = try #require(try log.records(sessionID: "S1"))
            #expect(s1.records == Self.night)
            #expect(ids(s1.records) == ["open:S1", "dose:d1", "notice:n1", "notice:n2", "sleep:w1", "notice:n3", "notice:n4",
                                        "notice:n5", "close:S1"])
            #expect(s1.isClosed)
            let s2 = try #require(try log.latestSession())
            #expect(ids(s2.records) == ["open:S2", "dose:S2-d1", "notice:S2-n1"])
            #expect(s2.records.last == Fixture.notice("S2-n1", .alarmRang, at: 1620, session: "S2", date: "2024-01-16",
                                                      dose1: "S2-d1", alert: .preAlarm, level: .gentle))
            #expect(!s2.isClosed)
            // Stored as chosen: level as AlarmLevel's raw Int, NULL alert and level for escalations.
            #expect(try log.readScalar("SELECT group_concat(id || ':' || ifnull(alert, '-') || ':' || ifnull(level, '-'), ' ') FROM (SELECT * FROM notices ORDER BY seq)")
                    == "n1:main_alarm:2 n2:-:- n3:follow_up:3 n4:-:- n5:-:- S2-n1:pre_alarm:1")

            // The night rebuilt from the log knows the escalations already given (not the alarms).
            let rebuilt = Night(replaying: s1.records)
            #expect(rebuilt.caregiverNotices == ["alarm_unanswered@d1", "dose2_missing@d1", "window_closed_without_dose2@d1"])
            #expect(CaregiverPlan.Alert.allCases.allSatisfy { rebuilt.hasNotified($0) })
            #expect(Night(replaying: s2.records).caregiverNotices.isEmpty)

            // History counts nothing from notices.
            let nights = try log.recentNights(limit: 5)
            #expect(nights.map(\.sessionID) == ["S2", "S1"])
            #expect(nights.map(\.snoozeCount) == [0, 0])
            #expect(nights.map(\.dose2) == [nil, nil])
            #expect(nights.map(\.terminalState) == [nil, .expired])
        }
    }

    @Test func theFeedListsNoticesAtTheirSeqWithTheirFields() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try Self.appendNight(log)
            let feed = try log.feed(after: 0, limit: 100)
            #expect(feed.count == Self.expectedFeed.count)
            for (got, want) in zip(feed, Self.expectedFeed) {
                #expect(got == want)
            }
            #expect(try log.lastFeedID() == 9)
            // Paged through the notices branch too.
            #expect(try log.feed(after: 2, limit: 2).map(\.kind) == [.alarmRang, .alarmUnanswered])
            #expect(try log.feed(after: 5, limit: 3).map(\.id) == [6, 7, 8])
            // The next record is numbered after the notices.
            try log.append([Fixture.open("S2", date: "2024-01-16", at: 1440)])
            #expect(try log.feed(after: 9, limit: 10).map { "\($0.id) \($0.kind.rawValue)" } == ["10 night_started"])
        }
    }

    @Test func everyNoticeKindHasItsFeedKind() {
        #expect(NoticeRecord.Kind.allCases.map { NightLog.feedKind($0).rawValue } == NoticeRecord.Kind.allCases.map(\.rawValue))
    }

    @Test func aNoticeForAnUnknownSessionIsRefusedWithEverythingAppendedWithIt() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Fixture.open(at: 0), Fixture.dose("d1", .dose1, at: 30)])
            let orphan = expectNightLogError {
                try log.append([Fixture.sleepEvent("w1", .water, at: 40),
                                Fixture.notice("n1", .alarmRang, at: 41, session: "nope", alert: .mainAlarm, level: .standard)])
            }
            guard case .constraint? = orphan else {
                Issue.record("expected .constraint, got \(String(describing: orphan))")
                return
            }
            let nul = expectNightLogError { try log.append([Fixture.notice("n2", .dose2Missing, at: 42, dose1: "d\u{0}1")]) }
            guard case .invalidRecord? = nul else {
                Issue.record("expected .invalidRecord, got \(String(describing: nul))")
                return
            }
            let sameIDTwice = expectNightLogError {
                try log.append([Fixture.notice("n3", .dose2Missing, at: 43), Fixture.notice("n3", .alarmUnanswered, at: 44)])
            }
            guard case .constraint? = sameIDTwice else {
                Issue.record("expected .constraint, got \(String(describing: sameIDTwice))")
                return
            }
            #expect(try log.readScalar("SELECT count(*) FROM notices") == "0")
            #expect(try log.readScalar("SELECT count(*) FROM sleep_events") == "0")
            #expect(ids(try #require(try log.latestSession()).records) == ["open:S1", "dose:d1"])
            #expect(try log.lastFeedID() == 2)
            try log.append([Fixture.notice("n4", .alarmUnanswered, at: 45)])
            #expect(try log.feed(after: 2, limit: 10).map { "\($0.id) \($0.kind.rawValue)" } == ["3 alarm_unanswered"])
        }
    }

    /// The CHECK on kind refuses a string that is not one of NoticeRecord.Kind's (v13's list).
    @Test func theKindCheckListsTheKinds() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            let sql = try #require(try log.readScalar("SELECT sql FROM sqlite_master WHERE name = 'notices'"))
            #expect(sql.contains("CHECK (kind IN ('alarm_rang', 'alarm_silent', 'alarm_unanswered', 'dose2_missing', 'window_closed_without_dose2'))"))
            #expect(try log.readScalar("SELECT group_concat(name) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'notices' AND sql IS NOT NULL")
                    == "idx_notices_session_id")
        }
    }

    @Test func exportIsByteIdenticalWithNotices() throws {
        try withTempDir { dir throws in
            let log = try ExportTests.filled(dir)
            let before = try log.export(to: dir.appendingPathComponent("before"))
            try log.append([Fixture.notice("A-n1", .alarmRang, at: 180, session: "A", dose1: "A-d1", alert: .mainAlarm, level: .standard),
                            Fixture.notice("A-n2", .alarmUnanswered, at: 190, session: "A", dose1: "A-d1"),
                            Fixture.notice("B-n1", .dose2Missing, at: 1440 + 250, session: "B", date: "2024-01-16", dose1: "B-d1"),
                            Fixture.notice("C-n1", .windowClosedWithoutDose2, at: 2880 + 270, session: "C", date: "2024-01-17", dose1: "C-d1")])
            #expect(try log.readScalar("SELECT count(*) FROM notices") == "4")
            let after = try log.export(to: dir.appendingPathComponent("after"))
            #expect(after.map(\.lastPathComponent) == before.map(\.lastPathComponent))
            #expect(before.count == 14)
            for (a, b) in zip(before, after) {
                #expect(try Data(contentsOf: a) == (try Data(contentsOf: b)), "\(a.lastPathComponent) changed with notices in the log")
            }
        }
    }

    /// An older log migrates to v7 with an empty notices table; its notices then go in after its seqs.
    @Test func anOlderLogMigratesAndTakesNotices() throws {
        try withTempDir { dir throws in
            _ = try MigrationTests.copy(to: dir)
            let log = try NightLog.open(stateDirectory: dir)
            #expect(try log.readScalar("SELECT group_concat(identifier) FROM grdb_migrations")?.hasSuffix(",v6-feed-seq,v7-notices,v8-fault-events,v9-medication-events,v10-seq-floor,v11-inventory-events,v12-last-dose-and-witness,v13-notice-alarm-silent,v14-session-time-zone,v15-checkin-narcolepsy-flags,v16-evening-drinks,v17-pre-sleep-logs,v18-export-order") == true)
            #expect(try log.readScalar("SELECT count(*) FROM notices") == "0")
            let tonight = try #require(try log.latestSession())
            let id = try #require(tonight.sessionID)
            let d1 = try #require(Night(replaying: tonight.records).dose1)
            let notice = LogRecord.notice(NoticeRecord(id: "n", sessionID: id, sessionDate: "2026-11-03", kind: .alarmRang,
                                                       at: d1.at.advanced(by: .minutes(150)), dose1ID: d1.id,
                                                       alert: .mainAlarm, level: .critical))
            try log.append([notice])
            #expect(try log.latestSession()?.records == tonight.records + [notice])
            let entry = try #require(try log.feed(after: 25, limit: 10).first)
            #expect(entry == FeedEvent(id: 26, kind: .alarmRang, at: "2026-11-04T00:16:03.089Z", sessionID: id, sessionDate: "2026-11-03",
                                       subject: d1.id, eventType: "main_alarm", level: "critical"))
        }
    }

    /// A damaged log keeps its notices: the index page of notices is overwritten (quick_check
    /// fails), every row is still readable through the table, and the salvage carries them over.
    @Test func aSalvagedLogKeepsItsNotices() throws {
        try withTempDir { dir throws in
            let file = dir.appendingPathComponent(NightLog.fileName)
            do {
                let log = try NightLog.open(stateDirectory: dir)
                try Self.appendNight(log)
            }
            let original = try NightLog.dumpRows(path: file.path, table: "notices")
            #expect(original.count == 5)
            try SalvageTests.damageIndex("idx_notices_session_id", in: dir)

            let log = try NightLog.open(stateDirectory: dir, now: SalvageTests.now)
            #expect(log.recoveredFrom != nil)
            let report = try #require(log.salvage)
            #expect(report.table("notices") == SalvageReport.Table(name: "notices", salvaged: 5, refused: 0, complete: true, readErrors: 0))
            #expect(report.salvagedRows == 8) // 1 session, 1 dose, 1 sleep event, 5 notices
            #expect(try log.dumpRows("notices") == original)
            #expect(try log.records(sessionID: "S1")?.records == Self.night)
            #expect(try log.feed(after: 0, limit: 100) == Self.expectedFeed)
            #expect(try log.readScalar("SELECT json_extract(figures, '$.tables.notices.salvaged') FROM log_recoveries") == "5")
        }
    }

    /// A damaged log from before v7 never had notices: the salvage says that table is complete.
    @Test func aSalvagedOlderLogHasNoNoticesMissing() throws {
        try withTempDir { dir throws in
            try FeedMigrationTests.writeV5Log(in: dir)
            try FeedMigrationTests.damageCheckinIndex(in: dir)

            let log = try NightLog.open(stateDirectory: dir, now: SalvageTests.now)
            let report = try #require(log.salvage)
            #expect(report.table("notices") == SalvageReport.Table(name: "notices", salvaged: 0, refused: 0, complete: true, readErrors: 0))
            #expect(report.tables.map(\.name) == SalvageReport.tableNames)
            #expect(report.tables.allSatisfy { $0.complete })
            #expect(report.doseRecordCertain)
        }
    }

    /// A clock step re-derives a notice's wall time like every other record's.
    @Test func retimeMovesNoticesWithTheirBoot() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try Self.appendNight(log)
            let t0 = Fixture.t0
            let offset = Int64(1_705_356_000) * 1_000_000_000 - t0.monoNanos + 60_000_000_000 // t0's offset, one minute later
            try log.retime(boot: t0.boot, monoNanos: t0.monoNanos, offset: NightLog.ClockOffset(offsetNanos: offset, synced: true),
                           sessionKey: { _ in Fixture.date })
            #expect(try log.readScalar("SELECT group_concat(timestamp, ' ') FROM (SELECT timestamp FROM notices ORDER BY seq)")
                    == "2024-01-16T01:01:00.000Z 2024-01-16T01:11:00.000Z 2024-01-16T01:46:00.000Z 2024-01-16T02:16:00.000Z 2024-01-16T02:31:00.000Z")
            #expect(try log.feed(after: 2, limit: 1).first?.at == "2024-01-16T01:01:00.000Z")
        }
    }
}
