import DoseCore
import GRDB

/// The schema, as named migrations. A migration is frozen once released: change the
/// schema by appending a new one ("v2-…"), never by editing an old one, because boxes in
/// the field have already run it. A new log is made from `current` (Schema+Current.swift),
/// which stands for the migrations up to `currentThrough`; the migrator runs any after it on a
/// new log too, so a new migration is correct alone; bringing `current` up to it (sqlite_master's
/// text of a migrated log; SchemaSnapshotTests shows what differs) keeps a new box's start fast.
///
/// Names and event strings follow the schema seed (v6) and SSOT 3.0. Additions of our own:
/// - `seq`: one sequence across all the record tables (notices too, from v7), assigned at append time, so records with
///   the same timestamp come back in the order they were written (rowids are per table and
///   may be renumbered by VACUUM).
/// - `boot_id` / `mono_ns` next to every timestamp, so a `Moment` can be rebuilt exactly.
/// - `undone_*` on dose_events: undo marks the row, it never deletes it.
/// - `undone_seq` / `end_seq` (v6): the seq of an undo and of a session close, from the
///   same sequence, so the event feed can list those changes in the order they were written.
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
        // What a tool reading a DoseTap schema v6 database expects (schema seed v6; SSOT 3.0
        // "Storage and Persistence Truth"), added to the box's own tables:
        // - sleep_events.color_hex: the seed's optional colour override; the box has no
        //   screen and leaves it NULL (the seed's default).
        // - morning_checkins' v6 names beside the box's: completed_at (the check-in's
        //   timestamp), overall_quality (sleep_quality, 1-5), feeling_rested (feel_rested as
        //   1-5) and wake_count (the wake_temp events logged in the night when it was saved).
        //   Written with the row (`Writes`), filled here for the nights already kept.
        // - current_session: a view of the latest session with both seeds' columns, never a
        //   second copy of the night that could disagree with the log.
        // Not added: UNIQUE(session_date) on morning_checkins. SSOT 3.0, the newer seed, ties a
        // check-in to its session (session_id, UNIQUE here); two sessions can share a date on
        // the box (a nap after the morning check-in), and a unique date would refuse the
        // second check-in or stop this migration on a log that already holds one.
        migrator.registerMigration("v5-schema-v6-columns") { db in
            try db.execute(sql: """
                ALTER TABLE sleep_events ADD COLUMN color_hex TEXT;
                ALTER TABLE morning_checkins ADD COLUMN completed_at TEXT;
                ALTER TABLE morning_checkins ADD COLUMN overall_quality INTEGER;
                ALTER TABLE morning_checkins ADD COLUMN feeling_rested INTEGER;
                ALTER TABLE morning_checkins ADD COLUMN wake_count INTEGER NOT NULL DEFAULT 0;
                UPDATE morning_checkins SET completed_at = timestamp, overall_quality = sleep_quality,
                    feeling_rested = \(feelingRestedSQL("feel_rested")), wake_count = \(wakeCountSQL("morning_checkins.session_id"));
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
                """)
        }
        // The event feed (`NightLog.feed`) is read from the log in seq order, and an undo or
        // a session close is a change of its own: undone_seq and end_seq are the seq given
        // to that change, from the same sequence (`Writes.nextSeq` takes their maximum too;
        // UNIQUE, so that MAX is a lookup; NULL while the row is not undone / not closed).
        // Rows already undone or closed get new seqs after the current maximum, in the
        // order the changes happened (undone_at / end_utc, then the row's seq): the feed
        // lists them after everything the log held, never under an id a reader has seen.
        migrator.registerMigration("v6-feed-seq") { db in
            try db.execute(sql: """
                ALTER TABLE dose_events ADD COLUMN undone_seq INTEGER;
                ALTER TABLE sleep_sessions ADD COLUMN end_seq INTEGER;
                CREATE UNIQUE INDEX idx_dose_events_undone_seq ON dose_events(undone_seq);
                CREATE UNIQUE INDEX idx_sleep_sessions_end_seq ON sleep_sessions(end_seq);
                """)
            try backfillChangeSeqs(db)
        }
        // Notices (`NoticeRecord`): an alarm rang, or a caregiver escalation fell due. They
        // live in the log because the event feed, and a caregiver behind it, learn alarms and
        // escalations from the log alone (even after an outage), and because a night rebuilt
        // after a restart must know which escalations were already given. seq comes from the
        // one sequence (`Writes.nextSeq` takes MAX(seq) here too). level is AlarmLevel's raw
        // Int (gentle 1, standard 2, critical 3); alert and level are set for alarm_rang.
        // The kind CHECK lists the four kinds v7 was released with, spelled out: a migration is
        // frozen once run, so a new kind needs a new migration (v13 added alarm_silent). alert
        // and level have no CHECK for that reason (a new AlertKind must not be refused);
        // reading a row back validates them.
        migrator.registerMigration("v7-notices") { db in
            try db.execute(sql: """
                CREATE TABLE notices (
                    id              TEXT PRIMARY KEY NOT NULL,
                    seq             INTEGER NOT NULL UNIQUE,
                    session_id      TEXT NOT NULL REFERENCES sleep_sessions(session_id),
                    session_date    TEXT NOT NULL,
                    kind            TEXT NOT NULL CHECK (kind IN ('alarm_rang', 'alarm_unanswered', 'dose2_missing', 'window_closed_without_dose2')),
                    timestamp       TEXT NOT NULL,
                    boot_id         TEXT NOT NULL,
                    mono_ns         INTEGER NOT NULL,
                    dose1_id        TEXT NOT NULL,
                    alert           TEXT,
                    level           INTEGER,
                    created_at      TEXT NOT NULL DEFAULT \(now)
                );
                CREATE INDEX idx_notices_session_id ON notices(session_id, seq);
                """)
        }
        // Faults of the box raised and cleared (`FaultRecord`), for the event feed: a caregiver
        // learns "the speaker failed at 01:12" even after an outage. No session (a fault can
        // come at noon). state is 'raised' or 'cleared'; code is Fault.code, unchecked (a new
        // fault must not be refused).
        migrator.registerMigration("v8-fault-events") { db in
            try db.execute(sql: """
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
                """)
        }
        // SSOT 2.4.2's medication_events, with its columns: the medications taken beside XYWAV.
        // session_id is the night of session_date if the box has one (NULL otherwise: a
        // dose of Adderall on a day the box recorded no night is still the patient's record).
        // source is the box's own. No seq: the patient's record, not the night's event feed.
        migrator.registerMigration("v9-medication-events") { db in
            try db.execute(sql: """
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
                """)
        }
        // The highest seq ever given, kept when nights are forgotten (`forget`): the feed's
        // ids never repeat, so a watcher's cursor (the caregiver bridge's) never skips new
        // entries that would otherwise reuse the ids of deleted ones.
        migrator.registerMigration("v10-seq-floor") { db in
            try db.execute(sql: """
                CREATE TABLE seq_floor (
                    id     INTEGER PRIMARY KEY CHECK (id = 1),
                    value  INTEGER NOT NULL
                );
                """)
        }
        // The supply (SSOT 1.1 "Inventory Management"): refill_logged, inventory_adjustment
        // and refill_reminder, in the event feed under their seq. doses is the change (0 for
        // a reminder), remaining_after the count after it. A reminder belongs to the night
        // whose Dose 1 gave it.
        migrator.registerMigration("v11-inventory-events") { db in
            try db.execute(sql: """
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
                """)
        }
        // #29: the last dose taken in the whole log is one lookup, whichever night it is in
        // (the guard against a new Dose 1 too soon reads it at every start); and the log's
        // note that it has a witness beside it (`Witness`), so a witness that goes missing
        // later is a fault, while a log from before witnesses simply gets its first one.
        migrator.registerMigration("v12-last-dose-and-witness") { db in
            try db.execute(sql: """
                CREATE INDEX dose_events_taken ON dose_events(seq) WHERE \(doseTakenCondition);
                CREATE TABLE log_witness (
                    id          INTEGER PRIMARY KEY CHECK (id = 1),
                    created_at  TEXT NOT NULL
                );
                """)
        }
        registerNoticeKindsV13(&migrator)
        // Each night's zone, so the log alone can say its local times (boxctl with boxd down); NULL before.
        migrator.registerMigration("v14-session-time-zone") { db in
            try db.execute(sql: "ALTER TABLE sleep_sessions ADD COLUMN time_zone TEXT")
        }
        registerCheckInFlagsV15(&migrator)
        registerEvening(&migrator)
        registerExportOrder(&migrator)
        return migrator
    }

    // ISO 8601 UTC with milliseconds, like every other timestamp in the file.
    static let now = "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))"

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

        -- The schema seed's indexes, same names (v18 adds seq to idx_sleep_events_timestamp).
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
