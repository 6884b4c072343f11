import DoseCore
import Foundation
import Testing
@testable import NightLog

/// A log written by the build before schema v6's columns (boxd and boxctl at commit 481d495,
/// `Fixtures/make-v4-log.sh`): three nights, a nap that shares the first night's date and has
/// its own check-in, an undone Dose 1, a skipped Dose 2, and tonight open with Dose 1.
@Suite struct MigrationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/nightlog-v4.sqlite")
    static let tables = ["sleep_sessions", "dose_events", "sleep_events", "morning_checkins", "log_recoveries", "clock_offsets"]
    /// Columns the v5 migration added (schema seed v6 names), and v6's seqs of undos and closes (see FeedMigrationTests).
    /// And v15's narcolepsy flags (0 for check-ins kept before).
    static let added = Set(["color_hex", "completed_at", "overall_quality", "feeling_rested", "wake_count",
                            "undone_seq", "end_seq", "time_zone"] + NarcolepsyFlag.allCases.map(\.rawValue))

    static func copy(to dir: URL) throws -> URL {
        let file = dir.appendingPathComponent(NightLog.fileName)
        try FileManager.default.copyItem(at: fixture, to: file)
        return file
    }

    @Test func everyNightOfAnOlderLogIsKeptRowForRow() throws {
        try withTempDir { dir throws in
            let file = try Self.copy(to: dir)
            let before = try Dictionary(uniqueKeysWithValues: Self.tables.map { ($0, try NightLog.dumpRows(path: file.path, table: $0)) })
            #expect(before["sleep_sessions"]?.count == 4 && before["dose_events"]?.count == 7 && before["morning_checkins"]?.count == 3)

            let log = try NightLog.open(stateDirectory: dir)
            #expect(try log.readScalar("SELECT group_concat(identifier) FROM grdb_migrations")?.hasSuffix("v4-clock-offsets,v5-schema-v6-columns,v6-feed-seq,v7-notices,v8-fault-events,v9-medication-events,v10-seq-floor,v11-inventory-events,v12-last-dose-and-witness,v13-notice-alarm-silent,v14-session-time-zone,v15-checkin-narcolepsy-flags,v16-evening-drinks,v17-pre-sleep-logs,v18-export-order") == true)
            for table in Self.tables {
                let after = try log.dumpRows(table).map { $0.filter { !Self.added.contains($0.key) } }
                #expect(after == before[table], "\(table) changed in the migration")
            }
            // The nights read as before: four sessions, tonight open with its Dose 1.
            #expect(try log.recentNights(limit: 10).map(\.sessionDate) == ["2026-11-03", "2026-11-02", "2026-11-01", "2026-11-01"])
            let tonight = try #require(try log.latestSession())
            #expect(Night(replaying: tonight.records).dose1?.at.wall.iso8601 == "2026-11-03T21:46:03.089Z")
            #expect(try log.csv(.sessions).split(separator: "\r\n").count == 5)
        }
    }

    /// Schema seed v6: morning_checkins.completed_at, overall_quality, feeling_rested (1-5),
    /// wake_count; sleep_events.color_hex; the current_session table.
    @Test func theSchemaV6ColumnsAreFilledForNightsAlreadyKept() throws {
        try withTempDir { dir throws in
            _ = try Self.copy(to: dir)
            let log = try NightLog.open(stateDirectory: dir)
            func rows(_ sql: String) throws -> String { try log.readScalar("SELECT group_concat(r, ' | ') FROM (\(sql))") ?? "" }
            // Night 1 logged two wake_temp events; the nap and night 2 none. well = 4, slightly = 2, moderate = 3.
            #expect(try rows("""
                SELECT session_date || ',' || overall_quality || ',' || feeling_rested || ',' || wake_count || ',' || (completed_at = timestamp) AS r
                FROM morning_checkins ORDER BY seq
                """) == "2026-11-01,4,4,2,1 | 2026-11-01,2,2,0,1 | 2026-11-02,3,3,0,1")
            #expect(try log.readScalar("SELECT count(*) FROM sleep_events WHERE color_hex IS NOT NULL") == "0")
            // current_session: the latest session, with both seeds' columns (v6 and SSOT 3.0).
            #expect(try rows("""
                SELECT id || ',' || session_date || ',' || dose1_time || ',' || ifnull(dose2_time, '-') || ',' || snooze_count || ','
                       || dose2_skipped || ',' || ifnull(terminal_state, 'open') || ',' || session_start_utc || ',' || ifnull(session_end_utc, '-')
                       || ',' || updated_at AS r FROM current_session
                """) == "1,2026-11-03,2026-11-03T21:46:03.089Z,-,0,0,open,2026-11-03T21:41:02.969Z,-,2026-11-03T21:46:03.089Z")
            // The two check-ins that share 2026-11-01 are both kept (SSOT 3.0: one per session).
            #expect(try log.readScalar("SELECT count(DISTINCT session_id) FROM morning_checkins WHERE session_date = '2026-11-01'") == "2")
        }
    }

    @Test func aCheckInWrittenAfterTheMigrationCarriesTheV6Columns() throws {
        try withTempDir { dir throws in
            _ = try Self.copy(to: dir)
            let log = try NightLog.open(stateDirectory: dir)
            let tonight = try #require(try log.latestSession())
            let night = Night(replaying: tonight.records)
            let start = try #require(night.dose1?.at)
            func at(_ minutes: Double) -> Moment {
                Moment(wall: start.wall.addingTimeInterval(minutes * 60), boot: start.boot, monoNanos: start.monoNanos + Int64(minutes * 60e9))
            }
            let id = try #require(tonight.sessionID)
            let date = "2026-11-03"
            try log.append([
                .sleepEvent(SleepEventRecord(id: "w1", sessionID: id, sessionDate: date, type: .wakeTemp, at: at(60), notes: nil, source: .cli(uid: 0))),
                .sleepEvent(SleepEventRecord(id: "w2", sessionID: id, sessionDate: date, type: .wakeTemp, at: at(90), notes: nil, source: .cli(uid: 0))),
                .sleepEvent(SleepEventRecord(id: "w3", sessionID: id, sessionDate: date, type: .wakeTemp, at: at(120), notes: nil, source: .cli(uid: 0))),
                .checkIn(CheckInRecord(id: "ci", sessionID: id, sessionDate: date, at: at(500),
                                       answers: CheckInAnswers(sleepQuality: 5, feelRested: .veryWell), source: .cli(uid: 0))),
            ])
            #expect(try log.readScalar("""
                SELECT overall_quality || ',' || feeling_rested || ',' || wake_count || ',' || (completed_at = timestamp)
                FROM morning_checkins WHERE id = 'ci'
                """) == "5,5,3,1")
        }
    }

    @Test func feelingRestedIsTheSeedsOneToFiveScale() {
        #expect(CheckInAnswers.FeelRested.allCases.map(\.scale) == [1, 2, 3, 4, 5])
        #expect(CheckInAnswers.FeelRested.notAtAll.scale == 1 && CheckInAnswers.FeelRested.veryWell.scale == 5)
    }
}
