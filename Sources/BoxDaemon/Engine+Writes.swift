import DoseCore
import Foundation
import Logging
import NightLog

// The night log's one write path: what waits in `unsaved` and then the records, in one
// transaction, with the witness; a log whose sidecar files vanished is reopened once.
extension Engine {
    enum WriteResult {
        case nothing, written
        case failed(String)
    }

    /// Writes `unsaved` and then `records` in one transaction.
    func write(_ records: [LogRecord]) -> WriteResult {
        let all = unsaved + records
        guard !all.isEmpty else { return .nothing }
        do {
            guard let log else { throw NightLogError.readOnly(path: stateDirectory.path, detail: "the night log could not be opened") }
            let started = clock.edgeNow()
            if let warning = try Self.append(all, to: log) { logger.warning("\(warning)") }
            logger.debug("committed \(all.count) record(s) in \(Self.ms(clock.edgeNow() - started)) (the log and its witness)")
            if all.contains(where: \.securesDoses) { checkpointDue = true }
            if all.contains(where: \.changesSupply) { supplyStale = true }
            unsaved = []
            feedSignal.notify()
            if logFaultDetail != nil {
                logFaultDetail = nil
                logger.notice("night log writable again")
            }
            return .written
        } catch {
            // Reported once per distinct failure, not once per attempt.
            if logFaultDetail != "\(error)" { logger.error("night log write failed, nothing recorded: \(error)") }
            logFaultDetail = "\(error)"
            return .failed("\(error)")
        }
    }

    /// A -wal, -shm or log file that vanished or was replaced under boxd refuses the write
    /// before SQLite touches it; the log is then reopened (every commit kept, see `LogStore`)
    /// and the write tried once more, so the dose is recorded rather than refused (#29). A file
    /// that is still unwritable throws again: the write failed, and `log_unwritable` shows.
    static func append(_ records: [LogRecord], to log: NightLog) throws(NightLogError) -> String? {
        do {
            return try log.append(records)
        } catch .sidecar {
            try log.reopen()
            return try log.append(records)
        }
    }
}
