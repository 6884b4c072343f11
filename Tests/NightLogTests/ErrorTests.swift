import DoseCore
import Foundation
import Testing
@testable import NightLog

/// Bad input and a hostile file system become typed errors; an append is all or nothing.
@Suite struct ErrorTests {
    @Test func duplicateIDIsATypedConstraintErrorAndTheWholeAppendIsRolledBack() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Fixture.open(), Fixture.dose("d1", .dose1, at: 30)])

            let error = expectNightLogError {
                try log.append([
                    Fixture.sleepEvent("e1", .bathroom, at: 40),
                    Fixture.dose("sn", .snooze, at: 190),
                    Fixture.dose("d1", .dose1, at: 45), // duplicate id
                ])
            }
            guard case .constraint(let path, let detail)? = error else {
                Issue.record("expected .constraint, got \(String(describing: error))")
                return
            }
            #expect(path == log.fileURL.path)
            #expect(detail.contains("UNIQUE"))
            #expect(error?.description.hasPrefix("the night log refused a record: \(log.fileURL.path)") == true)

            // Nothing of the failed append is there, and the log still works.
            #expect(try ids(#require(try log.latestSession()).records) == ["open:S1", "dose:d1"])
            try log.append([Fixture.sleepEvent("e1", .bathroom, at: 40)])
            #expect(try log.latestSession()?.records.count == 3)
        }
    }

    @Test func ruleViolationsAreConstraintErrors() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Fixture.open()])
            // Check-in out of range (CHECK), event for a session that was never opened (FOREIGN KEY).
            let outOfRange = expectNightLogError {
                try log.append([Fixture.checkIn("c1", at: 500, answers: CheckInAnswers(sleepQuality: 7))])
            }
            let orphan = expectNightLogError { try log.append([Fixture.dose("x", .dose1, at: 1, session: "nope")]) }
            let twoCheckIns = expectNightLogError {
                try log.append([Fixture.checkIn("c1", at: 500), Fixture.checkIn("c2", at: 501)])
            }
            for error in [outOfRange, orphan, twoCheckIns] {
                guard case .constraint? = error else {
                    Issue.record("expected .constraint, got \(String(describing: error))")
                    continue
                }
            }
            #expect(try log.latestSession()?.records.count == 1)
        }
    }

    @Test func undoOfAnUnknownEventAndClosingTwiceAreInvalidRecords() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Fixture.open(), Fixture.dose("d1", .dose1, at: 30), Fixture.close(at: 600)])
            let unknown = expectNightLogError { try log.append([Fixture.undo("nope", at: 31)]) }
            let twice = expectNightLogError { try log.append([Fixture.sleepEvent("e", .water, at: 601), Fixture.close(at: 602)]) }
            guard case .invalidRecord(_, let d1)? = unknown, case .invalidRecord(_, let d2)? = twice else {
                Issue.record("expected .invalidRecord, got \(String(describing: unknown)) / \(String(describing: twice))")
                return
            }
            #expect(d1 == "no dose event nope to undo")
            #expect(d2 == "session S1 is already closed")
            #expect(try log.latestSession()?.records.count == 3) // the sleep event was rolled back too
        }
    }

    /// Simulated read-only file system: a handle opened with SQLITE_OPEN_READONLY
    /// (`openReadOnly`, GRDB `Configuration.readonly`), then a write. SQLite answers
    /// SQLITE_READONLY exactly as it does on a read-only mount. (chmod is no test here:
    /// the tests run as root, and root ignores file modes.)
    @Test func writingThroughAReadOnlyHandleIsATypedReadOnlyError() throws {
        try withTempDir { dir throws in
            do { _ = try NightLog.open(stateDirectory: dir) }
            let reader = try NightLog.openReadOnly(stateDirectory: dir)
            let error = expectNightLogError { try reader.append([Fixture.open()]) }
            guard case .readOnly? = error else {
                Issue.record("expected .readOnly, got \(String(describing: error))")
                return
            }
            let path = dir.appendingPathComponent(NightLog.fileName).path
            #expect(error?.description.hasPrefix("the night log is read-only: \(path) (") == true)
        }
    }

    /// Simulated unwritable state directory: its path runs through a regular file, so
    /// neither the directory nor the database can be created (ENOTDIR, as root too).
    @Test func stateDirectoryThatCannotBeCreatedIsATypedError() throws {
        try withTempDir { dir throws in
            let file = dir.appendingPathComponent("a-file")
            try Data("not a directory".utf8).write(to: file)
            let state = file.appendingPathComponent("boxd")
            let error = expectNightLogError { _ = try NightLog.open(stateDirectory: state) }
            guard case .cannotOpen(let path, _)? = error else {
                Issue.record("expected .cannotOpen, got \(String(describing: error))")
                return
            }
            #expect(path == state.appendingPathComponent(NightLog.fileName).path)
            #expect(error?.description.hasPrefix("the night log cannot be opened: \(path)") == true)
        }
    }

    /// Errors from SQLite itself on open are typed, and are not mistaken for damage: nothing
    /// is moved aside. Simulated: the file name is a dangling symlink (SQLITE_CANTOPEN), and
    /// the file name is taken by a directory (reading it fails: SQLITE_IOERR).
    @Test func unopenableFileIsATypedErrorAndIsNotMovedAside() throws {
        try withTempDir { dir throws in
            let file = dir.appendingPathComponent(NightLog.fileName)
            try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: dir.appendingPathComponent("gone/nightlog.sqlite").path)
            let dangling = expectNightLogError { _ = try NightLog.open(stateDirectory: dir) }
            guard case .cannotOpen(let path, _)? = dangling else {
                Issue.record("expected .cannotOpen, got \(String(describing: dangling))")
                return
            }
            #expect(path == file.path)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [NightLog.fileName])

            try FileManager.default.removeItem(at: file)
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            let directory = expectNightLogError { _ = try NightLog.open(stateDirectory: dir) }
            guard case .io? = directory else {
                Issue.record("expected .io, got \(String(describing: directory))")
                return
            }
            #expect(directory?.description.hasPrefix("the night log storage failed: \(file.path)") == true)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [NightLog.fileName])
        }
    }

    /// Simulated full disk: the writer connection's max_page_count is pinned to the current
    /// size, so the next page SQLite needs fails with SQLITE_FULL like a full file system.
    @Test func fullDiskIsATypedErrorAndNothingIsHalfWritten() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Fixture.open()])
            let pages = try #require(try log.writerScalar("PRAGMA page_count"))
            _ = try log.writerScalar("PRAGMA max_page_count = \(pages)")
            let big = String(repeating: "x", count: 50_000)
            let error = expectNightLogError {
                try log.append([Fixture.sleepEvent("e1", .water, at: 5), Fixture.sleepEvent("e2", .pain, at: 6, notes: big)])
            }
            guard case .diskFull? = error else {
                Issue.record("expected .diskFull, got \(String(describing: error))")
                return
            }
            #expect(error?.description.hasPrefix("the disk is full, the night log cannot grow: ") == true)
            #expect(try log.latestSession()?.records.count == 1)
        }
    }

    /// A row this build cannot read back (edited by hand, or written by a newer build) is a
    /// typed error naming the row, not a crash.
    @Test func oddStoredValuesAreUnreadableErrors() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Fixture.open(), Fixture.sleepEvent("e1", .water, at: 1)])
            _ = try log.writerScalar("UPDATE sleep_events SET event_type = 'juggling' WHERE id = 'e1'")
            let unknownType = expectNightLogError { _ = try log.latestSession() }
            #expect(unknownType == .unreadable(path: log.fileURL.path, detail: "sleep_events e1: event_type = 'juggling'"))

            _ = try log.writerScalar("UPDATE sleep_events SET event_type = 'water', seq = 'abc' WHERE id = 'e1'")
            guard case .unreadable(_, let detail)? = expectNightLogError({ _ = try log.latestSession() }) else {
                Issue.record("expected .unreadable")
                return
            }
            #expect(detail.hasPrefix("sleep_events e1: seq = "))
            // The export, which copies text, still works.
            #expect(try log.csv(.sleepEvents).contains("e1,water,"))
        }
    }

    @Test func badExportDatesAreRejected() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            let error = expectNightLogError { _ = try log.csv(.sessions, from: "2024-1-5", to: nil) }
            #expect(error == .invalidArgument("dates look like 2026-11-21, not '2024-1-5'"))
        }
    }
}
