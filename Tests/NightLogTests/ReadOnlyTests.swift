import DoseCore
import Foundation
import Testing
@testable import NightLog

/// boxctl reads with `openReadOnly` while boxd writes, or while boxd is down.
@Suite struct ReadOnlyTests {
    @Test func readerSeesCommittedEventsWhileTheWriterIsOpen() throws {
        try withTempDir { dir throws in
            let writer = try NightLog.open(stateDirectory: dir)
            try writer.append([Fixture.open(), Fixture.dose("d1", .dose1, at: 30)])

            let reader = try NightLog.openReadOnly(stateDirectory: dir)
            #expect(reader.isReadOnly)
            #expect(try ids(#require(try reader.latestSession()).records) == ["open:S1", "dose:d1"])

            // Each later commit is visible to the same reader on its next read.
            try writer.append([Fixture.dose("d2", .dose2, at: 195)])
            #expect(try ids(#require(try reader.latestSession()).records) == ["open:S1", "dose:d1", "dose:d2"])
            #expect(try reader.recentNights(limit: 1).first?.intervalMinutes == 165)

            // And the reader does not get in the writer's way.
            try writer.append([Fixture.close(at: 600)])
            #expect(try reader.latestSession()?.isClosed == true)
            #expect(try reader.csv(.sessions) == (try writer.csv(.sessions)))
        }
    }

    @Test func readerWorksWhileTheWriterIsDown() throws {
        try withTempDir { dir throws in
            do {
                let writer = try NightLog.open(stateDirectory: dir)
                try writer.append(Fixture.night("S1", date: "2024-01-15", startDay: 0))
            } // boxd stopped cleanly
            // boxd keeps its -wal (empty) and -shm, so a reader that cannot create files
            // (boxctl as an ordinary user) can open the WAL database; the reader adds nothing.
            let fm = FileManager.default
            let before = try fm.contentsOfDirectory(atPath: dir.path).sorted()
            #expect(before == ["nightlog.sqlite", "nightlog.sqlite-shm", "nightlog.sqlite-wal", "nightlog.witness"])
            let walSize = (try fm.attributesOfItem(atPath: dir.appendingPathComponent("nightlog.sqlite-wal").path)[.size] as? NSNumber)?.intValue
            #expect(walSize == 0)
            let mainBytes = try Data(contentsOf: dir.appendingPathComponent(NightLog.fileName))

            let reader = try NightLog.openReadOnly(stateDirectory: dir)
            #expect(try reader.latestSession()?.isClosed == true)
            #expect(try reader.recentNights(limit: 30).count == 1)
            #expect(try fm.contentsOfDirectory(atPath: dir.path).sorted() == before)
            #expect(try Data(contentsOf: dir.appendingPathComponent(NightLog.fileName)) == mainBytes)
        }
    }

    @Test func readOnlyOpenCreatesNothing() throws {
        try withTempDir { dir throws in
            let error = expectNightLogError { _ = try NightLog.openReadOnly(stateDirectory: dir) }
            #expect(error == .notFound(path: dir.appendingPathComponent(NightLog.fileName).path))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)

            let missing = dir.appendingPathComponent("no-such-dir")
            _ = expectNightLogError { _ = try NightLog.openReadOnly(stateDirectory: missing) }
            #expect(!FileManager.default.fileExists(atPath: missing.path))
        }
    }
}
