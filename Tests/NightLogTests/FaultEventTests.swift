import DoseCore
import Foundation
import Testing
@testable import NightLog

/// Fault events ("v8-fault-events"): a fault of the box raised or cleared, kept in the log
/// with no session, listed by the feed among the night's changes, never part of a night's
/// records or of the export, carried over by a salvage and moved by a clock step.
@Suite struct FaultEventTests {
    static let date = Fixture.date

    static func fault(_ id: String, _ code: String, raised: Bool = true, at minutes: Double) -> LogRecord {
        .fault(FaultRecord(id: id, code: code, raised: raised, at: Fixture.at(minutes)))
    }

    /// A fault before the night (the speaker unplugged at noon), one during it, and their
    /// clearing; appended one by one, as boxd would (seq 1…8).
    static let log: [LogRecord] = [
        fault("f1", "audio_unavailable", at: -600),                                  // 1
        Fixture.open(at: 0),                                                         // 2
        fault("f2", "audio_unavailable", raised: false, at: 5),                      // 3
        Fixture.dose("d1", .dose1, at: 30),                                          // 4
        fault("f3", "button_stuck:main", at: 100),                                   // 5
        fault("f4", "button_stuck:main", raised: false, at: 101),                    // 6
        fault("f5", "log_unwritable", at: 200),                                      // 7
        Fixture.dose("d2", .dose2, at: 210),                                         // 8
    ]

    static let expectedFaults: [FeedEvent] = [
        FeedEvent(id: 1, kind: .faultRaised, at: "2024-01-15T12:00:00.000Z", sessionID: nil, sessionDate: nil, subject: "f1",
                  eventType: "audio_unavailable"),
        FeedEvent(id: 3, kind: .faultCleared, at: "2024-01-15T22:05:00.000Z", sessionID: nil, sessionDate: nil, subject: "f2",
                  eventType: "audio_unavailable"),
        FeedEvent(id: 5, kind: .faultRaised, at: "2024-01-15T23:40:00.000Z", sessionID: nil, sessionDate: nil, subject: "f3",
                  eventType: "button_stuck:main"),
        FeedEvent(id: 6, kind: .faultCleared, at: "2024-01-15T23:41:00.000Z", sessionID: nil, sessionDate: nil, subject: "f4",
                  eventType: "button_stuck:main"),
        FeedEvent(id: 7, kind: .faultRaised, at: "2024-01-16T01:20:00.000Z", sessionID: nil, sessionDate: nil, subject: "f5",
                  eventType: "log_unwritable"),
    ]

    static func append(_ log: NightLog) throws {
        for record in Self.log { try log.append([record]) }
    }

