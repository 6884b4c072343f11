import DoseCore
import Foundation
import Testing
@testable import NightLog

/// The event feed read from the log (`NightLog.feed`): every record, undo and close under
/// its own seq, in order, pageable without gaps or repeats.
@Suite struct FeedTests {
    static let button = "button:main"

    static func undo(_ eventID: String, at minutes: Double, source: Source) -> LogRecord {
        .undone(UndoRecord(eventID: eventID, at: Fixture.at(minutes), source: source))
    }

    /// A night with every kind, appended record by record as boxd would (one append per action).
    static func appendNight(_ log: NightLog) throws {
        try log.append([Fixture.open(at: 0)])
        try log.append([Fixture.dose("d1", .dose1, at: 30)])
        try log.append([Fixture.dose("sn", .snooze, at: 190, metadata: DoseMetadata(snoozeNumber: 1))])
        try log.append([undo("sn", at: 190.5, source: .cli(uid: 1000))])
        try log.append([Fixture.sleepEvent("w1", .wakeTemp, at: 192, notes: "thirsty, \"then\" slept")])
        try log.append([Fixture.dose("d2", .dose2, at: 195, metadata: DoseMetadata(isEarly: false, isLate: true, reason: "window"))])
        try log.append([Fixture.checkIn("ci", at: 520)])
        try log.append([Fixture.close(at: 521, state: .completed, reason: .checkIn)])
    }

    static let expectedNight: [FeedEvent] = [
        FeedEvent(id: 1, kind: .nightStarted, at: "2024-01-15T22:00:00.000Z", sessionID: "S1", sessionDate: "2024-01-15",
                  targetMinutes: DoseConstants.box.window.defaultTargetMin),
        FeedEvent(id: 2, kind: .dose1, at: "2024-01-15T22:30:00.000Z", sessionID: "S1", sessionDate: "2024-01-15",
                  subject: "d1", source: button),
        FeedEvent(id: 3, kind: .snooze, at: "2024-01-16T01:10:00.000Z", sessionID: "S1", sessionDate: "2024-01-15",
                  subject: "sn", source: button, snoozeNumber: 1),
        FeedEvent(id: 4, kind: .undo, at: "2024-01-16T01:10:30.000Z", sessionID: "S1", sessionDate: "2024-01-15",
                  subject: "sn", source: "boxctl:uid=1000", eventType: "snooze"),
        FeedEvent(id: 5, kind: .sleepEvent, at: "2024-01-16T01:12:00.000Z", sessionID: "S1", sessionDate: "2024-01-15",
                  subject: "w1", source: button, eventType: "wake_temp", notes: "thirsty, \"then\" slept"),
        FeedEvent(id: 6, kind: .dose2, at: "2024-01-16T01:15:00.000Z", sessionID: "S1", sessionDate: "2024-01-15",
                  subject: "d2", source: button, isEarly: false, isLate: true, reason: "window"),
        FeedEvent(id: 7, kind: .checkIn, at: "2024-01-16T06:40:00.000Z", sessionID: "S1", sessionDate: "2024-01-15",
                  subject: "ci", source: button),
        FeedEvent(id: 8, kind: .nightClosed, at: "2024-01-16T06:41:00.000Z", sessionID: "S1", sessionDate: "2024-01-15",
                  reason: "checkin", terminalState: "completed"),
    ]

    @Test func aNightWithEveryKindIsTheExpectedFeedInOrder() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            #expect(try log.lastFeedID() == 0)
            #expect(try log.feed(after: 0, limit: 100) == [])
            try Self.appendNight(log)

