import DoseCore
import GRDB

/// The schema, as named migrations. A migration is frozen once released: change the
/// schema by appending a new one ("v2-…"), never by editing an old one, because boxes in
/// the field have already run it.
///
/// Names and event strings follow the schema seed (v6) and SSOT 3.0. Additions of our own:
/// - `seq`: one sequence across all four tables, assigned at append time, so records with
///   the same timestamp come back in the order they were written (rowids are per table and
///   may be renumbered by VACUUM).
/// - `boot_id` / `mono_ns` next to every timestamp, so a `Moment` can be rebuilt exactly.
/// - `undone_*` on dose_events: undo marks the row, it never deletes it.
/// - Foreign keys from events to sleep_sessions (the seed disables them; the box has no
///   reason to accept an event for a session that was never opened).
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-initial") { db in
            try db.execute(sql: v1)
        }
        // The target in effect when each night began, so history and export judge "on time" against it.
        migrator.registerMigration("v2-session-target") { db in
            try db.execute(sql: """
                ALTER TABLE sleep_sessions ADD COLUMN target_minutes INTEGER NOT NULL DEFAULT \(DoseConstants.box.window.defaultTargetMin)
                """)
        }
        // What each recovery from a damaged file could carry over (see `Salvage`): when it
        // happened, where the damaged file was kept, why, and the per-table figures as JSON
        // ({"tables": {"dose_events": {"complete", "read_errors", "refused", "salvaged"}, …},
        // "wal_commits_lost"}). Rows are only ever added.
        migrator.registerMigration("v3-recoveries") { db in
            try db.execute(sql: """
                CREATE TABLE log_recoveries (
                    id                  INTEGER PRIMARY KEY,
                    recovered_at        TEXT NOT NULL,
                    moved_to            TEXT NOT NULL,
                    reason              TEXT NOT NULL,
                    dose_record_certain INTEGER NOT NULL CHECK (dose_record_certain IN (0, 1)),
                    figures             TEXT NOT NULL CHECK (json_valid(figures))
                )
                """)
        }
        // One timeline (see `NightLog.retime`): each boot's wall-clock offset as it was
        // observed, whether the clock was synchronised then. Rows are only ever added.
        migrator.registerMigration("v4-clock-offsets") { db in
            try db.execute(sql: """
                CREATE TABLE clock_offsets (
                    id            INTEGER PRIMARY KEY,
                    boot_id       TEXT NOT NULL,
                    mono_ns       INTEGER NOT NULL,
                    offset_ns     INTEGER NOT NULL,
                    synced        INTEGER NOT NULL CHECK (synced IN (0, 1)),
                    observed_utc  TEXT NOT NULL
                );
                CREATE INDEX idx_clock_offsets_boot ON clock_offsets(boot_id, id);
                """)
        }
        return migrator
    }

    // ISO 8601 UTC with milliseconds, like every other timestamp in the file.
    private static let now = "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))"

    static let v1 = """
        CREATE TABLE sleep_sessions (
            session_id      TEXT PRIMARY KEY NOT NULL,
            seq             INTEGER NOT NULL UNIQUE,
            session_date    TEXT NOT NULL,
            start_utc       TEXT NOT NULL,
            start_boot_id   TEXT NOT NULL,
            start_mono_ns   INTEGER NOT NULL,
            end_utc         TEXT,
            end_boot_id     TEXT,
            end_mono_ns     INTEGER,
            terminal_state  TEXT CHECK (terminal_state IN ('completed', 'skipped', 'expired', 'aborted')),
            close_reason    TEXT,
            created_at      TEXT NOT NULL DEFAULT \(now),
            CHECK ((end_utc IS NULL) = (terminal_state IS NULL))
        );

        CREATE TABLE dose_events (
            id              TEXT PRIMARY KEY NOT NULL,
            seq             INTEGER NOT NULL UNIQUE,
            session_id      TEXT NOT NULL REFERENCES sleep_sessions(session_id),
            session_date    TEXT NOT NULL,
            event_type      TEXT NOT NULL CHECK (event_type IN ('dose1', 'dose2', 'extra_dose', 'dose2_skipped', 'snooze')),
            timestamp       TEXT NOT NULL,
            metadata        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
            source          TEXT NOT NULL,
            boot_id         TEXT NOT NULL,
            mono_ns         INTEGER NOT NULL,
            undone_at       TEXT,
            undone_source   TEXT,
            undone_boot_id  TEXT,
            undone_mono_ns  INTEGER,
            created_at      TEXT NOT NULL DEFAULT \(now)
        );

        CREATE TABLE sleep_events (
            id              TEXT PRIMARY KEY NOT NULL,
            seq             INTEGER NOT NULL UNIQUE,
            session_id      TEXT NOT NULL REFERENCES sleep_sessions(session_id),
            session_date    TEXT NOT NULL,
            event_type      TEXT NOT NULL,
            timestamp       TEXT NOT NULL,
            notes           TEXT,
            source          TEXT NOT NULL,
            boot_id         TEXT NOT NULL,
            mono_ns         INTEGER NOT NULL,
            created_at      TEXT NOT NULL DEFAULT \(now)
        );

        CREATE TABLE morning_checkins (
            id              TEXT PRIMARY KEY NOT NULL,
            seq             INTEGER NOT NULL UNIQUE,
            session_id      TEXT NOT NULL UNIQUE REFERENCES sleep_sessions(session_id),
            session_date    TEXT NOT NULL,
            timestamp       TEXT NOT NULL,
            boot_id         TEXT NOT NULL,
            mono_ns         INTEGER NOT NULL,
            sleep_quality   INTEGER NOT NULL CHECK (sleep_quality BETWEEN 1 AND 5),
            feel_rested     TEXT NOT NULL,
            grogginess      TEXT NOT NULL,
            mental_clarity  INTEGER NOT NULL CHECK (mental_clarity BETWEEN 1 AND 10),
            mood            TEXT NOT NULL,
            notes           TEXT,
            source          TEXT NOT NULL,
            created_at      TEXT NOT NULL DEFAULT \(now)
        );

        -- The schema seed's indexes, same names.
        CREATE INDEX idx_sleep_events_session ON sleep_events(session_date);
        CREATE INDEX idx_sleep_events_timestamp ON sleep_events(timestamp);
        CREATE INDEX idx_dose_events_session ON dose_events(session_date);
        CREATE INDEX idx_morning_checkins_session ON morning_checkins(session_date);
        CREATE INDEX idx_morning_checkins_session_id ON morning_checkins(session_id);

        -- Ours: per-session lookups (rebuild, history, export) and the history order.
        CREATE INDEX idx_sleep_sessions_date ON sleep_sessions(session_date, seq);
        CREATE INDEX idx_dose_events_session_id ON dose_events(session_id, event_type, timestamp, seq);
        CREATE INDEX idx_sleep_events_session_id ON sleep_events(session_id, timestamp, seq);
        """
}
