import Foundation

/// What a recovery carried over from a damaged log into the new one.
///
/// `NightLog.salvage` holds it (nil on a normal open), and the new log keeps a copy in
/// `log_recoveries`. Rows that were on damaged pages cannot be counted (their pages are
/// unreadable), so a table says whether its whole b-tree was read (`complete`) instead.
public struct SalvageReport: Sendable, Equatable {
    /// The figures for one table.
    public struct Table: Sendable, Equatable {
        /// sleep_sessions, dose_events, sleep_events, morning_checkins or notices.
        public var name: String
        /// Rows read from the damaged file and stored in the new log (same ids, seq and values).
        public var salvaged: Int
        /// Rows read from the damaged file that the new log's schema refused (a CHECK, a
        /// foreign key, json_valid, a value of the wrong type, a duplicate id). They are lost.
        public var refused: Int
        /// True when the table's whole b-tree was read without a single read error, so every
        /// row it held was seen. False if any stretch of it had to be skipped, or the table
        /// could not be found at all (damaged schema, not a database). A table the damaged log
        /// never had (notices, in a log from before "v7-notices") is complete with nothing salvaged.
        public var complete: Bool
        /// Damaged stretches of the b-tree that were skipped (0 when `complete`).
        public var readErrors: Int

        public init(name: String, salvaged: Int, refused: Int, complete: Bool, readErrors: Int) {
            self.name = name
            self.salvaged = salvaged
            self.refused = refused
            self.complete = complete
            self.readErrors = readErrors
        }
    }

    /// One entry per table, in `SalvageReport.tableNames` order.
    public var tables: [Table]
    /// The damaged file's WAL held a committed transaction SQLite could not use (a frame of
    /// its current generation past a damaged one, or frames behind a damaged WAL header):
    /// writes that had been acknowledged may be missing from every table.
    public var walCommitsLost: Bool

    /// The tables salvaged, parents first (sessions before the events that reference them).
    public static let tableNames = ["sleep_sessions", "dose_events", "sleep_events", "morning_checkins", "notices", "fault_events",
                                     "medication_events", "inventory_events", "drink_logs", "pacing_events", "pre_sleep_logs"]

    /// The log was behind its witness, or the witness named doses the salvage could not
    /// carry (see `Witness`): acknowledged records are missing, whatever the tables say.
    public var lostRecords = false

    public init(tables: [Table], walCommitsLost: Bool) {
        self.tables = tables
        self.walCommitsLost = walCommitsLost
    }

    public func table(_ name: String) -> Table? {
        tables.first { $0.name == name }
    }

    /// True only when every session and every dose event of the damaged log is in the new
    /// log: sleep_sessions and dose_events were read completely, nothing of them was
    /// refused, and the WAL lost no commit. Then tonight's doses are known. When false,
    /// a dose may have been taken that the log no longer shows (the daemon must doubt).
    public var doseRecordCertain: Bool {
        guard !walCommitsLost, !lostRecords else { return false }
        return ["sleep_sessions", "dose_events"].allSatisfy { name in
            guard let t = table(name) else { return false }
            return t.complete && t.refused == 0
        }
    }

    public var salvagedRows: Int { tables.reduce(0) { $0 + $1.salvaged } }
    public var refusedRows: Int { tables.reduce(0) { $0 + $1.refused } }

    /// The figures as stored in `log_recoveries.figures` (sorted keys, so always the same bytes).
    var figuresJSON: String {
        var parts: [String] = []
        for t in tables.sorted(by: { $0.name < $1.name }) {
            parts.append("\"\(t.name)\":{\"complete\":\(t.complete),\"read_errors\":\(t.readErrors),\"refused\":\(t.refused),\"salvaged\":\(t.salvaged)}")
        }
        return "{\"tables\":{\(parts.joined(separator: ","))},\"wal_commits_lost\":\(walCommitsLost)}"
    }
}
