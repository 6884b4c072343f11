import DoseCore
import GRDB

extension Schema {
    /// "v16-evening-drinks" and "v17-pre-sleep-logs" (#33).
    ///
    /// v16: Take Care's drinks and pacing messages (seed 002's DrinkLog
    /// and PacingEvent, with its column names in snake case), in the event feed under their
    /// seq. A drink's session_id is its evening's pacing session (seed 002 "Session"), not a
    /// night's, so it has no foreign key; session_date is the night the evening leads into.
    /// timestamp is when the drink was drunk (`--at` may say earlier); logged_at, boot_id and
    /// mono_ns when the box wrote it down. A drink taken back is marked, never deleted
    /// (undone_*, as a dose's undo, undone_seq its place in the feed).
    static func registerEvening(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v16-evening-drinks") { db in
            try db.execute(sql: """
                CREATE TABLE drink_logs (
                    id                    TEXT PRIMARY KEY NOT NULL,
                    seq                   INTEGER NOT NULL UNIQUE,
                    session_id            TEXT NOT NULL,
                    session_date          TEXT NOT NULL,
                    timestamp             TEXT NOT NULL,
                    drink_type_id         TEXT NOT NULL CHECK (drink_type_id IN (\(sqlList(DrinkType.allCases.map(\.rawValue))))),
                    standard_drink_units  REAL NOT NULL CHECK (standard_drink_units >= 0),
                    is_alcoholic          INTEGER NOT NULL CHECK (is_alcoholic IN (0, 1)),
                    source                TEXT NOT NULL,
                    logged_at             TEXT NOT NULL,
                    boot_id               TEXT NOT NULL,
                    mono_ns               INTEGER NOT NULL,
                    undone_at             TEXT,
                    undone_source         TEXT,
                    undone_seq            INTEGER UNIQUE,
                    created_at            TEXT NOT NULL DEFAULT \(now)
                );
                CREATE INDEX idx_drink_logs_session ON drink_logs(session_id, timestamp);
                CREATE INDEX idx_drink_logs_date ON drink_logs(session_date);
                CREATE TABLE pacing_events (
                    id            TEXT PRIMARY KEY NOT NULL,
                    seq           INTEGER NOT NULL UNIQUE,
                    session_id    TEXT NOT NULL,
                    session_date  TEXT NOT NULL,
                    timestamp     TEXT NOT NULL,
                    boot_id       TEXT NOT NULL,
                    mono_ns       INTEGER NOT NULL,
                    code          TEXT NOT NULL,
                    message       TEXT NOT NULL,
                    severity      TEXT NOT NULL,
                    created_at    TEXT NOT NULL DEFAULT \(now)
                );
                CREATE INDEX idx_pacing_events_session ON pacing_events(session_id, seq);
                """)
        }
        // Schema v6's pre_sleep_logs, its columns and defaults exactly: one per session date.
        // The answers' ranges are checked before a write (`PreSleepAnswers.problem`), as the
        // seed has no CHECK; no seq: the patient's record, not the feed's.
        migrator.registerMigration("v17-pre-sleep-logs") { db in
            try db.execute(sql: """
                CREATE TABLE pre_sleep_logs (
                    id TEXT PRIMARY KEY,
                    session_date TEXT NOT NULL UNIQUE,
                    completed_at TEXT NOT NULL,
                    caffeine_cups INTEGER,
                    caffeine_cutoff TEXT,
                    alcohol_drinks INTEGER,
                    exercise_type TEXT,
                    exercise_duration INTEGER,
                    stress_level INTEGER,
                    notes TEXT,
                    created_at TEXT DEFAULT CURRENT_TIMESTAMP
                );
                """)
        }
    }
}