    @Test func faultEventsComeBackThroughTheFeedInOrderWithNoSession() throws {
        try withTempDir { dir throws in
            do {
                let log = try NightLog.open(stateDirectory: dir)
                try Self.append(log)
            }
            let log = try NightLog.open(stateDirectory: dir)
            let feed = try log.feed(after: 0, limit: 100)
            #expect(feed.map { "\($0.id) \($0.kind.rawValue)" } == ["1 fault_raised", "2 night_started", "3 fault_cleared", "4 dose1",
                                                                     "5 fault_raised", "6 fault_cleared", "7 fault_raised", "8 dose2"])
            #expect(feed.filter { $0.kind == .faultRaised || $0.kind == .faultCleared } == Self.expectedFaults)
            #expect(try log.feed(after: 4, limit: 2).map(\.id) == [5, 6])
            #expect(try log.lastFeedID() == 8)
            // The night is the night's records only.
            #expect(try log.records(sessionID: "S1")?.records == Self.log.filter { if case .fault = $0 { false } else { true } })
            // The next record is numbered after them.
            try log.append([Self.fault("f6", "log_unwritable", raised: false, at: 211)])
            #expect(try log.feed(after: 8, limit: 10).map { "\($0.id) \($0.kind.rawValue) \($0.eventType ?? "")" } == ["9 fault_cleared log_unwritable"])
        }
    }

    @Test func aBadFaultRecordIsRefusedWithEverythingAppendedWithIt() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Fixture.open(at: 0)])
            let nul = expectNightLogError { try log.append([Fixture.dose("d1", .dose1, at: 30), Self.fault("f1", "audio\u{0}", at: 31)]) }
            guard case .invalidRecord? = nul else {
                Issue.record("expected .invalidRecord, got \(String(describing: nul))")
                return
            }
            let twice = expectNightLogError { try log.append([Self.fault("f2", "gpio_unavailable", at: 32), Self.fault("f2", "gpio_unavailable", at: 33)]) }
            guard case .constraint? = twice else {
                Issue.record("expected .constraint, got \(String(describing: twice))")
                return
            }
            #expect(try log.readScalar("SELECT count(*) FROM fault_events") == "0")
            #expect(try log.readScalar("SELECT count(*) FROM dose_events") == "0")
            // The table refuses a state that is neither; the reader would too.
            #expect(throws: (any Error).self) {
                try log.writerScalar("INSERT INTO fault_events (id, seq, code, state, timestamp, boot_id, mono_ns) VALUES ('x', 99, 'c', 'maybe', 't', 'b', 0)")
            }
        }
    }

    @Test func exportIsByteIdenticalWithFaultEvents() throws {
        try withTempDir { dir throws in
            let log = try ExportTests.filled(dir)
            let before = try log.export(to: dir.appendingPathComponent("before"))
            try log.append([Self.fault("f1", "audio_unavailable", at: 100), Self.fault("f2", "audio_unavailable", raised: false, at: 101)])
            #expect(try log.readScalar("SELECT count(*) FROM fault_events") == "2")
            let after = try log.export(to: dir.appendingPathComponent("after"))
            #expect(after.map(\.lastPathComponent) == before.map(\.lastPathComponent))
            for (a, b) in zip(before, after) {
                #expect(try Data(contentsOf: a) == (try Data(contentsOf: b)), "\(a.lastPathComponent) changed with fault events in the log")
            }
        }
    }

    /// An older log migrates to v8 with an empty fault_events table.
    @Test func anOlderLogMigratesAndTakesFaultEvents() throws {
        try withTempDir { dir throws in
            _ = try MigrationTests.copy(to: dir)
            let log = try NightLog.open(stateDirectory: dir)
            #expect(try log.readScalar("SELECT group_concat(identifier) FROM grdb_migrations")?.hasSuffix(",v7-notices,v8-fault-events,v9-medication-events,v10-seq-floor,v11-inventory-events,v12-last-dose-and-witness,v13-notice-alarm-silent,v14-session-time-zone,v15-checkin-narcolepsy-flags,v16-evening-drinks,v17-pre-sleep-logs,v18-export-order") == true)
            #expect(try log.readScalar("SELECT count(*) FROM fault_events") == "0")
            let last = try log.lastFeedID()
            try log.append([Self.fault("f1", "gpio_unavailable", at: 0)])
            #expect(try log.feed(after: last, limit: 10).map { "\($0.id - last) \($0.kind.rawValue)" } == ["1 fault_raised"])
        }
    }

    /// A damaged log keeps its fault events: the page of fault_events' id index is overwritten
    /// (quick_check fails), every row is still readable through the table, and the salvage
    /// carries them over, seqs and all.
    @Test func aSalvagedLogKeepsItsFaultEvents() throws {
        try withTempDir { dir throws in
            let file = dir.appendingPathComponent(NightLog.fileName)
            do {
                let log = try NightLog.open(stateDirectory: dir)
                try Self.append(log)
            }
            let original = try NightLog.dumpRows(path: file.path, table: "fault_events")
            #expect(original.count == 5)
            try SalvageTests.damageIndex("sqlite_autoindex_fault_events_1", in: dir)

            let log = try NightLog.open(stateDirectory: dir, now: SalvageTests.now)
            #expect(log.recoveredFrom != nil)
            let report = try #require(log.salvage)
            #expect(report.table("fault_events") == SalvageReport.Table(name: "fault_events", salvaged: 5, refused: 0, complete: true, readErrors: 0))
            #expect(try log.dumpRows("fault_events") == original)
            #expect(try log.feed(after: 0, limit: 100).filter { $0.kind == .faultRaised || $0.kind == .faultCleared } == Self.expectedFaults)
            #expect(try log.readScalar("SELECT json_extract(figures, '$.tables.fault_events.salvaged') FROM log_recoveries") == "5")
        }
    }

    /// A clock step re-derives a fault event's wall time like every other record's.
    @Test func retimeMovesFaultEventsWithTheirBoot() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try Self.append(log)
            let t0 = Fixture.t0
            let offset = Int64(1_705_356_000) * 1_000_000_000 - t0.monoNanos + 60_000_000_000 // t0's offset, one minute later
            try log.retime(boot: t0.boot, monoNanos: t0.monoNanos, offset: NightLog.ClockOffset(offsetNanos: offset, synced: true),
                           sessionKey: { _ in Fixture.date })
            #expect(try log.feed(after: 0, limit: 1).first?.at == "2024-01-15T12:01:00.000Z")
            #expect(try log.feed(after: 6, limit: 1).first?.at == "2024-01-16T01:21:00.000Z")
        }
    }
}
