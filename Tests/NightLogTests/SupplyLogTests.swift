import DoseCore
import Foundation
import Testing
@testable import NightLog

/// The supply in the log (migration "v11-inventory-events"): the count is the last refill or
/// adjustment less the doses taken after it, the entries are in the feed, inventory.csv has
/// them, and a forgotten night takes its reminder with it.
@Suite struct SupplyLogTests {
    static func supply(_ id: String, _ kind: SupplyRecord.Kind, doses: Int, after: Int, at minutes: Double,
                       session: String? = nil, notes: String? = nil) -> LogRecord {
        .supply(SupplyRecord(id: id, kind: kind, at: Fixture.at(minutes), sessionID: session, sessionDate: session == nil ? nil : Fixture.date,
                             doses: doses, remainingAfter: after, notes: notes, source: .cli(uid: 1000)))
    }

    @Test func theCountIsTheLastSnapshotLessTheDosesTakenSince() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            #expect(try log.supplyStatus() == nil, "not counted before a refill")
            try log.append([Fixture.open(), Fixture.dose("d0", .dose1, at: 0)])        // before the count: not taken off
            try log.append([Self.supply("r1", .refillLogged, doses: 20, after: 20, at: 10, notes: "pharmacy")])
            try log.append([Fixture.dose("d2", .dose2, at: 165), Fixture.dose("x", .extraDose, at: 200, metadata: DoseMetadata(isExtraDose: true))])
            #expect(try log.supplyStatus()?.remainingDoses == 18)
            try log.append([Fixture.undo("x", at: 201)])                               // an undone dose gives it back
            #expect(try log.supplyStatus()?.remainingDoses == 19)
            try log.append([Self.supply("a1", .inventoryAdjustment, doses: -3, after: 16, at: 300, notes: "spilled")])
            try log.append([Self.supply("rem", .refillReminder, doses: 0, after: 15, at: 301, session: "S1")])  // a reminder is no snapshot
            try log.append([Fixture.dose("s", .snooze, at: 302)])                       // a snooze is no dose
            #expect(try log.supplyStatus()?.remainingDoses == 16)
            #expect(try log.supplyEvents(limit: 2).map(\.id) == ["a1", "rem"])

            let feed = try log.feed(after: 0, limit: 100).filter { [.refillLogged, .inventoryAdjustment, .refillReminder].contains($0.kind) }
            #expect(feed.map(\.kind) == [.refillLogged, .inventoryAdjustment, .refillReminder])
            #expect(feed.map(\.doses) == [20, -3, 0] && feed.map(\.remainingDoses) == [20, 16, 15])
            #expect(feed[2].sessionID == "S1" && feed[0].sessionID == nil && feed[0].notes == "pharmacy")

            let csv = try log.csv(.inventory).components(separatedBy: "\r\n")
            #expect(csv[0] == "id,event_type,timestamp,session_date,doses,remaining_after,notes")
            #expect(csv[1] == "r1,refill_logged,2024-01-15T22:10:00.000Z,,20,20,pharmacy")
            #expect(csv[3] == "rem,refill_reminder,2024-01-16T03:01:00.000Z,2024-01-15,0,15,")
        }
    }

    @Test func aForgottenNightTakesItsReminderAndLeavesTheRefills() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Self.supply("r1", .refillLogged, doses: 20, after: 20, at: -10)])
            try log.append([Fixture.open(), Fixture.dose("d1", .dose1, at: 0), Self.supply("rem", .refillReminder, doses: 0, after: 19, at: 0, session: "S1")])
            let plan = Forgetting.plan(try log.nightsToForget(from: nil, to: Fixture.date), latestSessionID: nil, now: Fixture.at(5000).wall)
            _ = try log.forget(plan, from: nil, to: Fixture.date)
            #expect(try log.supplyEvents(limit: 10).map(\.id) == ["r1"])
        }
    }
}
