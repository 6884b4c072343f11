import DoseCore
import Foundation
import Testing
@testable import NightLog

@Suite struct RecoveryTests {
    /// 2024-01-16T03:15:00Z
    static let now = Date(timeIntervalSince1970: 1_705_374_900)

    static func garbage(_ count: Int, seed: UInt8) -> Data {
        var x = seed
        return Data((0..<count).map { _ in x = x &* 31 &+ 7; return x })
    }

    @Test func garbageFileIsMovedAsideByteIdenticalAndANewLogStarts() throws {
        try withTempDir { dir throws in
            let file = dir.appendingPathComponent(NightLog.fileName)
            let bytes = Self.garbage(10_000, seed: 3)
            let walBytes = Self.garbage(777, seed: 9)
            try bytes.write(to: file)
            try walBytes.write(to: URL(fileURLWithPath: file.path + "-wal"))

            let log = try NightLog.open(stateDirectory: dir, now: Self.now)

            let aside = dir.appendingPathComponent("nightlog.sqlite.corrupt-20240116T031500Z")
            #expect(log.recoveredFrom == aside)
            guard case .recoveredFromCorruption(let movedTo, let reason)? = log.fault else {
                Issue.record("no fault reported")
                return
            }
            #expect(movedTo == aside)
            #expect(!reason.isEmpty)
            #expect(log.fault?.description.contains(aside.path) == true)
            #expect(try Data(contentsOf: aside) == bytes)
            #expect(try Data(contentsOf: URL(fileURLWithPath: aside.path + "-wal")) == walBytes)

            // The new log is empty and works.
            #expect(try log.latestSession() == nil)
            try log.append([Fixture.open(), Fixture.dose("d1", .dose1, at: 30)])
            #expect(try log.latestSession()?.records.count == 2)
        }
    }

    @Test func databaseFailingQuickCheckIsMovedAside() throws {
        try withTempDir { dir throws in
            do {
                let log = try NightLog.open(stateDirectory: dir)
                for n in 0..<40 {
                    try log.append(Fixture.night("S\(n)", date: "2024-02-\(10 + n % 18)", startDay: Double(n),
                                                 notes: String(repeating: "note \(n) ", count: 40)))
                }
            } // closing checkpoints the WAL into the main file
            let original = try NightLog.openReadOnly(stateDirectory: dir)
            let originalRows = try SalvageReport.tableNames.map { try original.dumpRows($0) }
            let file = dir.appendingPathComponent(NightLog.fileName)
            var bytes = try Data(contentsOf: file)
            let pageSize = 4096
            #expect(bytes.count > 8 * pageSize)
            // Scribble over the middle of every page after the schema page; the header stays
            // valid, so SQLite opens the file and quick_check (or the first read) finds the damage.
            var page = 2
            while (page + 1) * pageSize <= bytes.count {
                let start = page * pageSize + 100
                bytes.replaceSubrange(start..<(start + 200), with: Self.garbage(200, seed: UInt8(page % 251)))
                page += 1
            }
            try bytes.write(to: file)
            // The salvage alone: without its witness the log cannot put back the doses it lost
            // (rows of their own, made anew; TonightOutlivesItsFilesTests has those).
            try FileManager.default.removeItem(at: dir.appendingPathComponent(Witness.fileName))

            let log = try NightLog.open(stateDirectory: dir, now: Self.now)
            let aside = try #require(log.recoveredFrom)
            #expect(aside.lastPathComponent == "nightlog.sqlite.corrupt-20240116T031500Z")
            #expect(try Data(contentsOf: aside) == bytes)
            // Whatever could still be read was carried over, and only rows exactly as written.
            let report = try #require(log.salvage)
            #expect(!report.doseRecordCertain)
            for (table, rows) in zip(SalvageReport.tableNames, originalRows) {
                for row in try log.dumpRows(table) {
                    #expect(rows.contains(row), "\(table): \(row) is not an original row")
                }
            }
        }
    }

    @Test func secondRecoveryInTheSameSecondKeepsBothFiles() throws {
        try withTempDir { dir throws in
            let file = dir.appendingPathComponent(NightLog.fileName)
            try Self.garbage(5000, seed: 1).write(to: file)
            let first = try NightLog.open(stateDirectory: dir, now: Self.now).recoveredFrom
            try FileManager.default.removeItem(at: file) // drop the fresh log (and write garbage again)
            try? FileManager.default.removeItem(atPath: file.path + "-wal")
            try? FileManager.default.removeItem(atPath: file.path + "-shm")
            try Self.garbage(5000, seed: 2).write(to: file)
            let second = try NightLog.open(stateDirectory: dir, now: Self.now).recoveredFrom
            #expect(first?.lastPathComponent == "nightlog.sqlite.corrupt-20240116T031500Z")
            #expect(second?.lastPathComponent == "nightlog.sqlite.corrupt-20240116T031500Z-2")
            #expect(try Data(contentsOf: try #require(first)) == Self.garbage(5000, seed: 1))
            #expect(try Data(contentsOf: try #require(second)) == Self.garbage(5000, seed: 2))
        }
    }

    @Test func readOnlyOpenOfAGarbageFileReportsCorruptAndMovesNothing() throws {
        try withTempDir { dir throws in
            let file = dir.appendingPathComponent(NightLog.fileName)
            let bytes = Self.garbage(6000, seed: 5)
            try bytes.write(to: file)
            let error = expectNightLogError { _ = try NightLog.openReadOnly(stateDirectory: dir) }
            guard case .corrupt? = error else {
                Issue.record("expected .corrupt, got \(String(describing: error))")
                return
            }
            #expect(try Data(contentsOf: file) == bytes)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("corrupt") }.isEmpty)
        }
    }
}
