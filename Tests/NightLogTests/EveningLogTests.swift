import DoseCore
import Foundation
import Testing
@testable import NightLog

/// The evening in the log (migration "v16-evening-drinks"): drinks and pacing messages in the
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
        .pacing(PacingRecord(id: id, sessionID: session, sessionDate: Fixture.date, at: Fixture.at(minutes), code: code,
                             message: "Water check.", severity: "info"))
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
            let plan = Forgetting.plan(try log.nightsToForget(from: nil, to: Fixture.date), latestSessionID: "S2", now: Fixture.at(9000).wall)
            _ = try log.forget(plan, from: nil, to: Fixture.date)
            #expect(try log.feed(after: 0, limit: 100).filter { [.drinkLogged, .pacing].contains($0.kind) }.map(\.subject) == ["later"])
        }
    }
}
