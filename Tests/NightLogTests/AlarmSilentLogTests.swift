import DoseCore
import Foundation
import Testing
@testable import NightLog

/// #29: an alarm that could not sound is a notice of its own (`alarm_silent`), which the
/// notices table's CHECK (v7: four kinds) refused; "v13-notice-alarm-silent" rebuilds the
/// table with the new kind, keeping every row.
@Suite struct AlarmSilentLogTests {
    /// A log as the build before v13 left it: one night with two notices.
    static let v11Rows = """
        INSERT INTO sleep_sessions (session_id, seq, session_date, start_utc, start_boot_id, start_mono_ns)
            VALUES ('S1', 1, '2024-01-15', '2024-01-15T22:00:00.000Z', 'boot-A', 1000);
        INSERT INTO notices (id, seq, session_id, session_date, kind, timestamp, boot_id, mono_ns, dose1_id, alert, level, created_at)
            VALUES ('n1', 3, 'S1', '2024-01-15', 'alarm_rang', '2024-01-16T01:00:00.000Z', 'boot-A', 2000, 'd1', 'main_alarm', 3, '2024-01-16T01:00:00.100Z'),
                   ('n2', 4, 'S1', '2024-01-15', 'alarm_unanswered', '2024-01-16T01:08:00.000Z', 'boot-A', 3000, 'd1', NULL, NULL, '2024-01-16T01:08:00.100Z');
        """

    @Test func anOlderLogKeepsItsNoticesAndTakesTheNewKind() throws {
        try withTempDir { dir throws in
            let path = dir.appendingPathComponent(NightLog.fileName).path
            try NightLog.createOlderLog(path: path, upTo: "v11-inventory-events", sql: Self.v11Rows)
            let before = try NightLog.dumpRows(path: path, table: "notices")
            #expect(before.count == 2)
            let log = try NightLog.open(stateDirectory: dir)
            #expect(try log.readScalar("SELECT group_concat(identifier) FROM grdb_migrations")?.hasSuffix(",v11-inventory-events,v12-last-dose-and-witness,v13-notice-alarm-silent,v14-session-time-zone,v15-checkin-narcolepsy-flags,v16-evening-drinks,v17-pre-sleep-logs,v18-export-order") == true)
            #expect(try log.dumpRows("notices") == before, "every row, column and rowid as it was")
            #expect(try log.readScalar("SELECT group_concat(name) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'notices' AND sql IS NOT NULL")
                    == "idx_notices_session_id")
            #expect(try log.readScalar("PRAGMA foreign_key_check") == nil)
            try log.append([Fixture.notice("n3", .alarmSilent, at: 190, session: "S1", date: "2024-01-15", alert: .followUp, level: .critical)])
            let silent = try #require(try log.feed(after: 4, limit: 10).first)
            #expect(silent == FeedEvent(id: 5, kind: .alarmSilent, at: silent.at, sessionID: "S1", sessionDate: "2024-01-15",
                                        subject: "d1", eventType: "follow_up", level: "critical"))
            let sql = try #require(try log.readScalar("SELECT sql FROM sqlite_master WHERE name = 'notices'"))
            #expect(sql.contains("CHECK (kind IN ('alarm_rang', 'alarm_silent', 'alarm_unanswered', 'dose2_missing', 'window_closed_without_dose2'))"))
        }
    }

    /// Every kind the core can give is one the log takes, and the feed names it: a new kind
    /// without a migration fails here, not on a box at night.
    @Test func everyNoticeKindIsTakenByTheLogAndListedByTheFeed() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Fixture.open(at: 0), Fixture.dose("d1", .dose1, at: 30)])
            for (i, kind) in NoticeRecord.Kind.allCases.enumerated() {
                try log.append([Fixture.notice("n\(i)", kind, at: 180 + Double(i), alert: .mainAlarm, level: .critical)])
            }
            let feed = try log.feed(after: 2, limit: 100)
            #expect(feed.map(\.kind.rawValue) == NoticeRecord.Kind.allCases.map(\.rawValue))
            // An alarm's notices carry the alert and level; the escalations do not.
            let alarms = feed.filter { $0.eventType != nil }.map(\.kind)
            #expect(alarms == [.alarmRang, .alarmSilent] && feed.filter { $0.level == "critical" }.map(\.kind) == alarms)
        }
    }
}
