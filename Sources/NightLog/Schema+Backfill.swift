import GRDB

extension Schema {
    /// Gives every undone dose event without an undone_seq and every closed session without
    /// an end_seq a new seq after the log's maximum, in the order the changes happened
    /// (undone_at / end_utc, then the row's seq). The v6 migration, and a salvage of a log
    /// written before it.
    static func backfillChangeSeqs(_ db: Database) throws {
        // notices exists from v7 on, fault_events from v8 (a salvage stores its rows before this runs).
        let notices = try ["notices", "fault_events", "inventory_events"].filter { try db.tableExists($0) }
            .map { " UNION ALL SELECT max(seq) FROM \($0)" }.joined()
        try db.execute(sql: """
            CREATE TEMP TABLE change_seq_backfill (tbl TEXT NOT NULL, key TEXT NOT NULL, new_seq INTEGER NOT NULL,
                                                   PRIMARY KEY (tbl, key));
            INSERT INTO change_seq_backfill (tbl, key, new_seq)
                SELECT tbl, key,
                       ifnull((SELECT max(m) FROM (
                            SELECT max(seq) AS m FROM sleep_sessions UNION ALL SELECT max(end_seq) FROM sleep_sessions
                            UNION ALL SELECT max(seq) FROM dose_events UNION ALL SELECT max(undone_seq) FROM dose_events
                            UNION ALL SELECT max(seq) FROM sleep_events UNION ALL SELECT max(seq) FROM morning_checkins\(notices))), 0)
                       + row_number() OVER (ORDER BY at, seq)
                FROM (SELECT 'dose_events' AS tbl, id AS key, undone_at AS at, seq FROM dose_events
                          WHERE undone_at IS NOT NULL AND undone_seq IS NULL
                      UNION ALL
                      SELECT 'sleep_sessions', session_id, end_utc, seq FROM sleep_sessions
                          WHERE end_utc IS NOT NULL AND end_seq IS NULL);
            UPDATE dose_events SET undone_seq = (SELECT new_seq FROM change_seq_backfill WHERE tbl = 'dose_events' AND key = dose_events.id)
                WHERE undone_at IS NOT NULL AND undone_seq IS NULL;
            UPDATE sleep_sessions SET end_seq = (SELECT new_seq FROM change_seq_backfill WHERE tbl = 'sleep_sessions' AND key = sleep_sessions.session_id)
                WHERE end_utc IS NOT NULL AND end_seq IS NULL;
            DROP TABLE change_seq_backfill;
            """)
    }
}
