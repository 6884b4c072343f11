import DoseCore
import Foundation
import GRDB

/// One timeline across clock steps.
///
/// Every record keeps its boot id and CLOCK_BOOTTIME (`mono_ns`), which never jump within a
/// boot. The wall clock can: a Pi with no RTC boots at its last shutdown time and is stepped
/// by NTP later, and a person can set the date. So the wall time of a record is its
/// BOOTTIME plus the latest known offset (wall − BOOTTIME) of its boot. When the offset of
/// the running boot changes (a step, or the clock becoming synchronised), `retime` records
/// the new offset and re-derives, in one transaction, the stored wall times of every record
/// of that boot (and the session key of nights that began in it), so status, history and
/// every export agree with each other and with the intervals. The offsets observed are kept
/// in `clock_offsets`, so each record's time as first written, and whether the clock was
/// synchronised then, can still be derived.
extension NightLog {
    public struct ClockOffset: Sendable, Hashable {
        public var offsetNanos: Int64
        public var synced: Bool
        public init(offsetNanos: Int64, synced: Bool) {
            self.offsetNanos = offsetNanos
            self.synced = synced
        }
    }

    /// The offset last recorded for `boot`, if any.
    public func clockOffset(boot: String) throws(NightLogError) -> ClockOffset? {
        try guarded {
            try db.read { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT offset_ns, synced FROM clock_offsets WHERE boot_id = ? ORDER BY id DESC LIMIT 1",
                                                 arguments: [boot]) else { return nil }
                return ClockOffset(offsetNanos: row[0], synced: (row[1] as Int64) == 1)
            }
        }
    }

    /// Records `offset` for `boot` (observed at `monoNanos`) and re-derives the wall time of
    /// every record of that boot from it. `sessionKey` gives the night's key for a start time
    /// (SessionRules with the box's zone and rollover). Returns how many rows changed.
    @discardableResult
    public func retime(boot: String, monoNanos: Int64, offset: ClockOffset, sessionKey: @Sendable (Date) -> String) throws(NightLogError) -> Int {
        try guarded {
            try db.write { db in
                func wall(_ mono: Int64) -> String {
                    Date(timeIntervalSince1970: Double(mono + offset.offsetNanos) / 1e9).iso8601
                }
                try db.execute(sql: """
                    INSERT INTO clock_offsets (boot_id, mono_ns, offset_ns, synced, observed_utc) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [boot, monoNanos, offset.offsetNanos, offset.synced ? 1 : 0, wall(monoNanos)])
                var changed = 0
                // (table, wall column, boot column, mono column)
                let columns = [
                    ("dose_events", "timestamp", "boot_id", "mono_ns"),
                    ("dose_events", "undone_at", "undone_boot_id", "undone_mono_ns"),
                    ("sleep_events", "timestamp", "boot_id", "mono_ns"),
                    ("morning_checkins", "timestamp", "boot_id", "mono_ns"),
                    ("notices", "timestamp", "boot_id", "mono_ns"),
                    ("fault_events", "timestamp", "boot_id", "mono_ns"),
                    ("inventory_events", "timestamp", "boot_id", "mono_ns"),
                    ("pacing_events", "timestamp", "boot_id", "mono_ns"),
                    ("sleep_sessions", "start_utc", "start_boot_id", "start_mono_ns"),
                    ("sleep_sessions", "end_utc", "end_boot_id", "end_mono_ns"),
                ]
                // A drink's time drunk moves with the time it was logged (`--at` was said on the same clock).
                for row in try Row.fetchAll(db, sql: "SELECT rowid, mono_ns, logged_at, timestamp FROM drink_logs WHERE boot_id = ?",
                                            arguments: [boot]) {
                    let derived = wall(row[1])
                    guard derived != (row[2] as String), let was = Date(iso8601: row[2]), let drunk = Date(iso8601: row[3]),
                          let now = Date(iso8601: derived) else { continue }
                    try db.execute(sql: "UPDATE drink_logs SET logged_at = ?, timestamp = ? WHERE rowid = ?",
                                   arguments: [derived, drunk.addingTimeInterval(now.timeIntervalSince(was)).iso8601, row[0] as Int64])
                    changed += 1
                }
                for (table, wallColumn, bootColumn, monoColumn) in columns {
                    let rows = try Row.fetchAll(db, sql: "SELECT rowid, \(monoColumn), \(wallColumn) FROM \(table) WHERE \(bootColumn) = ?",
                                                arguments: [boot])
                    for row in rows {
                        let mono: Int64 = row[1]
                        let derived = wall(mono)
                        guard derived != (row[2] as String?) else { continue }
                        try db.execute(sql: "UPDATE \(table) SET \(wallColumn) = ? WHERE rowid = ?", arguments: [derived, row[0] as Int64])
                        changed += 1
                    }
                }
                // A night that began in this boot gets the key of its corrected start.
                let sessions = try Row.fetchAll(db, sql: "SELECT session_id, session_date, start_mono_ns FROM sleep_sessions WHERE start_boot_id = ?",
                                                arguments: [boot])
                for s in sessions {
                    let id: String = s[0]
                    let key = sessionKey(Date(timeIntervalSince1970: Double((s[2] as Int64) + offset.offsetNanos) / 1e9))
                    guard key != (s[1] as String) else { continue }
                    for table in ["sleep_sessions", "dose_events", "sleep_events", "morning_checkins", "notices"] {
                        try db.execute(sql: "UPDATE \(table) SET session_date = ? WHERE session_id = ?", arguments: [key, id])
                    }
                    changed += 1
                }
                return changed
            }
        }
    }
}
