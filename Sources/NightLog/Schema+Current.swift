import DoseCore
import GRDB

extension Schema {
    /// The migration `current` stands for: a new log records it and every one before it.
    static let currentThrough = "v18-export-order"

    /// The schema the migrations up to `currentThrough` make, as SQLite keeps it (the text of
    /// sqlite_master, in its order: an ALTER TABLE's column is appended to its table's CREATE).
    /// A new log is made from it in one transaction (`makeCurrentIfEmpty`). The migrations stay
    /// the history and what an older log runs; `SchemaSnapshotTests` fails when this text and
    /// what they make differ in any object.
    static let current = """
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
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
            created_at      TEXT NOT NULL DEFAULT \(now), target_minutes INTEGER NOT NULL DEFAULT \(DoseConstants.box.window.defaultTargetMin), end_seq INTEGER, time_zone TEXT,
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
        , undone_seq INTEGER);
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
        , color_hex TEXT);
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
        , completed_at TEXT, overall_quality INTEGER, feeling_rested INTEGER, wake_count INTEGER NOT NULL DEFAULT 0, \(NarcolepsyFlag.allCases.map(checkInFlagColumn).joined(separator: ", ")));
        CREATE INDEX idx_sleep_events_session ON sleep_events(session_date);
        CREATE INDEX idx_dose_events_session ON dose_events(session_date);
        CREATE INDEX idx_morning_checkins_session ON morning_checkins(session_date);
        CREATE INDEX idx_morning_checkins_session_id ON morning_checkins(session_id);
        CREATE INDEX idx_sleep_sessions_date ON sleep_sessions(session_date, seq);
        CREATE INDEX idx_dose_events_session_id ON dose_events(session_id, event_type, timestamp, seq);
        CREATE INDEX idx_sleep_events_session_id ON sleep_events(session_id, timestamp, seq);
        CREATE TABLE log_recoveries (
            id                  INTEGER PRIMARY KEY,
            recovered_at        TEXT NOT NULL,
            moved_to            TEXT NOT NULL,
            reason              TEXT NOT NULL,
            dose_record_certain INTEGER NOT NULL CHECK (dose_record_certain IN (0, 1)),
            figures             TEXT NOT NULL CHECK (json_valid(figures))
        );
        CREATE TABLE clock_offsets (
            id            INTEGER PRIMARY KEY,
            boot_id       TEXT NOT NULL,
            mono_ns       INTEGER NOT NULL,
            offset_ns     INTEGER NOT NULL,
            synced        INTEGER NOT NULL CHECK (synced IN (0, 1)),
            observed_utc  TEXT NOT NULL
        );
        CREATE INDEX idx_clock_offsets_boot ON clock_offsets(boot_id, id);
        CREATE VIEW current_session AS
            SELECT 1 AS id, s.session_id, s.session_date,
                (SELECT timestamp FROM dose_events WHERE session_id = s.session_id AND event_type = 'dose1'
                    AND undone_at IS NULL ORDER BY timestamp, seq LIMIT 1) AS dose1_time,
                (SELECT timestamp FROM dose_events WHERE session_id = s.session_id AND event_type = 'dose2'
                    AND undone_at IS NULL ORDER BY timestamp, seq LIMIT 1) AS dose2_time,
                (SELECT count(*) FROM dose_events WHERE session_id = s.session_id AND event_type = 'snooze'
                    AND undone_at IS NULL) AS snooze_count,
                EXISTS (SELECT 1 FROM dose_events WHERE session_id = s.session_id AND event_type = 'dose2_skipped'
                    AND undone_at IS NULL) AS dose2_skipped,
                s.terminal_state, s.start_utc AS session_start_utc, s.end_utc AS session_end_utc,
                max(s.start_utc, coalesce(s.end_utc, ''),
                    coalesce((SELECT max(max(timestamp, coalesce(undone_at, ''))) FROM dose_events
                              WHERE session_id = s.session_id), '')) AS updated_at
            FROM sleep_sessions s ORDER BY s.seq DESC LIMIT 1;
        CREATE UNIQUE INDEX idx_dose_events_undone_seq ON dose_events(undone_seq);
        CREATE UNIQUE INDEX idx_sleep_sessions_end_seq ON sleep_sessions(end_seq);
        CREATE TABLE fault_events (
            id              TEXT PRIMARY KEY NOT NULL,
            seq             INTEGER NOT NULL UNIQUE,
            code            TEXT NOT NULL,
            state           TEXT NOT NULL CHECK (state IN ('raised', 'cleared')),
            timestamp       TEXT NOT NULL,
            boot_id         TEXT NOT NULL,
            mono_ns         INTEGER NOT NULL,
            created_at      TEXT NOT NULL DEFAULT \(now)
        );
        CREATE TABLE medication_events (
            id                    TEXT PRIMARY KEY NOT NULL,
            session_id            TEXT REFERENCES sleep_sessions(session_id),
            session_date          TEXT NOT NULL,
            medication_id         TEXT NOT NULL,
            dose_value            REAL NOT NULL CHECK (dose_value > 0),
            dose_unit             TEXT NOT NULL DEFAULT 'mg',
            formulation           TEXT,
            taken_at_utc          TEXT NOT NULL,
            local_offset_minutes  INTEGER NOT NULL,
            notes                 TEXT,
            confirmed_duplicate   INTEGER NOT NULL DEFAULT 0 CHECK (confirmed_duplicate IN (0, 1)),
            created_at            TEXT NOT NULL,
            source                TEXT NOT NULL
        );
        CREATE INDEX idx_medication_events_taken ON medication_events(medication_id, taken_at_utc);
        CREATE INDEX idx_medication_events_session_date ON medication_events(session_date);
        CREATE TABLE seq_floor (
            id     INTEGER PRIMARY KEY CHECK (id = 1),
            value  INTEGER NOT NULL
        );
        CREATE TABLE inventory_events (
            id               TEXT PRIMARY KEY NOT NULL,
            seq              INTEGER NOT NULL UNIQUE,
            event_type       TEXT NOT NULL CHECK (event_type IN (\(sqlList(SupplyRecord.Kind.allCases.map(\.rawValue))))),
            timestamp        TEXT NOT NULL,
            boot_id          TEXT NOT NULL,
            mono_ns          INTEGER NOT NULL,
            session_id       TEXT REFERENCES sleep_sessions(session_id),
            session_date     TEXT,
            doses            INTEGER NOT NULL,
            remaining_after  INTEGER NOT NULL CHECK (remaining_after >= 0 OR event_type = 'refill_reminder'),
            notes            TEXT,
            source           TEXT NOT NULL,
            created_at       TEXT NOT NULL DEFAULT \(now)
        );
        CREATE INDEX idx_inventory_events_session_id ON inventory_events(session_id);
        CREATE INDEX dose_events_taken ON dose_events(seq) WHERE \(doseTakenCondition);
        CREATE TABLE log_witness (
            id          INTEGER PRIMARY KEY CHECK (id = 1),
            created_at  TEXT NOT NULL
        );
        CREATE TABLE "notices" (
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
            created_at      TEXT NOT NULL DEFAULT \(now)
        );
        CREATE INDEX idx_notices_session_id ON notices(session_id, seq);
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
        CREATE INDEX idx_sleep_events_timestamp ON sleep_events(timestamp, seq);
        CREATE INDEX idx_dose_events_kept_time_seq ON dose_events(timestamp, seq) WHERE undone_at IS NULL;
        """

    /// A column v15 adds to morning_checkins, as v15 and `current` spell it.
    static func checkInFlagColumn(_ flag: NarcolepsyFlag) -> String {
        "\(flag.rawValue) INTEGER NOT NULL DEFAULT 0 CHECK (\(flag.rawValue) IN (0, 1))"
    }

    /// Makes `current` in a new, empty file, with the migrations it stands for recorded in
    /// GRDB's table as if each had run, so the migrator has only what came after to run (today
    /// nothing), and a log is the same whichever way it was made.
    ///
    /// Why: each ALTER TABLE and RENAME makes SQLite parse the whole schema again, so the 18
    /// migrations one by one took ~19 ms, most of a new box's first start to READY=1 (#34).
    static func makeCurrentIfEmpty(_ writer: any DatabaseWriter) throws {
        let ids = migrator.migrations.prefix { $0 != currentThrough } + [currentThrough]
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                // Checked inside the transaction: nothing else can create a table meanwhile.
                guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 else { return .commit }
                try db.execute(sql: current)
                for id in ids {
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [id])
                }
                return .commit
            }
        }
    }
}
