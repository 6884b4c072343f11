import DoseCore
import Foundation
import Testing
@testable import NightLog

/// The evening in the log (migration "v16-evening-drinks,v17-pre-sleep-logs,v18-export-order"): drinks and pacing messages in the
/// feed in the order written, a drink taken back as a change of its own, the latest session read
/// back at start, the guard's drinks by time drunk, and forgetting a night takes its evening.
@Suite struct EveningLogTests {
    static func drink(_ id: String, _ type: DrinkType, at minutes: Double, loggedAt: Double? = nil, session: String = "E1",
                      date: String = Fixture.date) -> LogRecord {
        let d = type.defaults()
        return .drink(DrinkRecord(id: id, sessionID: session, sessionDate: date, at: Fixture.at(minutes).wall,
                                  logged: Fixture.at(loggedAt ?? minutes), type: type, units: d.units, isAlcoholic: d.alcoholic,
                                  source: .cli(uid: 1000)))
    }

    static func pacing(_ id: String, _ code: String, at minutes: Double, session: String = "E1") -> LogRecord {
        .pacing(PacingRecord(id: id, sessionID: session, sessionDate: Fixture.date, at: Fixture.at(minutes),
                             note: PacingNote(code: code, message: "Water check.", severity: "info")))
    }

    @Test func drinksAndMessagesAreInTheFeedInOrder() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Self.drink("w", .wine, at: -120, loggedAt: -100)])
            try log.append([Self.drink("b", .beer, at: -90), Self.pacing("p", "water_check", at: -90)])
            try log.append([.drinkUndone(DrinkUndoRecord(drinkID: "b", at: Fixture.at(-89), source: .button("drinks")))])
            let feed = try log.feed(after: 0, limit: 100)
            #expect(feed.map(\.kind) == [.drinkLogged, .drinkLogged, .pacing, .drinkUndone])
            #expect(feed.map(\.id) == [1, 2, 3, 4])
            #expect(feed[0].eventType == "wine" && feed[0].units == 1 && feed[0].at == Fixture.at(-120).wall.iso8601)
            #expect(feed[0].sessionID == nil && feed[0].sessionDate == Fixture.date)
            #expect(feed[2].eventType == "water_check" && feed[2].notes == "Water check." && feed[2].level == "info")
            #expect(feed[3].subject == "b" && feed[3].source == "button:drinks")
            // Taken back once; twice is refused, and so is a drink that never was.
            #expect(throws: NightLogError.self) { try log.append([.drinkUndone(DrinkUndoRecord(drinkID: "b", at: Fixture.at(-88), source: .system))]) }
            #expect(throws: NightLogError.self) { try log.append([.drinkUndone(DrinkUndoRecord(drinkID: "x", at: Fixture.at(-88), source: .system))]) }

            let evening = try #require(try log.latestEvening())
            #expect(evening.sessionID == "E1" && evening.drinks.map(\.id) == ["w"] && evening.told.map(\.id) == ["p"])
            #expect(evening.drinks[0].logged == Fixture.at(-100) && evening.drinks[0].at == Fixture.at(-120).wall)
            #expect(try log.alcoholicDrinks(since: Fixture.at(-121).wall) == [Fixture.at(-120).wall])
            #expect(try log.alcoholicDrinks(since: Fixture.at(-119).wall).isEmpty)
        }
    }

    @Test func anEmptyLogHasNoEvening() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            #expect(try log.latestEvening() == nil)
            try log.append([Self.drink("b", .beer, at: 0)])
            try log.append([.drinkUndone(DrinkUndoRecord(drinkID: "b", at: Fixture.at(1), source: .system))])
            #expect(try log.latestEvening() == nil, "every drink of the latest session taken back")
        }
    }

    @Test func aForgottenNightTakesItsEvening() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            try log.append([Self.drink("b", .beer, at: -60), Self.pacing("p", "rapid_repeat", at: -60)])
            try log.append(Fixture.night("S1", date: Fixture.date, startDay: 0))
            try log.append([Self.drink("later", .beer, at: 3000, session: "E2", date: "2024-01-17")])
            try log.append(Fixture.night("S2", date: "2024-01-17", startDay: 2))
            try log.append([Self.drink("tonight", .wine, at: 4500, session: "E3", date: "2024-01-18")])
            try log.append([.preSleep(PreSleepLog(id: "p18", sessionDate: "2024-01-18", completedAt: Fixture.at(4500).wall,
                                                  answers: PreSleepAnswers(alcoholDrinks: 1)))])
            let plan = Forgetting.plan(try log.nightsToForget(from: nil, to: Fixture.date), latestSessionID: "S2", now: Fixture.at(9000).wall)
            _ = try log.forget(plan, from: "2024-01-10", to: "2024-01-20")
            #expect(try log.feed(after: 0, limit: 100).filter { [.drinkLogged, .pacing].contains($0.kind) }.map(\.subject) == ["later", "tonight"],
                    "the latest night's evening and tonight's stay")
            #expect(try log.preSleepLog()?.id == "p18")
        }
    }
}