            let feed = try log.feed(after: 0, limit: 100)
            #expect(feed.map(\.id) == Array(1...8))
            for (got, want) in zip(feed, Self.expectedNight) {
                #expect(got == want)
            }
            #expect(feed.count == Self.expectedNight.count)
            #expect(try log.lastFeedID() == 8)
            #expect(try log.feed(after: 8, limit: 100) == [])
            // The undone snooze keeps its entry, and the log keeps its row (undo marks it).
            #expect(feed.filter { $0.subject == "sn" }.map(\.kind) == [.snooze, .undo])
            #expect(try log.readScalar("SELECT undone_seq FROM dose_events WHERE id = 'sn'") == "4")
            #expect(try log.readScalar("SELECT end_seq FROM sleep_sessions WHERE session_id = 'S1'") == "8")
        }
    }

    @Test func pagesFollowEachOtherWithoutGapOrRepeat() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try Self.appendNight(log)
            try log.append(Fixture.night("S2", date: "2024-01-16", startDay: 1)) // 8 more, in one append
            let all = try log.feed(after: 0, limit: 1000)
            #expect(all.map(\.id) == Array(1...16))
            #expect(Array(all.prefix(8)) == Self.expectedNight)

            for limit in 1...17 {
                var pages: [FeedEvent] = []
                var after: Int64 = 0
                var reads = 0
                while true {
                    let page = try log.feed(after: after, limit: limit)
                    #expect(page.count <= limit)
                    guard let last = page.last else { break }
                    pages += page
                    after = last.id
                    reads += 1
                }
                #expect(pages == all, "limit \(limit)")
                #expect(reads == (16 + limit - 1) / limit, "limit \(limit)")
            }
            // From the middle: exactly what follows the id.
            #expect(try log.feed(after: 4, limit: 3).map(\.id) == [5, 6, 7])
            #expect(try log.feed(after: 15, limit: 3).map(\.kind) == [.nightClosed])
            #expect(try log.feed(after: 0, limit: 0) == [])
            #expect(try log.feed(after: -5, limit: 2).map(\.id) == [1, 2])
        }
    }

    /// The next append after an undo or a close is numbered after it: seqs are never given twice.
    @Test func idsAreNeverReusedAfterAnUndoOrAClose() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Fixture.open(at: 0), Fixture.dose("d1", .dose1, at: 30)]) // 1, 2
            try log.append([Fixture.undo("d1", at: 31)])                                 // 3
            try log.append([Fixture.dose("d1b", .dose1, at: 32)])                        // 4, not 3
            try log.append([Fixture.close(at: 40, state: .aborted, reason: .prepTimeRollover)]) // 5
            try log.append([Fixture.open("S2", date: "2024-01-16", at: 1440)])           // 6, not 5
            // An undo and a close inside one append take their places in it.
            try log.append([Fixture.dose("x", .extraDose, at: 1470, session: "S2", date: "2024-01-16"),   // 7
                            Fixture.undo("x", at: 1471),                                                 // 8
                            Fixture.close("S2", at: 1472, state: .skipped, reason: .missedCheckInCutoff), // 9
                            Fixture.open("S3", date: "2024-01-17", at: 2880)])                           // 10

            let feed = try log.feed(after: 0, limit: 100)
            #expect(feed.map(\.id) == Array(1...10))
            #expect(feed.map(\.kind) == [.nightStarted, .dose1, .undo, .dose1, .nightClosed, .nightStarted,
                                         .extraDose, .undo, .nightClosed, .nightStarted])
            #expect(feed.map { $0.subject ?? "-" } == ["-", "d1", "d1", "d1b", "-", "-", "x", "x", "-", "-"])
            #expect(feed[4].terminalState == "aborted" && feed[4].reason == "prep_time_rollover")
            #expect(feed[7] == FeedEvent(id: 8, kind: .undo, at: "2024-01-16T22:31:00.000Z", sessionID: "S2", sessionDate: "2024-01-16",
                                         subject: "x", source: Self.button, eventType: "extra_dose"))
            #expect(feed[8].terminalState == "skipped" && feed[8].reason == "missed_checkin_cutoff")
            #expect(try log.lastFeedID() == 10)
            #expect(try log.readScalar("SELECT group_concat(undone_seq) FROM (SELECT undone_seq FROM dose_events WHERE undone_seq IS NOT NULL ORDER BY 1)") == "3,8")
            #expect(try log.readScalar("SELECT group_concat(end_seq) FROM (SELECT end_seq FROM sleep_sessions WHERE end_seq IS NOT NULL ORDER BY 1)") == "5,9")
        }
    }

    /// A refused append stores nothing, so the feed shows none of it and its seqs are given later.
    @Test func aRefusedAppendLeavesNoFeedEntry() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Fixture.open(at: 0), Fixture.dose("d1", .dose1, at: 30), Fixture.undo("d1", at: 31)])
            let before = try log.feed(after: 0, limit: 100)
            #expect(before.map(\.id) == [1, 2, 3])

            let unknown = expectNightLogError {
                try log.append([Fixture.dose("d2", .dose1, at: 35), Fixture.undo("nope", at: 36)])
            }
            #expect(unknown == .invalidRecord(path: log.fileURL.path, detail: "no dose event nope to undo"))
            let again = expectNightLogError {
                try log.append([Fixture.sleepEvent("w", .wakeTemp, at: 40), Fixture.undo("d1", at: 41)])
            }
            #expect(again == .invalidRecord(path: log.fileURL.path, detail: "dose event d1 is already undone"))
            let closeUnknown = expectNightLogError {
                try log.append([Fixture.close("S1", at: 50), Fixture.close("S9", at: 50)])
            }
            #expect(closeUnknown == .invalidRecord(path: log.fileURL.path, detail: "no session S9 to close"))

            #expect(try log.feed(after: 0, limit: 100) == before)
            #expect(try log.lastFeedID() == 3)
            #expect(try log.readScalar("SELECT count(*) FROM sleep_sessions WHERE end_seq IS NOT NULL") == "0")
            // The next accepted record takes the next id: none was used up by the refused ones.
            try log.append([Fixture.close(at: 60)])
            #expect(try log.feed(after: 3, limit: 100).map { "\($0.id) \($0.kind.rawValue)" } == ["4 night_closed"])
        }
    }

    @Test func theReadOnlyOpenReadsTheFeed() throws {
        try withTempDir { dir throws in
            let writer = try NightLog.open(stateDirectory: dir)
            try Self.appendNight(writer)
            let reader = try NightLog.openReadOnly(stateDirectory: dir)
            #expect(try reader.feed(after: 0, limit: 100) == Self.expectedNight)
            #expect(try reader.lastFeedID() == 8)
            // A later commit shows up on the reader's next read, after the last id it saw.
            try writer.append(Fixture.night("S2", date: "2024-01-16", startDay: 1))
            let next = try reader.feed(after: 8, limit: 3)
            #expect(next.map(\.id) == [9, 10, 11])
            #expect(next.map(\.kind) == [.nightStarted, .sleepEvent, .dose1])
            #expect(next.allSatisfy { $0.sessionID == "S2" && $0.sessionDate == "2024-01-16" })
            #expect(try reader.lastFeedID() == 16)
        }
    }
}

