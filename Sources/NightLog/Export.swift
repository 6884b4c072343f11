import DoseCore
import Foundation
import GRDB
import GRDBSQLite

/// The export files: the seeds' files first, with the seeds' names and headers exactly,
/// then the box's own files (prefix `box-`) with what the seeds' files have no column for
/// (session ids, the source of each record, check-in notes and times, undo-aware dose flags).
/// Byte-for-byte deterministic: fixed columns, header always, timestamps as stored (ISO 8601
/// UTC with milliseconds), booleans `true`/`false`, empty field for "none" (and for what the
/// box does not collect), RFC 4180 quoting, CRLF line ends, rows in a total order. Undone
/// dose events never appear and never count.
///
/// Free text (the `notes` of sleep events and check-ins) that a spreadsheet would run as a
/// formula, i.e. text starting with `=`, `+`, `-`, `@`, a tab or a CR, is written with a
/// single quote `'` in front (OWASP's advice against CSV injection). Only those columns:
/// numbers and timestamps are never changed.
public enum ExportFile: String, Sendable, CaseIterable {
    // The seeds' files.
    case events
    case sessions
    case sleepEvents = "sleep_events"
    case morningCheckins = "morning_checkins"
    case analytics
    case medicationEvents = "medication_events"
    case inventory
    /// Schema v6's table; it gives no export header, so the table's columns in order (#33).
    case preSleepLogs = "pre_sleep_logs"
    // The box's own.
    case boxSessions = "box-sessions"
    case boxDoseEvents = "box-dose-events"
    case boxSleepEvents = "box-sleep-events"
    case boxMorningCheckins = "box-morning-checkins"
    /// The evenings' drinks not taken back (Take Care's DrinkLog, #33) and what the coach said.
    case boxDrinks = "box-drinks"
    case boxPacingEvents = "box-pacing-events"

    public var fileName: String { rawValue + ".csv" }

    /// The zone of a caller that has no patient's zone (tests, benchmarks): analytics.csv's
    /// times of day in UTC. boxctl passes the box's zone.
    public static let utc = TimeZone(identifier: "UTC")!

    /// The column that holds free text typed by a person (an index into `columns`), if any.
    var freeTextColumn: Int32? {
        columns.firstIndex(of: "notes").map { Int32($0) }
    }

    /// The check-in columns both check-in files start with: the answers the box asks for.
    static let checkinAnswers = ["session_date", "sleep_quality", "feel_rested", "grogginess", "mental_clarity", "mood"]

    /// Columns of the seeds' check-in file that the box does not collect: written empty.
    static let checkinColumnsNotCollected = ["has_physical_symptoms", "has_respiratory_symptoms", "has_sleep_environment",
                                             "sleep_aids_used", "room_darkness", "noise_level", "screen_minutes_bucket"]

    public var columns: [String] {
        switch self {
        // SSOT 2.4.3 "Export System" names the file ("Complete dose and sleep event history")
        // but gives no header: the columns the schema seed's dose_events and sleep_events
        // share, then each one's own (metadata for doses, color_hex and notes for sleep events).
        case .events:
            ["id", "event_type", "timestamp", "session_date", "metadata", "color_hex", "notes"]
        // Schema seed v6, "Export Format", exactly.
        case .sessions:
            ["session_date", "dose1_time", "dose2_time", "snooze_count", "dose2_skipped", "terminal_state"]
        case .sleepEvents:
            ["id", "event_type", "timestamp", "session_date", "notes"]
        case .morningCheckins:
            Self.checkinAnswers + Self.checkinColumnsNotCollected
        // SSOT 2.4.3 GET /analytics/export, exactly.
        case .analytics:
            ["Date", "Dose1Time", "Dose2Time", "Interval", "OnTime", "NaturalWake"]
        // SSOT 2.4.2's medication_events columns, exactly ("CSV export includes all new columns").
        // SSOT 2.4.3 names inventory.csv ("medication tracking snapshots") without a header:
        // schema v6's event columns, then the count's change and the count after it.
        case .inventory:
            ["id", "event_type", "timestamp", "session_date", "doses", "remaining_after", "notes"]
        case .medicationEvents:
            ["id", "session_id", "session_date", "medication_id", "dose_value", "dose_unit", "formulation", "taken_at_utc",
             "local_offset_minutes", "notes", "confirmed_duplicate", "created_at"]
        // The seed's session columns, then session_id (two sessions can share a date).
        case .boxSessions:
            ExportFile.sessions.columns + ["session_id"]
        case .boxDoseEvents:
            ["id", "event_type", "timestamp", "session_date", "session_id", "is_early", "is_late", "is_extra_dose",
             "snooze_number", "reason", "source", "restored_from"]
        case .boxSleepEvents:
            ExportFile.sleepEvents.columns + ["source"]
        case .boxMorningCheckins:
            Self.checkinAnswers + ["notes", "timestamp", "session_id"] + NarcolepsyFlag.allCases.map(\.rawValue)
        case .preSleepLogs:
            ["id", "session_date", "completed_at", "caffeine_cups", "caffeine_cutoff", "alcohol_drinks", "exercise_type",
             "exercise_duration", "stress_level", "notes", "created_at"]
        case .boxDrinks:
            ["id", "session_date", "timestamp", "drink_type_id", "standard_drink_units", "is_alcoholic", "session_id", "source"]
        case .boxPacingEvents:
            ["id", "session_date", "timestamp", "code", "message", "severity", "session_id"]
        }
    }
}

