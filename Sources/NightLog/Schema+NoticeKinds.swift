import GRDB

extension Schema {
    /// The notice kinds v13 allows: v7's four and `alarm_silent`, spelled out (frozen like
    /// the migration; `NoticeLogTests` fails when a NoticeRecord.Kind is missing here).
    static let noticeKindsV13 = ["alarm_rang", "alarm_silent", "alarm_unanswered", "dose2_missing", "window_closed_without_dose2"]

    /// "v13-notice-alarm-silent": an alarm that fell due and could not sound (the speaker
    /// failed) is a notice of its own, never "rang" (#29). SQLite cannot change a CHECK in
    /// place, so notices is rebuilt the documented way (new table, copy, drop, rename, index),
    /// keeping every row with its rowid; GRDB runs it with foreign keys off and checks them
    /// before the commit. Columns and the index are v7's exactly.
    static func registerNoticeKindsV13(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13-notice-alarm-silent") { db in
            let columns = "id, seq, session_id, session_date, kind, timestamp, boot_id, mono_ns, dose1_id, alert, level, created_at"
            try db.execute(sql: """
                CREATE TABLE notices_v13 (
                    id              TEXT PRIMARY KEY NOT NULL,
                    seq             INTEGER NOT NULL UNIQUE,
                    session_id      TEXT NOT NULL REFERENCES sleep_sessions(session_id),
                    session_date    TEXT NOT NULL,
                    kind            TEXT NOT NULL CHECK (kind IN (\(sqlList(noticeKindsV13)))),
                    timestamp       TEXT NOT NULL,
                    boot_id         TEXT NOT NULL,
                    mono_ns         INTEGER NOT NULL,
                    dose1_id        TEXT NOT NULL,
                    alert           TEXT,
                    level           INTEGER,
                    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                );
                INSERT INTO notices_v13 (rowid, \(columns)) SELECT rowid, \(columns) FROM notices ORDER BY rowid;
                DROP TABLE notices;
                ALTER TABLE notices_v13 RENAME TO notices;
                CREATE INDEX idx_notices_session_id ON notices(session_id, seq);
                """)
        }
    }
}
