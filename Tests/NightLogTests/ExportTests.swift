import DoseCore
import Foundation
import Testing
@testable import NightLog

@Suite struct ExportTests {
    static let tricky = "woke up, \"thirsty\"\nthen slept"

    /// Three nights on three dates, one with notes that need quoting.
    static func filled(_ dir: URL) throws -> NightLog {
        let log = try NightLog.open(stateDirectory: dir)
        try log.append(Fixture.night("A", date: "2024-01-15", startDay: 0, notes: tricky))
        try log.append(Fixture.night("B", date: "2024-01-16", startDay: 1))
        try log.append(Fixture.night("C", date: "2024-01-17", startDay: 2))
        return log
    }

    @Test func twoExportsAreByteIdentical() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let first = try log.export(to: dir.appendingPathComponent("one"))
            let second = try log.export(to: dir.appendingPathComponent("two"))
            #expect(first.map(\.lastPathComponent) == ["sessions.csv", "dose_events.csv", "sleep_events.csv", "morning_checkins.csv", "analytics.csv"])
            let texts = try log.csvTexts()
            for (a, b) in zip(first, second) {
                let bytes = try Data(contentsOf: a)
                #expect(bytes == (try Data(contentsOf: b)), "\(a.lastPathComponent) differs between two exports")
                let file = try #require(ExportFile(rawValue: a.deletingPathExtension().lastPathComponent))
                #expect(bytes == Data((texts[file] ?? "").utf8))
                #expect(try log.csv(file) == texts[file])
            }
            // Reopening (another connection, another process some day) changes nothing.
            let reader = try NightLog.openReadOnly(stateDirectory: dir)
            #expect(try reader.csvTexts() == texts)
        }
    }

    @Test func headersAreTheDocumentedColumns() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir) // headers even when empty
            let expected: [ExportFile: String] = [
                .sessions: "session_date,dose1_time,dose2_time,snooze_count,dose2_skipped,terminal_state,session_id",
                .doseEvents: "id,event_type,timestamp,session_date,session_id,is_early,is_late,is_extra_dose,snooze_number,reason,source",
                .sleepEvents: "id,event_type,timestamp,session_date,notes,source",
                .morningCheckins: "session_date,sleep_quality,feel_rested,grogginess,mental_clarity,mood,notes,timestamp,session_id",
                .analytics: "Date,Dose1Time,Dose2Time,Interval,OnTime,NaturalWake",
            ]
            for file in ExportFile.allCases {
                #expect(try log.csv(file) == expected[file].map { $0 + "\r\n" })
                #expect(file.columns.joined(separator: ",") == expected[file])
            }
        }
    }

    @Test func rowsHaveTheDocumentedContent() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let sessions = try log.csv(.sessions, from: "2024-01-16", to: "2024-01-16")
            #expect(sessions == """
                session_date,dose1_time,dose2_time,snooze_count,dose2_skipped,terminal_state,session_id\r
                2024-01-16,2024-01-16T22:30:00.000Z,2024-01-17T01:15:00.000Z,1,false,completed,B\r

                """)
            let doses = try log.csv(.doseEvents, from: "2024-01-16", to: "2024-01-16")
            #expect(doses == """
                id,event_type,timestamp,session_date,session_id,is_early,is_late,is_extra_dose,snooze_number,reason,source\r
                B-d1,dose1,2024-01-16T22:30:00.000Z,2024-01-16,B,,,,,,button:main\r
                B-sn,snooze,2024-01-17T01:10:00.000Z,2024-01-16,B,,,,1,,button:main\r
                B-d2,dose2,2024-01-17T01:15:00.000Z,2024-01-16,B,,,,,,button:main\r

                """)
            let checkIns = try log.csv(.morningCheckins, from: "2024-01-16", to: "2024-01-16")
            #expect(checkIns == """
                session_date,sleep_quality,feel_rested,grogginess,mental_clarity,mood,notes,timestamp,session_id\r
                2024-01-16,4,moderate,mild,5,neutral,,2024-01-17T06:40:00.000Z,B\r

                """)
        }
    }

    @Test func notesAreQuotedPerRFC4180() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let quoted = "\"woke up, \"\"thirsty\"\"\nthen slept\""
            let sleep = try log.csv(.sleepEvents, from: "2024-01-15", to: "2024-01-15")
            #expect(sleep.contains("A-lights,lights_out,2024-01-15T22:10:00.000Z,2024-01-15,\(quoted),button:main\r\n"))
            let checkIns = try log.csv(.morningCheckins, from: "2024-01-15", to: "2024-01-15")
            #expect(checkIns.contains(",\(quoted),2024-01-16T06:40:00.000Z,A\r\n"))

            #expect(csvField("plain") == "plain")
            #expect(csvField("") == "")
            #expect(csvField("a,b") == "\"a,b\"")
            #expect(csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
            #expect(csvField("line\r\nbreak") == "\"line\r\nbreak\"")
        }
    }

    @Test func dateRangeIsInclusiveOnSessionDate() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            func dates(_ from: String?, _ to: String?) throws -> [String] {
                try log.csv(.sessions, from: from, to: to).split(separator: "\r\n").dropFirst().map { String($0.prefix(10)) }
            }
            #expect(try dates(nil, nil) == ["2024-01-15", "2024-01-16", "2024-01-17"])
            #expect(try dates("2024-01-16", nil) == ["2024-01-16", "2024-01-17"])
            #expect(try dates(nil, "2024-01-16") == ["2024-01-15", "2024-01-16"])
            #expect(try dates("2024-01-16", "2024-01-16") == ["2024-01-16"])
            #expect(try dates("2024-02-01", "2024-03-01") == [])
            // Events follow their session's date, even those logged after midnight.
            let sleep = try log.csv(.sleepEvents, from: "2024-01-17", to: "2024-01-17")
            #expect(sleep.split(separator: "\r\n").dropFirst().map { String($0.prefix(6)) } == ["C-ligh", "C-wake"])
            let analytics = try log.csv(.analytics, from: "2024-01-15", to: "2024-01-16")
            #expect(analytics.split(separator: "\r\n").count == 3)
        }
    }

    /// SSOT 2.4.3: `2024-01-15,22:30:00,01:15:00,165,true,false`.
    @Test func analyticsFollowsTheSeedFormat() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            // Night 1: the seed's example row.
            try log.append(Fixture.night("A", date: "2024-01-15", startDay: 0))
            // Night 2: woke by themselves 100 min after dose1 (before the window opened at 150),
            // dose2 at 180 min: 15 min off target, not on time. The extra dose never counts as dose2.
            let m = 1440.0
            try log.append([
                Fixture.open("B", date: "2024-01-16", at: m),
                Fixture.dose("B-d1", .dose1, at: m + 45, session: "B", date: "2024-01-16"),
                Fixture.sleepEvent("B-w", .wakeTemp, at: m + 145, session: "B", date: "2024-01-16"),
                Fixture.dose("B-d2", .dose2, at: m + 225, session: "B", date: "2024-01-16"),
                Fixture.dose("B-x", .extraDose, at: m + 300, session: "B", date: "2024-01-16", metadata: DoseMetadata(isExtraDose: true)),
            ])
            // Night 3: dose2 skipped; a wake_final after the window opened is not a natural wake.
            try log.append([
                Fixture.open("C", date: "2024-01-17", at: 2 * m),
                Fixture.dose("C-d1", .dose1, at: 2 * m + 30, session: "C", date: "2024-01-17"),
                Fixture.sleepEvent("C-w", .wakeFinal, at: 2 * m + 30 + 150, session: "C", date: "2024-01-17"),
                Fixture.dose("C-sk", .dose2Skipped, at: 2 * m + 200, session: "C", date: "2024-01-17", metadata: DoseMetadata(reason: "drowsy")),
                Fixture.close("C", at: 2 * m + 600, state: .skipped, reason: .missedCheckInCutoff),
            ])
            // Night 4: no dose1 at all: not an analytics row.
            try log.append([Fixture.open("D", date: "2024-01-18", at: 3 * m), Fixture.sleepEvent("D-e", .water, at: 3 * m + 5, session: "D", date: "2024-01-18")])

            #expect(try log.csv(.analytics) == """
                Date,Dose1Time,Dose2Time,Interval,OnTime,NaturalWake\r
                2024-01-15,22:30:00,01:15:00,165,true,false\r
                2024-01-16,22:45:00,01:45:00,180,false,true\r
                2024-01-17,22:30:00,,,false,false\r

                """)
            let sessions = try log.csv(.sessions)
            #expect(sessions.contains("2024-01-17,2024-01-17T22:30:00.000Z,,0,true,skipped,C\r\n"))
            #expect(sessions.contains("2024-01-18,,,0,false,,D\r\n"))
            let doses = try log.csv(.doseEvents)
            #expect(doses.contains("B-x,extra_dose,2024-01-17T03:00:00.000Z,2024-01-16,B,,,true,,,button:main\r\n"))
            #expect(doses.contains("C-sk,dose2_skipped,2024-01-18T01:20:00.000Z,2024-01-17,C,,,,,drowsy,button:main\r\n"))
        }
    }

    /// Across a reboot the monotonic clocks do not compare; the interval falls back to the wall clock.
    @Test func intervalAcrossARebootUsesTheWallClock() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            let afterReboot = Moment(wall: Fixture.at(30 + 170).wall, boot: "boot-b", monoNanos: 42_000_000_000)
            try log.append([Fixture.open(), Fixture.dose("d1", .dose1, at: 30),
                            Fixture.dose("d2", .dose2, at: 0, moment: afterReboot)])
            #expect(try log.recentNights(limit: 1).first?.intervalMinutes == 170)
            #expect(try log.csv(.analytics).hasSuffix(",170,true,false\r\n"))
        }
    }
}