extension NightLog {
    /// Writes every export file into `directory` (created if needed), from one consistent
    /// snapshot of the log. `from`/`to` are inclusive session dates (YYYY-MM-DD), nil for open.
    /// With `overwrite` false, an export file already in `directory` stops the export before
    /// anything is written (`exportFailed` naming that file, detail "already exists").
    /// Returns the files written, in `ExportFile.allCases` order.
    ///
    /// `checkingBeside`: for a log opened with `openReadOnly(quickCheck: false)`, its
    /// `PRAGMA quick_check` runs on a connection and thread of its own while the files are
    /// made (on a ten-year log it takes a quarter of the time, which a second core hides);
    /// nothing is written unless it passes.
    @discardableResult
    public func export(to directory: URL, from: String? = nil, to: String? = nil, overwrite: Bool = true,
                       zone: TimeZone = ExportFile.utc, checkingBeside: Bool = false) throws(NightLogError) -> [URL] {
        if !overwrite, let existing = Self.existingExportFiles(in: directory).first {
            throw .exportFailed(path: existing.path, detail: "already exists")
        }
        // Each source's files are written while the next source's are made (ExportWriter).
        let writer = ExportWriter(directory: directory)
        if checkingBeside {
            let damage = CheckOutcome(), checked = DispatchGroup()
            DispatchQueue.global().async(group: checked) { [path] in
                do throws(NightLogError) { try Self.quickCheck(path: path) } catch { damage.error = error }
            }
            writer.allow(after: checked) { damage.error }
        }
        do {
            try csvFiles(from: from, to: to, zone: zone, each: writer.add)
        } catch {
            try writer.finish(dropping: error)
        }
        try writer.finish()
        return try writer.commit()
    }

    /// The export files (any of their names) already present in `directory`, in
    /// `ExportFile.allCases` order.
    public static func existingExportFiles(in directory: URL) -> [URL] {
        ExportFile.allCases.map { directory.appendingPathComponent($0.fileName) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// A file-system error in plain words ("permission denied", "not a directory"), never
    /// Foundation's `Error Domain=…` text. `path` is where the trouble is looked for when the
    /// error itself does not say.
    public static func plainFileReason(_ error: any Error, path: String) -> String {
        // Foundation on Linux often drops the errno (or reports EEXIST for a file in the
        // way): ask the file system what is wrong with the directory first.
        if let problem = directoryProblem(path) { return problem }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return posixText(Int32(ns.code)) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posixText(Int32(underlying.code))
        }
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or directory"
        case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on device"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        case .fileWriteFileExists: return "already exists"
        default: return "cannot be written"
        }
    }

