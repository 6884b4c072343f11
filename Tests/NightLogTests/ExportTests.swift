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
        try log.append(Fixture.night("B", date: "2024-01-16", startDay: 1, flags: [.hallucinations, .confusionOnWaking]))
        try log.append(Fixture.night("C", date: "2024-01-17", startDay: 2))
        return log
    }

    @Test func twoExportsAreByteIdentical() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let first = try log.export(to: dir.appendingPathComponent("one"))
            let second = try log.export(to: dir.appendingPathComponent("two"))
            #expect(first.map(\.lastPathComponent) == ["events.csv", "sessions.csv", "sleep_events.csv", "morning_checkins.csv", "analytics.csv", "medication_events.csv", "inventory.csv",
                                                        "pre_sleep_logs.csv", "box-sessions.csv", "box-dose-events.csv", "box-sleep-events.csv",
                                                        "box-morning-checkins.csv", "box-drinks.csv", "box-pacing-events.csv"])
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

    /// The schema seed (v6), "Export Format", as printed there: the check-in header is wrapped
    /// over three lines. And SSOT 2.4.3, GET /analytics/export.
    static let seedText = """
        ### sessions.csv
        ```
        session_date,dose1_time,dose2_time,snooze_count,dose2_skipped,terminal_state
        ```

        ### sleep_events.csv
        ```
        id,event_type,timestamp,session_date,notes
        ```

        ### morning_checkins.csv
        ```
        session_date,sleep_quality,feel_rested,grogginess,mental_clarity,mood,
        has_physical_symptoms,has_respiratory_symptoms,has_sleep_environment,
        sleep_aids_used,room_darkness,noise_level,screen_minutes_bucket
        ```

        ### analytics.csv
        ```csv
        Date,Dose1Time,Dose2Time,Interval,OnTime,NaturalWake
        2024-01-15,22:30:00,01:15:00,165,true,false
        ```
        """

    /// The header of each file in `seedText`: the first line of its block, or the whole block
    /// when its lines end in a comma (a header wrapped for print).
    static func seedHeaders() -> [String: String] {
        var headers: [String: String] = [:]
        var name: String?
        var block: [String]?
        for line in seedText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("### ") { name = String(line.dropFirst(4)); continue }
            if line.hasPrefix("```") {
                if let lines = block, let name {
                    var header = lines[0]
                    var i = 1
                    while header.hasSuffix(","), i < lines.count { header += lines[i]; i += 1 }
                    headers[name] = header
                    block = nil
                } else { block = [] }
                continue
            }
            block?.append(line)
        }
        return headers
    }

    @Test func theSeedsFilesHaveTheSeedsHeadersExactly() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir) // headers even when empty
            let seed = Self.seedHeaders()
            #expect(seed.count == 4)
            for (name, header) in seed {
                let file = try #require(ExportFile.allCases.first { $0.fileName == name }, "the box writes no \(name)")
                #expect(try log.csv(file) == header + "\r\n")
            }
            // SSOT 2.4.3 names events.csv without a header: the columns the schema seed's
            // dose_events and sleep_events share, then each one's own.
            #expect(try log.csv(.events) == "id,event_type,timestamp,session_date,metadata,color_hex,notes\r\n")
        }
    }

    @Test func theBoxsOwnFilesCannotBeTakenForTheSeeds() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            let expected: [ExportFile: String] = [
                .boxSessions: "session_date,dose1_time,dose2_time,snooze_count,dose2_skipped,terminal_state,session_id",
                .boxDoseEvents: "id,event_type,timestamp,session_date,session_id,is_early,is_late,is_extra_dose,snooze_number,reason,source,restored_from",
                .boxSleepEvents: "id,event_type,timestamp,session_date,notes,source",
                .boxMorningCheckins: "session_date,sleep_quality,feel_rested,grogginess,mental_clarity,mood,notes,timestamp,session_id,"
                    + "had_sleep_paralysis,had_hallucinations,had_automatic_behavior,fell_out_of_bed,had_confusion_on_waking",
                .boxDrinks: "id,session_date,timestamp,drink_type_id,standard_drink_units,is_alcoholic,session_id,source",
                .boxPacingEvents: "id,session_date,timestamp,code,message,severity,session_id",
            ]
            for (file, header) in expected {
                #expect(file.fileName.hasPrefix("box-"))
                #expect(try log.csv(file) == header + "\r\n")
            }
            #expect(ExportFile.allCases.filter { !$0.fileName.hasPrefix("box-") }.map(\.fileName)
                    == ["events.csv", "sessions.csv", "sleep_events.csv", "morning_checkins.csv", "analytics.csv", "medication_events.csv", "inventory.csv",
                        "pre_sleep_logs.csv"])
        }
    }

    @Test func theSeedsFilesHoldTheBoxsRecords() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            #expect(try log.csv(.sessions, from: "2024-01-16", to: "2024-01-16") == """
                session_date,dose1_time,dose2_time,snooze_count,dose2_skipped,terminal_state\r
                2024-01-16,2024-01-16T22:30:00.000Z,2024-01-17T01:15:00.000Z,1,false,completed\r

                """)
            // Doses and sleep events in one timeline; an undone dose never appears.
            let events = try log.csv(.events, from: "2024-01-16", to: "2024-01-16").split(separator: "\r\n").map(String.init)
            #expect(events.count == 1 + 5)
            #expect(events.contains("B-d1,dose1,2024-01-16T22:30:00.000Z,2024-01-16,{},,"))
            #expect(events.contains { $0.hasPrefix("B-sn,snooze,2024-01-17T01:10:00.000Z,2024-01-16,") && $0.contains("snooze_number") })
            #expect(events.contains { $0.hasPrefix("B-lights,lights_out,") && $0.hasSuffix(",,,") })
            // Check-ins: what the box asks, then the seed's columns the box does not collect, empty.
            #expect(try log.csv(.morningCheckins, from: "2024-01-16", to: "2024-01-16").hasSuffix("\r\n2024-01-16,4,moderate,mild,5,neutral,,,,,,,\r\n"))
            #expect(try log.csv(.sleepEvents, from: "2024-01-17", to: "2024-01-17").contains("C-wake,wake_final,"))
        }
    }

    @Test func rowsHaveTheDocumentedContent() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let sessions = try log.csv(.boxSessions, from: "2024-01-16", to: "2024-01-16")
            #expect(sessions == """
                session_date,dose1_time,dose2_time,snooze_count,dose2_skipped,terminal_state,session_id\r
                2024-01-16,2024-01-16T22:30:00.000Z,2024-01-17T01:15:00.000Z,1,false,completed,B\r

                """)
            let doses = try log.csv(.boxDoseEvents, from: "2024-01-16", to: "2024-01-16")
            #expect(doses == """
                id,event_type,timestamp,session_date,session_id,is_early,is_late,is_extra_dose,snooze_number,reason,source,restored_from\r
                B-d1,dose1,2024-01-16T22:30:00.000Z,2024-01-16,B,,,,,,button:main,\r
                B-sn,snooze,2024-01-17T01:10:00.000Z,2024-01-16,B,,,,1,,button:main,\r
                B-d2,dose2,2024-01-17T01:15:00.000Z,2024-01-16,B,,,,,,button:main,\r

                """)
            let checkIns = try log.csv(.boxMorningCheckins, from: "2024-01-16", to: "2024-01-16")
            #expect(checkIns == """
                session_date,sleep_quality,feel_rested,grogginess,mental_clarity,mood,notes,timestamp,session_id,\
                had_sleep_paralysis,had_hallucinations,had_automatic_behavior,fell_out_of_bed,had_confusion_on_waking\r
                2024-01-16,4,moderate,mild,5,neutral,,2024-01-17T06:40:00.000Z,B,0,1,0,0,1\r

                """)
        }
    }

    @Test func notesAreQuotedPerRFC4180() throws {
        try withTempDir { dir throws in
            let log = try Self.filled(dir)
            let quoted = "\"woke up, \"\"thirsty\"\"\nthen slept\""
            let sleep = try log.csv(.boxSleepEvents, from: "2024-01-15", to: "2024-01-15")
            #expect(sleep.contains("A-lights,lights_out,2024-01-15T22:10:00.000Z,2024-01-15,\(quoted),button:main\r\n"))
            let checkIns = try log.csv(.boxMorningCheckins, from: "2024-01-15", to: "2024-01-15")
            #expect(checkIns.contains(",\(quoted),2024-01-16T06:40:00.000Z,A,0,0,0,0,0\r\n"))

            #expect(csvField("plain") == "plain")
            #expect(csvField("") == "")
            #expect(csvField("a,b") == "\"a,b\"")
            #expect(csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
            #expect(csvField("line\r\nbreak") == "\"line\r\nbreak\"")
            // A quote with a combining mark on it is doubled, as the event files double it byte by byte.
            #expect(csvField("a\"\u{301}b") == "\"a\"\"\u{301}b\"")
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
            let sessions = try log.csv(.boxSessions)
            #expect(sessions.contains("2024-01-17,2024-01-17T22:30:00.000Z,,0,true,skipped,C\r\n"))
            #expect(sessions.contains("2024-01-18,,,0,false,,D\r\n"))
            let doses = try log.csv(.boxDoseEvents)
            #expect(doses.contains("B-x,extra_dose,2024-01-17T03:00:00.000Z,2024-01-16,B,,,true,,,button:main,\r\n"))
            #expect(doses.contains("C-sk,dose2_skipped,2024-01-18T01:20:00.000Z,2024-01-17,C,,,,,drowsy,button:main,\r\n"))
        }
    }

    /// analytics.csv's times of day are the patient's, in the zone's offset at each instant:
    /// the seed's example row from a New York night, then a night across each DST change of
    /// 2024 (the interval is elapsed time, not the clock's difference).
    @Test func analyticsTimesOfDayAreThePatientsAcrossDST() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            let newYork = try #require(TimeZone(identifier: "America/New_York"))
            // Minutes from Fixture.t0 (2024-01-15T22:00Z).
            // A: Dose 1 2024-01-16T03:30Z = 22:30 EST, Dose 2 165 min later = 01:15 EST.
            try log.append([Fixture.open("A", date: "2024-01-15", at: 300),
                            Fixture.dose("A-d1", .dose1, at: 330, session: "A", date: "2024-01-15"),
                            Fixture.dose("A-d2", .dose2, at: 330 + 165, session: "A", date: "2024-01-15")])
            // B, spring forward (2024-03-10 02:00 EST -> 03:00 EDT = 07:00Z): Dose 1 04:30Z =
            // 23:30 EST; Dose 2 180 min later, 07:30Z = 03:30 EDT (the clock says 4 h).
            try log.append([Fixture.open("B", date: "2024-03-09", at: 78_120),
                            Fixture.dose("B-d1", .dose1, at: 78_150, session: "B", date: "2024-03-09"),
                            Fixture.dose("B-d2", .dose2, at: 78_150 + 180, session: "B", date: "2024-03-09")])
            // C, fall back (2024-11-03 02:00 EDT -> 01:00 EST = 06:00Z): Dose 1 03:30Z =
            // 23:30 EDT; Dose 2 165 min later, 06:15Z = 01:15 EST (the clock says 1 h 45).
            try log.append([Fixture.open("C", date: "2024-11-02", at: 420_780),
                            Fixture.dose("C-d1", .dose1, at: 420_810, session: "C", date: "2024-11-02"),
                            Fixture.dose("C-d2", .dose2, at: 420_810 + 165, session: "C", date: "2024-11-02")])
            let header = "Date,Dose1Time,Dose2Time,Interval,OnTime,NaturalWake\r\n"
            #expect(try log.csv(.analytics, zone: newYork) == header
                    + "2024-01-15,22:30:00,01:15:00,165,true,false\r\n"
                    + "2024-03-09,23:30:00,03:30:00,180,false,false\r\n"
                    + "2024-11-02,23:30:00,01:15:00,165,true,false\r\n")
            // Without the patient's zone (tests, benchmarks): UTC.
            #expect(try log.csv(.analytics).contains("2024-01-15,03:30:00,06:15:00,165,true,false\r\n"))
            // Only analytics.csv moves with the zone; the other files keep UTC timestamps.
            let local = try log.csvTexts(zone: newYork), utc = try log.csvTexts()
            #expect(ExportFile.allCases.filter { local[$0] != utc[$0] } == [.analytics])
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

    /// #34: the four files of events come from one merged read of doses and sleep events.
    /// They keep the timestamp order when the writing order differs (a sleep event entered
    /// late, for earlier), and at one timestamp the order of writing; each file has its rows
    /// only, an undone dose none.
    @Test func theTimelineIsInTimeOrderAndTiesGoByWriting() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Fixture.open(at: 0), Fixture.sleepEvent("lights", .lightsOut, at: 10)])
            try log.append([Fixture.dose("d1", .dose1, at: 30)])
            try log.append([Fixture.sleepEvent("bath", .bathroom, at: 30, notes: "same minute as Dose 1")])
            try log.append([Fixture.sleepEvent("early", .wakeTemp, at: 20)]) // written last, happened before d1
            try log.append([Fixture.dose("snz", .snooze, at: 40)])
            try log.append([Fixture.undo("snz", at: 41)])
            let texts = try log.csvTexts()
            func ids(_ file: ExportFile) -> [String] {
                texts[file]!.split(separator: "\r\n").dropFirst().map { String($0.prefix { $0 != "," }) }
            }
            #expect(ids(.events) == ["lights", "early", "d1", "bath"])
            #expect(ids(.sleepEvents) == ["lights", "early", "bath"])
            #expect(ids(.boxSleepEvents) == ["lights", "early", "bath"])
            #expect(ids(.boxDoseEvents) == ["d1"])
            #expect(texts[.boxSleepEvents]!.contains("bath,bathroom,2024-01-15T22:30:00.000Z,2024-01-15,same minute as Dose 1,button:main\r\n"))
        }
    }

    /// #34: analytics.csv reads boxd's own timestamps from SQLite's seconds, anything else as
    /// before (Foundation's ISO 8601, or the stored text): SQLite reads more, and differently.
    @Test func aTimestampNotInBoxdsShapeIsReadAsBefore() {
        let utc = ExportFile.utc
        #expect(NightLog.clockTime(epoch: 1_705_357_800, stored: "2024-01-15T22:30:00.000Z", in: utc) == "22:30:00")
        // SQLite would give 22:30:00 for the first two and rounds the third up to 22:31:00.
        #expect(NightLog.clockTime(epoch: 1_705_357_800, stored: "2024-01-15T22:30:00.000", in: utc) == "2024-01-15T22:30:00.000")
        #expect(NightLog.clockTime(epoch: 1_705_276_800, stored: "2024-01-15", in: utc) == "2024-01-15")
        #expect(NightLog.clockTime(epoch: 1_705_357_860, stored: "2024-01-15T22:30:59.9999Z", in: utc) == "22:30:59")
        #expect(NightLog.clockTime(epoch: nil, stored: "not a time", in: utc) == "not a time")
        #expect(NightLog.clockTime(epoch: nil, stored: nil, in: utc) == nil)
        #expect(!NightLog.isBoxdTimestamp("2024-01-15T22:30:00.000Zx") && !NightLog.isBoxdTimestamp("2024-01-15 22:30:00.000Z"))
    }
}
