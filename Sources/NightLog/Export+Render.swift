import DoseCore
import Foundation
import GRDB

extension ExportFile {
    /// The query a file's rows come from. The files of one source are written from one run
    /// of it: a ten-year log's events are read once for the four files of events, its
    /// sessions once for both session files and the analytics.
    /// In the order they are made: the largest first, so that its files are written while the
    /// others are made (`ExportWriter`).
    enum Source: CaseIterable, Sendable {
        case timeline, sessions, checkins, inventory, medicationEvents, preSleepLogs, drinks, pacingEvents
    }

    var source: Source {
        switch self {
        case .sessions, .boxSessions, .analytics: .sessions
        case .events, .boxDoseEvents, .sleepEvents, .boxSleepEvents: .timeline
        case .morningCheckins, .boxMorningCheckins: .checkins
        case .inventory: .inventory
        case .medicationEvents: .medicationEvents
        case .preSleepLogs: .preSleepLogs
        case .boxDrinks: .drinks
        case .boxPacingEvents: .pacingEvents
        }
    }
}

extension NightLog {
    /// The CSV files' bytes (UTF-8) of `files`, all of one `source`, in their order.
    static func render(_ files: [ExportFile], range: ExportRange, zone: TimeZone, withoutNotes: Bool = false, db: Database) throws -> [[UInt8]] {
        precondition(!files.isEmpty && files.allSatisfy { $0.source == files[0].source }, "one source's files")
        let notes = withoutNotes ? "NULL" : "notes"
        var outs = files.map { CSVWriter(columns: $0.columns, freeText: $0.freeTextColumn) }
        switch files[0].source {
        case .sessions:
            // sessions.csv, box-sessions.csv (the same columns, then session_id) and
            // analytics.csv from one run of the session query.
            let sql = SessionQuery.sql(naturalWake: files.contains(.analytics), filter: range.whereClause("s.session_date"),
                                       order: "s.session_date, s.seq")
            let rows = try Row.fetchCursor(db, sql: sql, arguments: range.arguments)
            while let row = try rows.next() {
                let dose1 = try row.decode(atIndex: SessionQuery.dose1) as String?
                let fields = [try row.decode(atIndex: SessionQuery.sessionDate) as String?,
                              dose1,
                              try row.decode(atIndex: SessionQuery.dose2) as String?,
                              String(try row.decode(atIndex: SessionQuery.snoozes) as Int64),
                              try row.decode(atIndex: SessionQuery.skipped) as Bool ? "true" : "false",
                              try row.decode(atIndex: SessionQuery.terminalState) as String?,
                              try row.decode(atIndex: SessionQuery.sessionID) as String?]
                for i in outs.indices where files[i] != .analytics {
                    for field in fields.prefix(files[i].columns.count) { outs[i].add(field) }
                    outs[i].endRow()
                }
                // analytics.csv: one row per session that has a Dose 1 (it is about dose timing).
                if let i = files.firstIndex(of: .analytics), dose1 != nil {
                    let interval = try row.decode(atIndex: SessionQuery.intervalMin) as Double?
                    outs[i].add(fields[0])
                    for (time, epoch) in [(SessionQuery.dose1, SessionQuery.dose1Epoch), (SessionQuery.dose2, SessionQuery.dose2Epoch)] {
                        outs[i].add(clockTime(epoch: try row.decode(atIndex: epoch), stored: try row.decode(atIndex: time), in: zone))
                    }
                    outs[i].add(interval.flatMap { Int(exactly: $0.rounded()) }.map { String($0) })
                    outs[i].add(try SessionQuery.isOnTime(row) ? "true" : "false")
                    outs[i].add(try row.decode(atIndex: SessionQuery.naturalWake) as Bool ? "true" : "false")
                    outs[i].endRow()
                }
            }

        case .inventory:
            // Refills and adjustments belong to no night: a date range keeps those made in it
            // (their local date is not stored; the UTC date of the timestamp stands in).
            let sql = """
                SELECT id, event_type, timestamp, session_date, doses, remaining_after, \(notes) FROM inventory_events
                \(range.whereClause("COALESCE(session_date, substr(timestamp, 1, 10))"))
                ORDER BY seq
                """
            try CSVWriter.addRows(db, sql: sql, arguments: range.arguments, to: &outs)

        case .preSleepLogs:
            let sql = """
                SELECT id, session_date, completed_at, caffeine_cups, caffeine_cutoff, alcohol_drinks, exercise_type, exercise_duration,
                       stress_level, \(notes), created_at
                FROM pre_sleep_logs \(range.whereClause("session_date")) ORDER BY session_date
                """
            try CSVWriter.addRows(db, sql: sql, arguments: range.arguments, to: &outs)

        case .drinks:
            let sql = """
                SELECT id, session_date, timestamp, drink_type_id, standard_drink_units,
                       CASE is_alcoholic WHEN 1 THEN 'true' ELSE 'false' END, session_id, source
                FROM drink_logs \(range.whereClause("session_date", extra: "undone_at IS NULL")) ORDER BY timestamp, seq
                """
            try CSVWriter.addRows(db, sql: sql, arguments: range.arguments, to: &outs)

        case .pacingEvents:
            let sql = """
                SELECT id, session_date, timestamp, code, message, severity, session_id
                FROM pacing_events \(range.whereClause("session_date")) ORDER BY seq
                """
            try CSVWriter.addRows(db, sql: sql, arguments: range.arguments, to: &outs)

        case .medicationEvents:
            let sql = """
                SELECT id, session_id, session_date, medication_id, dose_value, dose_unit, formulation, taken_at_utc,
                       local_offset_minutes, notes, CASE confirmed_duplicate WHEN 1 THEN 'true' ELSE 'false' END, created_at
                FROM medication_events
                \(range.whereClause("session_date"))
                ORDER BY taken_at_utc, id
                """
            try CSVWriter.addRows(db, sql: sql, arguments: range.arguments, to: &outs)

        case .timeline:
            // Doses (not undone) and sleep events in one timeline, seq ordering equal
            // timestamps: events.csv, and from the same rows the dose file (the rows of kind
            // 'd') and both sleep-event files (kind 's'), so ten years of events are read once.
            // A compound SELECT ordered by its own columns: SQLite merges the two tables'
            // (timestamp, seq) indexes ("v18-export-order") instead of sorting.
            // Columns: 0-6 events.csv's, 7 seq, 8 kind, 9-14 and 16 the dose file's own, 15
            // source, 17 the sleep files' notes (never left out: `withoutNotes` is events.csv's).
            // The dose flags come out of the JSON in SQLite, not through a Swift decoder per row.
            func flag(_ key: String) -> String {
                "CASE json_extract(metadata, '$.\(key)') WHEN 1 THEN 'true' WHEN 0 THEN 'false' END"
            }
            let sql = """
                SELECT id, event_type, timestamp, session_date, metadata, NULL, NULL, seq, 'd', session_id,
                       \(flag("is_early")), \(flag("is_late")), \(flag("is_extra_dose")), json_extract(metadata, '$.snooze_number'),
                       json_extract(metadata, '$.reason'), source, json_extract(metadata, '$.restored_from'), NULL
                FROM dose_events \(range.whereClause("session_date", extra: "undone_at IS NULL"))
                UNION ALL
                SELECT id, event_type, timestamp, session_date, NULL, color_hex, \(notes), seq, 's', NULL,
                       NULL, NULL, NULL, NULL, NULL, source, NULL, notes
                FROM sleep_events \(range.whereClause("session_date"))
                ORDER BY 3, 8
                """
            for (i, file) in files.enumerated() {
                let (picks, kind): ([Int32], String?) = switch file {
                case .boxDoseEvents: ([0, 1, 2, 3, 9, 10, 11, 12, 13, 14, 15, 16], "d")
                case .sleepEvents: ([0, 1, 2, 3, 17], "s")
                case .boxSleepEvents: ([0, 1, 2, 3, 17, 15], "s")
                default: (Array(0 ..< 7), nil)
                }
                outs[i] = CSVWriter(columns: file.columns, freeText: file.freeTextColumn, picks: picks, onlyRowsOf: kind.map { (8, $0) })
            }
            try CSVWriter.addRows(db, sql: sql, arguments: range.arguments + range.arguments, to: &outs)

        case .checkins:
            // Both check-in files from one read: the answers, then the seeds' columns the box
            // does not collect (the empty column 6, each time) or the box's own.
            let answers = Int32(ExportFile.checkinAnswers.count)
            let sql = """
                SELECT \(ExportFile.checkinAnswers.joined(separator: ", ")), NULL, notes, timestamp, session_id, \(NightLog.flagColumns)
                FROM morning_checkins
                \(range.whereClause("session_date"))
                ORDER BY session_date, timestamp, seq
                """
            for i in outs.indices {
                let rest = files[i] == .boxMorningCheckins
                    ? Array(answers + 1 ..< answers + 4 + Int32(NarcolepsyFlag.allCases.count))
                    : Array(repeating: answers, count: ExportFile.checkinColumnsNotCollected.count)
                outs[i] = CSVWriter(columns: files[i].columns, freeText: files[i].freeTextColumn, picks: Array(0 ..< answers) + rest)
            }
            try CSVWriter.addRows(db, sql: sql, arguments: range.arguments, to: &outs)
        }
        return outs.map(\.bytes)
    }
}
