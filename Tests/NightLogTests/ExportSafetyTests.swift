import DoseCore
import Foundation
import Testing
@testable import NightLog

/// The export's defences: formula cells neutralised in free text only, real calendar dates,
/// a range that runs forwards, and no silent overwrite.
@Suite struct ExportSafetyTests {
    /// Each night's notes start with something a spreadsheet would run.
    static let formulas = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "\tTAB", "\r=1"]

    static func filled(_ dir: URL) throws -> NightLog {
        let log = try NightLog.open(stateDirectory: dir)
        for (i, note) in formulas.enumerated() {
            try log.append(Fixture.night("N\(i)", date: "2024-02-\(String(format: "%02d", i + 1))", startDay: Double(i), notes: note))
        }
        try log.append(Fixture.night("P", date: "2024-02-20", startDay: 19, notes: "slept well, 8h - fine"))
        return log
    }

    /// The notes column of every data row of `text`, decoded from RFC 4180.
    static func notes(_ text: String, column: Int) -> [String] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars = chars.dropFirst() } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { row.append(field); field = "" }
            else if c == "\r\n" || c == "\n" { row.append(field); rows.append(row); row = []; field = "" }
            else { field.append(c) }
        }
        return rows.dropFirst().map { $0[column] }
    }

    @Test func formulaNotesAreNeutralisedWithAQuote() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let expected = Self.formulas.map { "'" + $0 } + ["slept well, 8h - fine"]
            let sleep = try log.csv(.sleepEvents)
            let sleepNotes = Self.notes(sleep, column: 4).filter { !$0.isEmpty }
            #expect(sleepNotes == expected)
            let checkIns = try log.csv(.boxMorningCheckins)
            #expect(Self.notes(checkIns, column: 6) == expected)
            #expect(Self.notes(try log.csv(.events), column: 6).filter { !$0.isEmpty } == expected)
            // A note with a CR still gets RFC 4180 quotes, with the quote mark inside them.
            #expect(sleep.contains(",\"'\r=1\"\r\n"))
        }
    }

    @Test func numbersTimestampsAndIDsAreUnchanged() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            // Nothing but the notes changes: every other column is as plain as before.
            let sleep = try log.csv(.boxSleepEvents, from: "2024-02-02", to: "2024-02-02")
            #expect(sleep.contains("N1-lights,lights_out,2024-01-16T22:10:00.000Z,2024-02-02,'+1+1,button:main\r\n"))
            #expect(sleep.contains("N1-wake,wake_final,2024-01-17T06:20:00.000Z,2024-02-02,,button:main\r\n"))
            let checkIn = try log.csv(.boxMorningCheckins, from: "2024-02-02", to: "2024-02-02")
            #expect(checkIn.hasSuffix("2024-02-02,4,moderate,mild,5,neutral,'+1+1,2024-01-17T06:40:00.000Z,N1,0,0,0,0,0\r\n"))
            for file in [ExportFile.sessions, .boxSessions, .boxDoseEvents, .analytics] {
                #expect(!(try log.csv(file)).contains("'"), "\(file.fileName) has no free text to neutralise")
            }
            // Still deterministic.
            #expect(try log.csvTexts() == (try log.csvTexts()))
        }
    }

    @Test(arguments: [
        ("2026-13-01", "there is no month 13"),
        ("2026-02-30", "February 2026 has 28 days"),
        ("2026-00-10", "there is no month 0"),
        ("2026-04-31", "April 2026 has 30 days"),
        ("0000-01-01", "there is no year 0"),
        ("2026-1-01", "dates look like 2026-11-21"),
    ])
    func impossibleDatesAreRefused(date: String, reason: String) throws {
        #expect(ExportRange.problem(with: date)?.contains(reason) == true, "\(ExportRange.problem(with: date) ?? "accepted")")
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            let error = expectNightLogError { _ = try log.csv(.sessions, from: date) }
            guard case .invalidArgument(let detail)? = error else { Issue.record("got \(String(describing: error))"); return }
            #expect(detail.contains(reason))
        }
    }

    @Test func realDatesPass() {
        for date in ["2024-02-29", "2026-02-28", "2026-12-31", "2000-02-29"] {
            #expect(ExportRange.problem(with: date) == nil, "\(date)")
        }
        #expect(ExportRange.problem(with: "1900-02-29") != nil) // not a leap year
    }

    @Test func aRangeThatEndsBeforeItStartsIsRefused() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            let error = expectNightLogError { _ = try log.csvTexts(from: "2026-11-30", to: "2026-11-01") }
            guard case .invalidArgument(let detail)? = error else { Issue.record("got \(String(describing: error))"); return }
            #expect(detail.contains("2026-11-30") && detail.contains("2026-11-01"))
            _ = try log.csvTexts(from: "2026-11-01", to: "2026-11-01") // one day is fine
        }
    }

    @Test func existingFilesAreKeptWithoutOverwrite() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let out = dir.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let mine = out.appendingPathComponent("sleep_events.csv")
            try Data("my own notes".utf8).write(to: mine)
            #expect(NightLog.existingExportFiles(in: out) == [mine])
            let error = expectNightLogError { try log.export(to: out, overwrite: false) }
            guard case .exportFailed(let path, let detail)? = error else { Issue.record("got \(String(describing: error))"); return }
            #expect(path == mine.path)
            #expect(detail == "already exists")
            #expect(try String(contentsOf: mine, encoding: .utf8) == "my own notes")
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("sessions.csv").path), "nothing written")
            try log.export(to: out, overwrite: true)
            #expect(try String(contentsOf: mine, encoding: .utf8) == (try log.csv(.sleepEvents)))
        }
    }

    /// #34: the files are written under temporary names while the next ones are made, and
    /// renamed into place at the end: what the directory then holds is the export's files and
    /// what was there before, nothing half-made.
    @Test func anExportLeavesItsFilesAndNothingElse() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let out = dir.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: out.appendingPathComponent("README.txt"))
            let urls = try log.export(to: out)
            #expect(urls.map(\.lastPathComponent) == ExportFile.allCases.map(\.fileName))
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
                    == Set(ExportFile.allCases.map(\.fileName) + ["README.txt"]))
            for file in ExportFile.allCases {
                #expect(try String(contentsOf: out.appendingPathComponent(file.fileName), encoding: .utf8) == (try log.csv(file)))
            }
        }
    }

    @Test func unwritableDirectoriesGetPlainReasons() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let file = dir.appendingPathComponent("a-file")
            try Data("x".utf8).write(to: file)
            #expect(NightLog.directoryProblem(file.path) == "not a directory")
            #expect(NightLog.directoryProblem(file.appendingPathComponent("sub").path) == "\(file.path) is not a directory")
            #expect(NightLog.directoryProblem(dir.appendingPathComponent("new/deeper").path) == nil)
            for target in [file, file.appendingPathComponent("sub")] {
                let error = expectNightLogError { try log.export(to: target) }
                guard case .exportFailed(_, let detail)? = error else { Issue.record("got \(String(describing: error))"); continue }
                #expect(!detail.contains("Error Domain"), "\(detail)")
                #expect(!detail.contains("NSCocoaErrorDomain"), "\(detail)")
                #expect(detail.contains("not a directory") || detail.contains("exists"), "\(detail)")
            }
        }
    }

    /// #34: boxctl's export runs the log's quick_check beside it rather than before it. A
    /// log damaged where the export never reads (an index no export query uses) still
    /// stops it: nothing is written, and the error says the log is corrupt.
    @Test func anExportBesideItsCheckWritesNothingFromADamagedLog() throws {
        try withTempDir { dir throws in
            let page: Int
            do {
                let log = try Self.filled(dir)
                page = try #require(try log.readScalar("SELECT rootpage FROM sqlite_master WHERE name = 'idx_dose_events_undone_seq'").flatMap { Int($0) })
            } // closed: checkpointed into the main file
            let file = dir.appendingPathComponent(NightLog.fileName)
            var bytes = try Data(contentsOf: file)
            bytes.replaceSubrange((page - 1) * 4096 ..< page * 4096, with: Data(count: 4096))
            try bytes.write(to: file)

            let log = try NightLog.openReadOnly(stateDirectory: dir, quickCheck: false)
            // The export's own reads do not meet the damage: without the check it goes through.
            try log.export(to: dir.appendingPathComponent("unchecked"))
            let out = dir.appendingPathComponent("checked")
            let error = expectNightLogError { try log.export(to: out, checkingBeside: true) }
            guard case .corrupt(_, let detail)? = error else {
                Issue.record("expected .corrupt, got \(String(describing: error))")
                return
            }
            #expect(detail.hasPrefix("quick_check: "), "\(detail)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
            // And the check before opening, as every other reader has it, says the same.
            guard case .corrupt? = expectNightLogError({ _ = try NightLog.openReadOnly(stateDirectory: dir) }) else {
                Issue.record("openReadOnly took the damaged log")
                return
            }
        }
    }
}