    /// Why `path` cannot take export files, or nil when it looks fine (or does not exist
    /// yet but its nearest existing parent is a writable directory).
    public static func directoryProblem(_ path: String) -> String? {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        while !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return "no such file or directory" }
            url = parent
        }
        if !isDirectory.boolValue { return url.path == URL(fileURLWithPath: path).standardizedFileURL.path ? "not a directory" : "\(url.path) is not a directory" }
        if access(url.path, W_OK | X_OK) != 0 { return posixText(errno) }
        return nil
    }

    private static func posixText(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// One file's CSV text, without touching the disk. `withoutNotes` leaves the notes column
    /// of events.csv and inventory.csv empty: what a person typed stays out of a support bundle.
    public func csv(_ file: ExportFile, from: String? = nil, to: String? = nil, zone: TimeZone = ExportFile.utc,
                    withoutNotes: Bool = false) throws(NightLogError) -> String {
        let range = try ExportRange(from: from, to: to)
        return try guarded {
            try db.read { db in String(decoding: try Self.render([file], range: range, zone: zone, withoutNotes: withoutNotes, db: db)[0], as: UTF8.self) }
        }
    }

    /// The migrations this log has run, in order (for a support bundle's metadata).
    public func appliedMigrations() throws(NightLogError) -> [String] {
        try guarded { try db.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") } }
    }

    /// Every file's CSV text from one read transaction (so they agree with each other).
    public func csvTexts(from: String? = nil, to: String? = nil, zone: TimeZone = ExportFile.utc) throws(NightLogError) -> [ExportFile: String] {
        try csvFiles(from: from, to: to, zone: zone).mapValues { String(decoding: $0, as: UTF8.self) }
    }

    /// Every file's bytes from one read transaction; the files of one source from one query.
    func csvFiles(from: String? = nil, to: String? = nil, zone: TimeZone = ExportFile.utc) throws(NightLogError) -> [ExportFile: [UInt8]] {
        var bytes: [ExportFile: [UInt8]] = [:]
        try csvFiles(from: from, to: to, zone: zone) { bytes[$0] = $1 }
        return bytes
    }

    /// The same, each source's files given to `each` as soon as its query is done.
    func csvFiles(from: String?, to: String?, zone: TimeZone, each: (ExportFile, [UInt8]) -> Void) throws(NightLogError) {
        let range = try ExportRange(from: from, to: to)
        try guarded {
            try db.read { db in
                for source in ExportFile.Source.allCases {
                    let files = ExportFile.allCases.filter { $0.source == source }
                    for (file, text) in zip(files, try Self.render(files, range: range, zone: zone, db: db)) { each(file, text) }
                }
            }
        }
    }

    /// A stored UTC timestamp as the patient's time of day: "2024-01-16T03:30:00.000Z" ->
    /// "22:30:00" in America/New_York (the offset at that instant, so DST is right on both
    /// sides of a change). boxd's own form (`Date.iso8601`'s) is read from `epoch`, its whole
    /// seconds as SQLite's strftime('%s') gave them, which is cheaper than a parse; any other
    /// text as Foundation's ISO 8601 reads it, and written as stored if it does not read.
    static func clockTime(epoch: Int64?, stored: String?, in zone: TimeZone) -> String? {
        guard let stored else { return nil }
        if let epoch, isBoxdTimestamp(stored) {
            return LocalTime.hhmmss(Date(timeIntervalSince1970: TimeInterval(epoch)), in: zone)
        }
        guard let date = Date(iso8601: stored) else { return stored }
        return LocalTime.hhmmss(date, in: zone)
    }

    /// The shape boxd writes, "2024-01-16T03:30:00.000Z": digits, with `-`, `T`, `:`, `.` and
    /// `Z` in their places. SQLite reads more than that (no Z, a space, a Julian day number),
    /// and differently from Foundation; only this shape do both read the same.
    static func isBoxdTimestamp(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            utf8.count == boxdShape.count && zip(utf8, boxdShape).allSatisfy { byte, expected in
                expected == UInt8(ascii: "0") ? (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) : byte == expected
            }
        }
    }

    private static let boxdShape = Array("0000-00-00T00:00:00.000Z".utf8)
}

/// The side check's error, read only after its DispatchGroup is waited for.
private final class CheckOutcome: @unchecked Sendable {
    var error: NightLogError?
}
