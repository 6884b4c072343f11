import DoseCore
import Foundation
import GRDB

/// The per-session summary query shared by history, sessions.csv and analytics.csv:
/// one row per session, found with index lookups only (no per-row decoding in Swift).
enum SessionQuery {
    // Column positions in `sql`.
    static let sessionID = 0, sessionDate = 1, terminalState = 2, dose1 = 3, dose2 = 4
    static let intervalMin = 5, snoozes = 6, skipped = 7, naturalWake = 8, targetMinutes = 9
    /// The doses' times as whole seconds since 1970, by SQLite's date parser (analytics.csv's
    /// clock times: a Foundation parse per timestamp cost more than the rest of that file).
    static let dose1Epoch = 10, dose2Epoch = 11

    /// Minutes from dose1 to dose2 the way `Moment.elapsed` measures them: CLOCK_BOOTTIME
    /// within one boot, wall clock across a reboot (julianday keeps milliseconds; rounding
    /// to them removes the floating-point noise of the day fraction).
    private static let interval = """
        CASE WHEN d1.id IS NULL OR d2.id IS NULL THEN NULL
             WHEN d1.boot_id = d2.boot_id THEN (d2.mono_ns - d1.mono_ns) / 60000000000.0
             ELSE round((julianday(d2.timestamp) - julianday(d1.timestamp)) * 86400000.0) / 60000.0 END
        """

    /// The night's first dose of `type` not undone, by rowid: the join then reads its row
    /// directly instead of searching the id's index first (two searches a night fewer).
    private static func firstDose(_ type: String) -> String {
        "(SELECT rowid FROM dose_events WHERE session_id = s.session_id AND event_type = '\(type)' AND undone_at IS NULL ORDER BY timestamp, seq LIMIT 1)"
    }

    /// NaturalWake (analytics.csv): a wake_final or wake_temp sleep event at or after
    /// dose1 and before the Dose 2 window opened (dose1 + window.openMin), i.e. the person
    /// woke by themselves before any alarm of the night could ring.
    private static var naturalWakeSQL: String {
        let openNanos = Int64((DoseConstants.box.window.openMin * 60_000_000_000).rounded())
        return """
            CASE WHEN d1.id IS NULL THEN 0 ELSE EXISTS (
                SELECT 1 FROM (
                    SELECT CASE WHEN w.boot_id = d1.boot_id THEN w.mono_ns - d1.mono_ns
                                ELSE round((julianday(w.timestamp) - julianday(d1.timestamp)) * 86400000.0) * 1000000 END AS dt
                    FROM sleep_events w
                    WHERE w.session_id = s.session_id AND w.event_type IN ('wake_final', 'wake_temp'))
                WHERE dt >= 0 AND dt < \(openNanos)) END
            """
    }

    // The columns `facts` adds, after `dose2Epoch`.
    static let earlyOverride = 12, lateOverride = 13, skipReason = 14, extraDoses = 15, nightWakings = 16
    /// The night's check-in (its latest), from `c`: the answers, then the flags in `NarcolepsyFlag` order.
    static let sleepQuality = 17, feelRested = 18, grogginess = 19, mentalClarity = 20, mood = 21, firstFlag = 22

    /// The rest of a `NightFacts`: the overrides and the skip's reason from the metadata,
    /// the extra doses, the night wakings (`SleepEventType.isNightWaking`) and the check-in.
    private static var factsSQL: String {
        let wakings = SleepEventType.allCases.filter(\.isNightWaking).map { "'\($0.rawValue)'" }.joined(separator: ", ")
        return """
            , COALESCE(json_extract(d2.metadata, '$.is_early'), 0), COALESCE(json_extract(d2.metadata, '$.is_late'), 0),
            (SELECT json_extract(x.metadata, '$.reason') FROM dose_events x
                WHERE x.session_id = s.session_id AND x.event_type = 'dose2_skipped' AND x.undone_at IS NULL ORDER BY x.seq LIMIT 1),
            (SELECT COUNT(*) FROM dose_events x WHERE x.session_id = s.session_id AND x.event_type = 'extra_dose' AND x.undone_at IS NULL),
            (SELECT COUNT(*) FROM sleep_events w WHERE w.session_id = s.session_id AND w.event_type IN (\(wakings))),
            c.sleep_quality, c.feel_rested, c.grogginess, c.mental_clarity, c.mood, \(NarcolepsyFlag.allCases.map { "c.\($0.rawValue)" }.joined(separator: ", "))
            """
    }

    private static let checkInJoin = """

        LEFT JOIN morning_checkins c ON c.id = (SELECT id FROM morning_checkins WHERE session_id = s.session_id ORDER BY seq DESC LIMIT 1)
        """

    static func sql(naturalWake: Bool, facts: Bool = false, filter: String, order: String) -> String {
        """
        SELECT s.session_id, s.session_date, s.terminal_state, d1.timestamp, d2.timestamp, \(interval),
            (SELECT COUNT(*) FROM dose_events x WHERE x.session_id = s.session_id AND x.event_type = 'snooze' AND x.undone_at IS NULL),
            EXISTS (SELECT 1 FROM dose_events x WHERE x.session_id = s.session_id AND x.event_type = 'dose2_skipped' AND x.undone_at IS NULL),
            \(naturalWake ? naturalWakeSQL : "0"), s.target_minutes,
            CAST(strftime('%s', d1.timestamp) AS INTEGER), CAST(strftime('%s', d2.timestamp) AS INTEGER)\(facts ? factsSQL : "")
        FROM sleep_sessions s
        LEFT JOIN dose_events d1 ON d1.rowid = \(firstDose("dose1"))
        LEFT JOIN dose_events d2 ON d2.rowid = \(firstDose("dose2"))\(facts ? checkInJoin : "")
        \(filter)
        ORDER BY \(order)
        """
    }

    /// On time: DoseCore's rule (±10 min), against the night's target moved by its snoozes.
    /// On time: DoseCore's rule (±10 min) against the night's own target. Snoozes do not
    /// move it (SSOT 2.4.3: "On-Time Threshold ±10 minutes", of the target); history and
    /// export show the snooze count beside it.
    static func isOnTime(_ row: Row) throws -> Bool {
        guard let interval = try row.decode(atIndex: intervalMin) as Double? else { return false }
        let rules = DoseConstants.box
        let target = Double(try row.decode(atIndex: targetMinutes) as Int64)
        return DoseWindow(rules: rules.window).isOnTime(intervalMinutes: interval, targetMinutes: target)
    }
}
