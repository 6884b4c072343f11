import BoxWords
import DoseCore
import Foundation
import GRDB

// The log and its witness (see `Witness`): what the witness is made of, how the log is
// judged against it at open, and how the doses it names are carried into a new log.
extension NightLog {
    /// What the open found of the witness, for the daemon's faults (nil: nothing to say).
    public enum WitnessFault: Sendable, Equatable, CustomStringConvertible {
        /// The log was behind its witness: moved aside (`movedTo`), salvaged into a new log,
        /// and the doses the witness knew carried into it (`restored`, how people read them).
        case lostRecords(movedTo: URL, reason: String, restored: [String])
        /// The witness was missing or damaged while the log was fine: rebuilt from the log.
        case witnessRebuilt(String)

        public var description: String {
            switch self {
            case .lostRecords(let url, let reason, let restored):
                "the night log lost records (\(reason)); it was kept as \(url.path), a new log was started from it, and "
                    + (restored.isEmpty ? "no dose needed restoring" : "the witness restored: " + restored.joined(separator: "; "))
            case .witnessRebuilt(let why): "the log's witness \(why); it was rebuilt from the log"
            }
        }
    }

    var directory: URL { fileURL.deletingLastPathComponent() }

    /// The witness the log makes of itself now.
    static func witness(_ db: Database, path: String) throws -> Witness {
        var doses: [Witness.Dose] = []
        for row in try Row.fetchAll(db, sql: "SELECT * FROM dose_events WHERE undone_at IS NULL ORDER BY seq DESC LIMIT ?",
                                    arguments: [Witness.dosesKept]) {
            let r = StoredRow(row, "dose_events", path: path)
            doses.append(Witness.Dose(id: try r.text("id"), seq: try r.int64("seq"), sessionID: try r.text("session_id"),
                                      sessionDate: try r.text("session_date"), type: try r.text("event_type"),
                                      at: Witness.Stamp(try r.moment("timestamp", boot: "boot_id", mono: "mono_ns")),
                                      metadata: try r.text("metadata"), source: try r.text("source")))
        }
        var sessions: [Witness.Session] = []
        for id in Set(doses.map(\.sessionID)).sorted() {
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sleep_sessions WHERE session_id = ?", arguments: [id]) else { continue }
            let r = StoredRow(row, "sleep_sessions", path: path)
            sessions.append(Witness.Session(id: id, date: try r.text("session_date"),
                                            start: Witness.Stamp(try r.moment("start_utc", boot: "start_boot_id", mono: "start_mono_ns")),
                                            targetMinutes: row["target_minutes"]))
        }
        return Witness(highSeq: try nextSeq(db) - 1, sessions: sessions, doses: doses.reversed())
    }

    /// After every commit, before `append` returns (so before anything is acknowledged): the
    /// witness, so its high-water is the log's. The records are on the disk already: a
    /// failure here is returned as a warning.
    func afterCommit() -> String? {
        do { try writeWitness() } catch { return "the witness could not be written: \(error)" }
        return nil
    }

    /// The WAL copied into the main file, so the main file alone holds every dose (a -wal lost
    /// after a power cut takes none with it). boxd runs it after a commit that takes, undoes or
    /// skips a dose or ends a night (`LogRecord.securesDoses`), once the acknowledgement is
    /// under way: the witness, written before it, already covers the moment in between.
    /// Returns a warning when it could not finish (a reader held an older snapshot: the next
    /// one catches up), nil when it did.
    public func checkpoint() -> String? {
        do {
            let done = try guarded { try db.writeWithoutTransaction { db in try db.checkpoint(.full) } }
            guard done.walFrameCount == done.checkpointedFrameCount else {
                return "the checkpoint after the dose was partial (\(done.checkpointedFrameCount) of \(done.walFrameCount) frames)"
            }
            return nil
        } catch {
            return "the checkpoint after the dose failed: \(error)"
        }
    }

    /// Writes the witness from the log now, and notes in the log that it has one.
    public func writeWitness() throws(NightLogError) {
        let path = self.path
        let (witness, marked) = try guarded {
            try db.read { db in (try Self.witness(db, path: path), try Bool.fetchOne(db, sql: "SELECT 1 FROM log_witness") ?? false) }
        }
        try witness.write(in: directory)
        // Once, after the first witness is on the disk (a write transaction of its own).
        if !marked {
            try guarded {
                try db.write { db in
                    try db.execute(sql: "INSERT OR IGNORE INTO log_witness (id, created_at) VALUES (1, ?)", arguments: [Date().iso8601])
                }
            }
        }
    }

    /// Why the log is behind `witness` (a lower seq, a dose it names missing), or nil.
    static func gap(_ db: Database, from witness: Witness) throws -> String? {
        let high = try nextSeq(db) - 1
        let missing = try witness.doses.filter {
            try !(Bool.fetchOne(db, sql: "SELECT 1 FROM dose_events WHERE id = ?", arguments: [$0.id]) ?? false)
        }
        var reasons: [String] = []
        if high < witness.highSeq { reasons.append("its last seq is \(high), its witness names \(witness.highSeq)") }
        if !missing.isEmpty { reasons.append("\(missing.count) dose event(s) the witness names are missing") }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    /// The doses of `witness` that the new log lacks, with their sessions, inserted after
    /// the feed's high-water of the lost log (so a follower of the feed sees them as new),
    /// marked `restored_from: witness`. Returns how people read them.
    static func restore(_ witness: Witness, into db: Database, path: String) throws -> [String] {
        try db.execute(sql: "INSERT INTO seq_floor (id, value) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET value = max(value, excluded.value)",
                       arguments: [witness.highSeq])
        var restored: [String] = []
        var seq = try nextSeq(db)
        for dose in witness.doses {
            guard try !(Bool.fetchOne(db, sql: "SELECT 1 FROM dose_events WHERE id = ?", arguments: [dose.id]) ?? false),
                  let type = DoseEventType(rawValue: dose.type), let at = dose.at.moment, let source = Source(dose.source) else { continue }
            let known = try Bool.fetchOne(db, sql: "SELECT 1 FROM sleep_sessions WHERE session_id = ?", arguments: [dose.sessionID]) ?? false
            if !known, let s = witness.sessions.first(where: { $0.id == dose.sessionID }), let start = s.start.moment {
                let session = SessionRecord(id: s.id, date: s.date, start: start,
                                            targetMinutes: s.targetMinutes ?? DoseConstants.box.window.defaultTargetMin)
                try insert(.sessionOpened(session), seq: seq, db: db, path: path)
                seq += 1
            }
            var metadata = (try? JSONDecoder().decode(DoseMetadata.self, from: Data(dose.metadata.utf8))) ?? DoseMetadata()
            metadata.restoredFrom = "witness"
            let record = DoseRecord(id: dose.id, sessionID: dose.sessionID, sessionDate: dose.sessionDate, type: type, at: at,
                                    metadata: metadata, source: source)
            try insert(.dose(record), seq: seq, db: db, path: path)
            seq += 1
            restored.append("\(Written.label(type)) at \(dose.at.wall) (night of \(dose.sessionDate))")
        }
        return restored
    }
}