/// The pre-sleep log in the log (migration "v17-pre-sleep-logs"): schema v6's table exactly,
/// one row per evening rewritten by an edit, exported as pre_sleep_logs.csv in the table's order.
@Suite struct PreSleepLogTests {
    @Test func theTableIsSchemaV6s() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            let listed = try log.readScalar("SELECT group_concat(name || ' ' || type || ' ' || \"notnull\" || ' ' || pk, ',') FROM pragma_table_info('pre_sleep_logs')")
            let columns = (listed ?? "").split(separator: ",").map(String.init)
            #expect(columns == [
                "id TEXT 0 1", "session_date TEXT 1 0", "completed_at TEXT 1 0", "caffeine_cups INTEGER 0 0", "caffeine_cutoff TEXT 0 0",
                "alcohol_drinks INTEGER 0 0", "exercise_type TEXT 0 0", "exercise_duration INTEGER 0 0", "stress_level INTEGER 0 0",
                "notes TEXT 0 0", "created_at TEXT 0 0",
            ])
            #expect(ExportFile.preSleepLogs.columns == columns.map { String($0.split(separator: " ")[0]) })
        }
    }

    @Test func anEditRewritesTheEveningsRowAndTheExportHasIt() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            let first = PreSleepLog(id: "p1", sessionDate: Fixture.date, completedAt: Fixture.at(-60).wall,
                                    answers: PreSleepAnswers(caffeineCups: 2, stressLevel: 4))
            try log.append([.preSleep(first)])
            var edited = first
            edited.completedAt = Fixture.at(-30).wall
            edited.answers = PreSleepAnswers(caffeineCups: 2, caffeineCutoff: Fixture.at(-300).wall, alcoholDrinks: 1, exerciseType: .moderate,
                                             exerciseDuration: 45, stressLevel: 6, notes: "=long day")
            try log.append([.preSleep(edited)])
            var partial = edited
            partial.answers = PreSleepAnswers(stressLevel: 3)  // a write that lost the rest keeps it
            try log.append([.preSleep(partial)])
            edited.answers.stressLevel = 3
            edited.completedAt = partial.completedAt
            #expect(try log.preSleepLog() == edited && log.preSleepLog(sessionDate: Fixture.date) == edited)
            #expect(try log.preSleepLog(sessionDate: "2024-01-16") == nil)
            let csv = try log.csv(.preSleepLogs).components(separatedBy: "\r\n")
            #expect(csv[0] == "id,session_date,completed_at,caffeine_cups,caffeine_cutoff,alcohol_drinks,exercise_type,exercise_duration,stress_level,notes,created_at")
            #expect(csv[1] == "p1,2024-01-15,2024-01-15T21:30:00.000Z,2,2024-01-15T17:00:00.000Z,1,moderate,45,3,'=long day,2024-01-15T21:00:00.000Z")
            #expect(csv.count == 3 && csv[2].isEmpty)
        }
    }
}
