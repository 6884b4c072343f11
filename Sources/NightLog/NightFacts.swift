import DoseCore
import Foundation
import GRDB

extension NightLog {
    /// Every night with a session date in the range, oldest first, as the facts the insights,
    /// the planner and the report read. Decided by the same query as history and
    /// analytics.csv, so an interval, an on-time night or a natural wake is one rule.
    public func nightFacts(from: String? = nil, to: String? = nil) throws(NightLogError) -> [NightFacts] {
        let range = try ExportRange(from: from, to: to)
        let path = self.path
        return try guarded {
            try db.read { db in
                let sql = SessionQuery.sql(naturalWake: true, facts: true, filter: range.whereClause("s.session_date"),
                                           order: "s.session_date, s.seq")
                let evenings = try Self.evenings(range: range, path: path, db: db)
                return try Row.fetchAll(db, sql: sql, arguments: range.arguments).map { row in
                    let id: String = try row.decode(atIndex: SessionQuery.sessionID)
                    let r = StoredRow(row, "sleep_sessions \(id)", path: path)
                    let state: String? = try row.decode(atIndex: SessionQuery.terminalState)
                    let reason: String? = try row.decode(atIndex: SessionQuery.skipReason)
                    return NightFacts(
                        sessionDate: try row.decode(atIndex: SessionQuery.sessionDate),
                        targetMinutes: Int(try row.decode(atIndex: SessionQuery.targetMinutes) as Int64),
                        dose1: try (row.decode(atIndex: SessionQuery.dose1) as String?).map { try r.date($0) },
                        dose2: try (row.decode(atIndex: SessionQuery.dose2) as String?).map { try r.date($0) },
                        intervalMinutes: try row.decode(atIndex: SessionQuery.intervalMin),
                        onTime: try SessionQuery.isOnTime(row),
                        naturalWake: try row.decode(atIndex: SessionQuery.naturalWake),
                        snoozeCount: try row.decode(atIndex: SessionQuery.snoozes),
                        skipped: try row.decode(atIndex: SessionQuery.skipped),
                        skipReason: try reason.map { try r.parse($0, "dose2_skipped reason") },
                        earlyOverride: try row.decode(atIndex: SessionQuery.earlyOverride),
                        lateOverride: try row.decode(atIndex: SessionQuery.lateOverride),
                        extraDoses: try row.decode(atIndex: SessionQuery.extraDoses),
                        nightWakings: try row.decode(atIndex: SessionQuery.nightWakings),
                        checkIn: try Self.checkIn(row, r),
                        terminalState: try state.map { try r.parse($0, "terminal_state") },
                        evening: evenings[try row.decode(atIndex: SessionQuery.sessionDate) as String])
                }
            }
        }
    }

    /// The evenings before the nights from `from` to `to` (session dates), by session date.
    public func evenings(from: String? = nil, to: String? = nil) throws(NightLogError) -> [String: EveningFacts] {
        let range = try ExportRange(from: from, to: to)
        let path = self.path
        return try guarded { try db.read { db in try Self.evenings(range: range, path: path, db: db) } }
    }

    /// The evenings of the range by session date: the alcoholic drinks not taken back and the pre-sleep logs.
    private static func evenings(range: ExportRange, path: String, db: Database) throws -> [String: EveningFacts] {
        var out: [String: EveningFacts] = [:]
        let drinks = try Row.fetchAll(db, sql: """
            SELECT session_date, count(*), total(standard_drink_units) FROM drink_logs
            \(range.whereClause("session_date", extra: "is_alcoholic = 1 AND undone_at IS NULL")) GROUP BY session_date
            """, arguments: range.arguments)
        for row in drinks {
            out[row[0]] = EveningFacts(alcoholicDrinks: row[1], units: row[2], preSleep: nil)
        }
        let logs = try Row.fetchAll(db, sql: "SELECT * FROM pre_sleep_logs \(range.whereClause("session_date"))", arguments: range.arguments)
        for row in logs {
            let p = try preSleepLog(StoredRow(row, "pre_sleep_logs", path: path))
            var e = out[p.sessionDate] ?? EveningFacts(alcoholicDrinks: 0, units: 0, preSleep: nil)
            e.preSleep = p.answers
            e.alcoholicDrinks = max(e.alcoholicDrinks, p.answers.alcoholDrinks ?? 0)
            out[p.sessionDate] = e
        }
        return out
    }

    /// The night's check-in as `nightFacts`' row holds it, or nil when there was none.
    private static func checkIn(_ row: Row, _ r: StoredRow) throws -> CheckInAnswers? {
        guard let quality = try row.decode(atIndex: SessionQuery.sleepQuality) as Int? else { return nil }
        var flags: Set<NarcolepsyFlag> = []
        for (i, flag) in NarcolepsyFlag.allCases.enumerated() where try row.decode(atIndex: SessionQuery.firstFlag + i) as Int != 0 {
            flags.insert(flag)
        }
        return CheckInAnswers(sleepQuality: quality, feelRested: try r.parse(try row.decode(atIndex: SessionQuery.feelRested), "feel_rested"),
                              grogginess: try r.parse(try row.decode(atIndex: SessionQuery.grogginess), "grogginess"),
                              mentalClarity: try row.decode(atIndex: SessionQuery.mentalClarity),
                              mood: try r.parse(try row.decode(atIndex: SessionQuery.mood), "mood"), flags: flags)
    }
}
