import DoseCore
import Foundation
import Testing
@testable import NightLog

/// Faults of the files next to the log (-wal, -shm) and of the log file itself, while the
/// log is open: each is a thrown `NightLogError.sidecar`, never a crash (an unwritable -shm
/// used to be a SIGBUS inside libsqlite3), and the log goes on once the files are sane.
@Suite struct SidecarTests {
    static func file(_ dir: URL, _ suffix: String = "") -> String {
        dir.appendingPathComponent(NightLog.fileName).path + suffix
    }

    /// chattr, if it exists and can set +i on a file in the temporary directory (root, and a
    /// file system with the immutable attribute, such as ext4; not tmpfs or overlayfs).
    static let chattrWorks: Bool = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("NightLogTests-chattr-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: dir) }
        let probe = dir.appendingPathComponent("probe").path
        guard FileManager.default.createFile(atPath: probe, contents: Data([1])) else { return false }
        guard chattr("+i", probe) else { return false }
        let immutable = !FileManager.default.isWritableFile(atPath: probe)
        return chattr("-i", probe) && immutable
    }()

    @discardableResult
    static func chattr(_ flag: String, _ path: String) -> Bool {
        guard let tool = ["/usr/bin/chattr", "/bin/chattr", "/sbin/chattr", "/usr/sbin/chattr"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [flag, path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Expects `.sidecar` naming the file with `suffix`, with `words` in its detail.
    static func expectSidecar(_ error: NightLogError?, _ suffix: String, _ words: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .sidecar(let path, let detail)? = error else {
            Issue.record("expected .sidecar, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(path.hasSuffix(NightLog.fileName + suffix), "path \(path)", sourceLocation: sourceLocation)
        #expect(detail.contains(words), "detail \(detail)", sourceLocation: sourceLocation)
    }

    static let later = Fixture.sleepEvent("later", .water, at: 60)

    /// A log with one night in it and the WAL not checkpointed.
    static func openWithANight(_ dir: URL) throws -> NightLog {
        let log = try NightLog.open(stateDirectory: dir)
        try log.append([Fixture.open(), Fixture.dose("d1", .dose1, at: 30)])
        try log.append([Fixture.dose("d2", .dose2, at: 195)])
        return log
    }

    /// What a fresh open of the directory finds (after every handle above was released).
    static func idsAfterReopening(_ dir: URL) throws -> [String] {
        ids(try NightLog.open(stateDirectory: dir).latestSession()?.records ?? [])
    }

    // MARK: - Unwritable

    @Test(.enabled(if: chattrWorks, "chattr +i does not work here (needs root and a file system with the immutable flag)"))
    func immutableShmIsAnErrorNotASIGBUSAndTheLogGoesOnOnceWritable() throws {
        try withTempDir { dir throws in
            let shm = Self.file(dir, "-shm")
            defer { Self.chattr("-i", shm) }
            let log = try Self.openWithANight(dir)
            #expect(Self.chattr("+i", shm))

            // Before the guard, this append was a SIGBUS inside libsqlite3.
            Self.expectSidecar(expectNightLogError { try log.append([Self.later]) }, "-shm", "immutable")
            Self.expectSidecar(expectNightLogError { _ = try log.latestSession() }, "-shm", "immutable")
            Self.expectSidecar(expectNightLogError { try log.reopen() }, "-shm", "immutable")
            // A new open refuses the file too, before SQLite maps it.
            Self.expectSidecar(expectNightLogError { _ = try NightLog.open(stateDirectory: dir) }, "-shm", "immutable")

            #expect(Self.chattr("-i", shm))
            try log.append([Self.later])
            #expect(ids(try log.latestSession()?.records ?? []) == ["open:S1", "dose:d1", "dose:d2", "sleep:later"])
        }
    }

    /// Releasing the log while -shm is immutable must not crash either (closing a pool
    /// checkpoints, which writes -shm).
    @Test(.enabled(if: chattrWorks, "chattr +i does not work here (needs root and a file system with the immutable flag)"))
    func logReleasedWhileShmIsImmutableDoesNotCrash() throws {
        try withTempDir { dir throws in
            let shm = Self.file(dir, "-shm")
            defer { Self.chattr("-i", shm) }
            do {
                let log = try Self.openWithANight(dir)
                #expect(Self.chattr("+i", shm))
                Self.expectSidecar(expectNightLogError { try log.append([Self.later]) }, "-shm", "immutable")
            }
            do {
                // Never even checked: released straight away.
                let log = try NightLog.open(stateDirectory: dir.appendingPathComponent("other"))
                try log.append([Fixture.open()])
                #expect(Self.chattr("+i", Self.file(dir.appendingPathComponent("other"), "-shm")))
            }
            Self.chattr("-i", Self.file(dir.appendingPathComponent("other"), "-shm"))
            #expect(Self.chattr("-i", shm))
            #expect(try Self.idsAfterReopening(dir) == ["open:S1", "dose:d1", "dose:d2"])
        }
    }

    @Test(.enabled(if: chattrWorks, "chattr +i does not work here (needs root and a file system with the immutable flag)"))
    func immutableWalIsASidecarError() throws {
        try withTempDir { dir throws in
            let wal = Self.file(dir, "-wal")
            defer { Self.chattr("-i", wal) }
            let log = try Self.openWithANight(dir)
            #expect(Self.chattr("+i", wal))
            Self.expectSidecar(expectNightLogError { try log.append([Self.later]) }, "-wal", "immutable")
            #expect(Self.chattr("-i", wal))
            try log.append([Self.later])
            #expect(try log.latestSession()?.records.count == 4)
        }
    }

    // MARK: - Vanished

    @Test func vanishedShmIsAnErrorAndTheNextAppendReopens() throws {
        try withTempDir { dir throws in
            do {
                let log = try Self.openWithANight(dir)
                try FileManager.default.removeItem(atPath: Self.file(dir, "-shm"))
                Self.expectSidecar(expectNightLogError { try log.append([Self.later]) }, "-shm", "vanished")
                try log.append([Self.later])
                #expect(FileManager.default.fileExists(atPath: Self.file(dir, "-shm")))
                #expect(ids(try log.latestSession()?.records ?? []) == ["open:S1", "dose:d1", "dose:d2", "sleep:later"])
            }
            #expect(try Self.idsAfterReopening(dir) == ["open:S1", "dose:d1", "dose:d2", "sleep:later"])
        }
    }

    /// The WAL holds the night (never checkpointed); deleting it must not lose it: the old
    /// pool still has it open and checkpoints it into the main file before letting it go.
    @Test func vanishedWalLosesNoCommittedWrite() throws {
        try withTempDir { dir throws in
            do {
                let log = try Self.openWithANight(dir)
                let walSize = (try FileManager.default.attributesOfItem(atPath: Self.file(dir, "-wal"))[.size] as? NSNumber)?.intValue ?? 0
                #expect(walSize > 0)
                try FileManager.default.removeItem(atPath: Self.file(dir, "-wal"))
                Self.expectSidecar(expectNightLogError { try log.append([Self.later]) }, "-wal", "vanished")
                try log.append([Self.later])
            }
            #expect(try Self.idsAfterReopening(dir) == ["open:S1", "dose:d1", "dose:d2", "sleep:later"])
        }
    }

    @Test func vanishedLogFileIsRescuedFromTheOpenPool() throws {
        try withTempDir { dir throws in
            do {
                let log = try Self.openWithANight(dir)
                try FileManager.default.removeItem(atPath: Self.file(dir))
                Self.expectSidecar(expectNightLogError { _ = try log.latestSession() }, "", "vanished")
                try log.reopen()
                try log.append([Self.later])
            }
            #expect(try Self.idsAfterReopening(dir) == ["open:S1", "dose:d1", "dose:d2", "sleep:later"])
        }
    }

    // MARK: - Replaced

    @Test func replacedShmIsAnErrorAndTheForeignFileIsKeptAside() throws {
        try withTempDir { dir throws in
            let foreign = Data(repeating: 0xA5, count: 32768)
            do {
                let log = try Self.openWithANight(dir)
                try FileManager.default.removeItem(atPath: Self.file(dir, "-shm"))
                try foreign.write(to: URL(fileURLWithPath: Self.file(dir, "-shm")))
                Self.expectSidecar(expectNightLogError { try log.append([Self.later]) }, "-shm", "replaced")
                try log.append([Self.later])
            }
            let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("nightlog.sqlite-shm.replaced-") }
            #expect(aside.count == 1)
            if let name = aside.first {
                #expect(try Data(contentsOf: dir.appendingPathComponent(name)) == foreign)
            }
            #expect(try Self.idsAfterReopening(dir) == ["open:S1", "dose:d1", "dose:d2", "sleep:later"])
        }
    }

    /// A WAL put in place of the log's (say, another box's) must never be replayed into it.
    @Test func replacedWalIsNeverReplayedAndNothingIsLost() throws {
        try withTempDir { dir throws in
            // A real WAL with another night in it, from another log.
            let other = dir.appendingPathComponent("other")
            let otherLog = try NightLog.open(stateDirectory: other)
            try otherLog.append(Fixture.night("X", date: "2024-01-20", startDay: 5))
            let foreign = try Data(contentsOf: URL(fileURLWithPath: Self.file(other, "-wal")))
            withExtendedLifetime(otherLog) {}

            do {
                let log = try Self.openWithANight(dir)
                try FileManager.default.removeItem(atPath: Self.file(dir, "-wal"))
                try foreign.write(to: URL(fileURLWithPath: Self.file(dir, "-wal")))
                Self.expectSidecar(expectNightLogError { try log.append([Self.later]) }, "-wal", "replaced")
                try log.append([Self.later])
                #expect(try log.latestSession()?.sessionID == "S1")
            }
            #expect(try Self.idsAfterReopening(dir) == ["open:S1", "dose:d1", "dose:d2", "sleep:later"])
            #expect(try NightLog.open(stateDirectory: dir).records(sessionID: "X") == nil)
            let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("nightlog.sqlite-wal.replaced-") }
            #expect(aside.count == 1)
        }
    }

    @Test func truncatedShmIsAnError() throws {
        try withTempDir { dir throws in
            let log = try Self.openWithANight(dir)
            // Cut under SQLite's map: the next access through it would be a SIGBUS.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: Self.file(dir, "-shm")))
            try handle.truncate(atOffset: 0)
            try handle.close()
            Self.expectSidecar(expectNightLogError { try log.append([Self.later]) }, "-shm", "truncated")
            try log.append([Self.later])
            #expect(try log.latestSession()?.records.count == 4)
        }
    }

    @Test func reopenWithSaneFilesChangesNothing() throws {
        try withTempDir { dir throws in
            let log = try Self.openWithANight(dir)
            try log.reopen()
            try log.append([Self.later])
            #expect(try log.latestSession()?.records.count == 4)
        }
    }
}