/// Logs written before "v6-feed-seq": their undos and closes get seqs after the old maximum.
@Suite struct FeedMigrationTests {
    /// The fixture (see MigrationTests): seqs 1…21; night 1 closed 2026-11-02T05:50:00.669Z,
    /// the nap closed 12:30:00.669Z, night 2's first Dose 1 undone 22:00:02.819Z and night 2
    /// closed 2026-11-03T02:41:02.969Z; tonight open.
    @Test func theOlderLogsUndoAndClosesGetSeqsAfterTheOldMaximumInOrder() throws {
        try withTempDir { dir throws in
            _ = try MigrationTests.copy(to: dir)
            let log = try NightLog.open(stateDirectory: dir)
            #expect(try log.readScalar("SELECT group_concat(identifier) FROM grdb_migrations")?.hasSuffix("v5-schema-v6-columns,v6-feed-seq,v7-notices,v8-fault-events,v9-medication-events,v10-seq-floor,v11-inventory-events,v12-last-dose-and-witness,v13-notice-alarm-silent,v14-session-time-zone,v15-checkin-narcolepsy-flags,v16-evening-drinks,v17-pre-sleep-logs,v18-export-order") == true)
            #expect(try log.readScalar("""
                SELECT group_concat(r, ' | ') FROM (SELECT session_date || ',' || ifnull(end_seq, '-') AS r FROM sleep_sessions ORDER BY seq)
                """) == "2026-11-01,22 | 2026-11-01,23 | 2026-11-02,25 | 2026-11-03,-")
            #expect(try log.readScalar("SELECT group_concat(id || ',' || undone_seq) FROM dose_events WHERE undone_seq IS NOT NULL")
                    == "911ae739-b2a5-46a5-b34a-705abaee866f,24")
            #expect(try log.readScalar("SELECT count(*) FROM dose_events WHERE (undone_at IS NULL) <> (undone_seq IS NULL)") == "0")
            #expect(try log.lastFeedID() == 25)

            let feed = try log.feed(after: 0, limit: 100)
            #expect(feed.map(\.id) == Array(1...25))
            let night1 = "ebacab83-4ed7-4261-938f-46be8064dd35", night2 = "67288b34-bbbf-4f18-9b6a-25c61c765d28"
            #expect(feed[6] == FeedEvent(id: 7, kind: .dose2, at: "2026-11-02T00:50:00.669Z", sessionID: night1, sessionDate: "2026-11-01",
                                         subject: "20c8f317-3eee-4eaa-9ade-09c072430fd7", source: "button:dose",
                                         isEarly: false, isLate: false))
            #expect(Array(feed.suffix(4)) == [
                FeedEvent(id: 22, kind: .nightClosed, at: "2026-11-02T05:50:00.669Z", sessionID: night1, sessionDate: "2026-11-01",
                          reason: "checkin", terminalState: "completed"),
                FeedEvent(id: 23, kind: .nightClosed, at: "2026-11-02T12:30:00.669Z", sessionID: "b3f894b0-9505-48e1-9622-49c241035916",
                          sessionDate: "2026-11-01", reason: "checkin", terminalState: "aborted"),
                FeedEvent(id: 24, kind: .undo, at: "2026-11-02T22:00:02.819Z", sessionID: night2, sessionDate: "2026-11-02",
                          subject: "911ae739-b2a5-46a5-b34a-705abaee866f", source: "boxctl:uid=0", eventType: "dose1"),
                FeedEvent(id: 25, kind: .nightClosed, at: "2026-11-03T02:41:02.969Z", sessionID: night2, sessionDate: "2026-11-02",
                          reason: "checkin", terminalState: "skipped"),
            ])
            // The undone Dose 1 keeps its own entry under its old seq.
            #expect(feed[14].kind == .dose1 && feed[14].subject == "911ae739-b2a5-46a5-b34a-705abaee866f")

            // What boxd appends next is numbered after the backfilled seqs.
            let tonight = try #require(try log.latestSession()?.sessionID)
            try log.append([.sleepEvent(SleepEventRecord(id: "w", sessionID: tonight, sessionDate: "2026-11-03", type: .wakeTemp,
                                                         at: Moment(wall: Date(iso8601: "2026-11-03T23:00:00.000Z")!, boot: "b", monoNanos: 1),
                                                         notes: nil, source: .cli(uid: 0)))])
            #expect(try log.feed(after: 25, limit: 10).map { "\($0.id) \($0.kind.rawValue) \($0.subject ?? "-")" } == ["26 sleep_event w"])
        }
    }

    /// A log at v5 with: session A (seq 1) closed at T, dose x (seq 2) undone at T, dose y
    /// (seq 3) undone at T - 1 s, session B (seq 4) open.
    static func writeV5Log(in dir: URL) throws {
        let t = "2024-01-16T03:00:00.000Z", before = "2024-01-16T02:59:59.000Z"
        try NightLog.createOlderLog(path: dir.appendingPathComponent(NightLog.fileName).path, upTo: "v5-schema-v6-columns", sql: """
            INSERT INTO sleep_sessions (session_id, seq, session_date, start_utc, start_boot_id, start_mono_ns,
                                        end_utc, end_boot_id, end_mono_ns, terminal_state, close_reason)
                VALUES ('A', 1, '2024-01-15', '2024-01-15T22:00:00.000Z', 'b', 1, '\(t)', 'b', 9, 'completed', 'checkin');
            INSERT INTO dose_events (id, seq, session_id, session_date, event_type, timestamp, source, boot_id, mono_ns,
                                     undone_at, undone_source, undone_boot_id, undone_mono_ns)
                VALUES ('x', 2, 'A', '2024-01-15', 'dose1', '2024-01-15T22:30:00.000Z', 'button:dose', 'b', 2, '\(t)', 'system', 'b', 9),
                       ('y', 3, 'A', '2024-01-15', 'snooze', '2024-01-16T01:00:00.000Z', 'button:dose', 'b', 3, '\(before)', 'button:dose', 'b', 8);
            INSERT INTO sleep_sessions (session_id, seq, session_date, start_utc, start_boot_id, start_mono_ns)
                VALUES ('B', 4, '2024-01-16', '2024-01-16T22:00:00.000Z', 'b', 10);
            """)
    }

    static let v5LogFeed = ["1 night_started A", "2 dose1 x", "3 snooze y", "4 night_started B", "5 undo y", "6 night_closed A", "7 undo x"]

    static func summary(_ feed: [FeedEvent]) -> [String] {
        feed.map { "\($0.id) \($0.kind.rawValue) \($0.subject ?? $0.sessionID ?? "-")" }
    }

    /// Changes at the same time are numbered by their row's seq; an earlier change first,
    /// whatever its row's seq.
    @Test func backfillOrdersByTimeThenBySeq() throws {
        try withTempDir { dir throws in
            try Self.writeV5Log(in: dir)
            let log = try NightLog.open(stateDirectory: dir)
            let feed = try log.feed(after: 0, limit: 100)
            #expect(Self.summary(feed) == Self.v5LogFeed)
            #expect(feed[6].source == "system" && feed[6].eventType == "dose1")
            #expect(try log.lastFeedID() == 7)
        }
    }

    /// A damaged log written before v6 is salvaged into a new log (which ran the migration
    /// empty): its undos and closes get their seqs as the migration would have given them.
    @Test func aSalvagedOlderLogGetsTheSameSeqsAsAMigratedOne() throws {
        try withTempDir { dir throws in
            try Self.writeV5Log(in: dir)
            try Self.damageCheckinIndex(in: dir)

            let log = try NightLog.open(stateDirectory: dir, now: SalvageTests.now)
            #expect(log.fault != nil)
            #expect(log.salvage?.table("dose_events")?.salvaged == 2)
            #expect(Self.summary(try log.feed(after: 0, limit: 100)) == Self.v5LogFeed)
            #expect(try log.lastFeedID() == 7)
        }
    }
}

extension FeedMigrationTests {
    /// Overwrites the index page of the (empty) morning_checkins table: quick_check fails, so
    /// the next open salvages, and every table's rows are still readable.
    static func damageCheckinIndex(in dir: URL) throws {
        try SalvageTests.damageIndex("idx_morning_checkins_session", in: dir)
    }
}
