import DoseCore
import Foundation
import GRDB

extension NightLog {
    /// An inventory_events row back to its record.
    static func supplyRecord(_ r: StoredRow) throws -> SupplyRecord {
        SupplyRecord(id: try r.text("id"), kind: try r.value("event_type"), at: try r.moment("timestamp", boot: "boot_id", mono: "mono_ns"),
                     sessionID: try r.optionalText("session_id"), sessionDate: try r.optionalText("session_date"),
                     doses: try r.int("doses"), remainingAfter: try r.int("remaining_after"), notes: try r.optionalText("notes"),
                     source: try r.source("source"))
    }

    /// The count as the log has it: the last refill or adjustment's count, less the doses
    /// taken (not undone) after it; nil before the first one.
    public func supplyStatus(rules: DoseConstants = .box) throws(NightLogError) -> SupplyStatus? {
        try guarded {
            try db.read { db in
                guard let row = try Row.fetchOne(db, sql: """
                    SELECT seq, remaining_after FROM inventory_events WHERE event_type != 'refill_reminder' ORDER BY seq DESC LIMIT 1
                    """) else { return nil }
                let seq: Int64 = row[0], snapshot: Int = row[1]
                let taken = try Int.fetchOne(db, sql: """
                    SELECT count(*) FROM dose_events WHERE seq > ? AND undone_at IS NULL AND event_type IN ('dose1', 'dose2', 'extra_dose')
                    """, arguments: [seq]) ?? 0
                return Supply.status(snapshot: snapshot, dosesTakenSince: taken, rules: rules)
            }
        }
    }

    /// The supply's records, newest last; `limit` of the latest.
    public func supplyEvents(limit: Int) throws(NightLogError) -> [SupplyRecord] {
        let path = self.path
        return try guarded {
            try db.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM (SELECT * FROM inventory_events ORDER BY seq DESC LIMIT ?) ORDER BY seq", arguments: [limit])
                    .map { try Self.supplyRecord(StoredRow($0, "inventory_events", path: path)) }
            }
        }
    }
}
