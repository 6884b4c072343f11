import BoxWords
import Foundation
import Testing
@testable import DoseCore

/// #33, the evening in the core: a drink logged is on the record and in the alcohol guard at
/// once; taken back, it is in neither; the evening's session ends at its timeout or at Dose 1;
/// a drink the box cannot believe is refused with why.
@Suite struct EveningTests {
    static let timeout = Duration.seconds(DoseConstants.box.pacing.sessionTimeoutMin * 60)

    var drinks: (Harness) -> [DrinkRecord] = { h in h.persisted.compactMap { if case .drink(let d) = $0 { d } else { nil } } }

    @Test func aDrinkIsRecordedAndTheNextDose1AsksFirst() {
        var h = Harness()
        #expect(h.cli(.logDrink(.wine, units: nil, at: nil)) == .accepted(.drinkLogged(drinks(h).first!, alcoholicTonight: 1)))
        let d = drinks(h)[0]
        #expect(d.type == .wine && d.units == 1 && d.isAlcoholic && d.at == h.now.wall && d.sessionDate == "2026-11-21")
        #expect(h.state.evening?.drinks.map(\.id) == [d.id])
        #expect(h.press(.single) == .accepted(.awaitingConfirmation(.alcohol)))
    }

    @Test func waterIsLoggedButTheGuardDoesNotAsk() {
        var h = Harness()
        h.cli(.logDrink(.water, units: nil, at: nil))
        #expect(drinks(h).map(\.isAlcoholic) == [false])
        #expect(h.press(.single) == .accepted(.recorded(.dose1)))
    }

    @Test func aDrinkTakenBackLeavesDose1AsAlways() {
        var h = Harness()
        h.cli(.logDrink(.beer, units: nil, at: nil))
        h.advance(.seconds(30))
        #expect(h.press(.hold, button: "dose") != .accepted(.drinkUndone(drinks(h)[0])), "the dose button's hold is not the drink's undo")
        #expect(h.cli(.undoDrink) == .accepted(.drinkUndone(drinks(h)[0])))
        #expect(h.persisted.contains { if case .drinkUndone(let u) = $0 { u.drinkID == drinks(h)[0].id } else { false } })
        #expect(h.state.drinks.isEmpty && h.state.evening?.drinks.isEmpty == true)
        #expect(isRefused(h.cli(.undoDrink), "404_NOTHING_TO_UNDO"))
        #expect(h.press(.single) == .accepted(.recorded(.dose1)))
    }

    /// The session's edge: open until `session_timeout_min` after the last drink, not at it.
    @Test func theSessionEndsAtItsTimeout() {
        var h = Harness()
        h.cli(.logDrink(.beer, units: nil, at: nil))
        h.advance(Self.timeout - .seconds(1))
        #expect(h.state.evening != nil)
        #expect(h.state.ledPattern(at: h.now).name == "pace_good")
        h.advance(.seconds(1))
        #expect(h.state.evening == nil)
        #expect(h.state.ledPattern(at: h.now) == .off)
        #expect(h.state.drinks.count == 1, "the guard's look-back is longer than the session")
        h.cli(.logDrink(.beer, units: nil, at: nil))
        #expect(Set(drinks(h).map(\.sessionID)).count == 2, "a drink after the timeout starts a new session")
    }

    @Test func dose1EndsTheEveningAndItsLight() {
        var h = Harness()
        h.cli(.logDrink(.shot, units: nil, at: nil))
        #expect(h.state.ledPattern(at: h.now).color == .magenta)
        h.cli(.takeDose(confirmed: true))
        #expect(h.state.evening == nil)
        #expect(h.state.ledPattern(at: h.now) == .slowPulse)
        #expect(h.doses.map(\.metadata.alcoholDrinks) == [1])
    }

    @Test(arguments: [
        (Duration.seconds(-61), "in the future"), (Duration.seconds(12 * 3600), "more than 12 hours ago"),
    ])
    func aDrinkAtATimeTheBoxCannotBelieveIsRefused(ago: Duration, why: String) {
        var h = Harness()
        let o = h.cli(.logDrink(.beer, units: nil, at: h.now.wall.addingTimeInterval(-ago.seconds)))
        #expect(isRefused(o, "400_INVALID_DRINK") && drinks(h).isEmpty)
        if case .refused(let r) = o { #expect(Written.refusal(r, in: Harness.tz).contains(why)) }
    }

    @Test func aDrinkJustInsideTheEdgesIsLogged() {
        var h = Harness()
        #expect(h.cli(.logDrink(.beer, units: nil, at: h.now.wall.addingTimeInterval(60))) != .ignored)
        #expect(h.cli(.logDrink(.beer, units: 1.5, at: h.now.wall.addingTimeInterval(-12 * 3600 + 1))) != .ignored)
        #expect(drinks(h).count == 2 && drinks(h)[0].at == h.now.wall, "a minute ahead is now: the box's clock, not the drink's")
        #expect(isRefused(h.cli(.logDrink(.beer, units: DoseConstants.box.pacing.maxUnitsPerDrink + 0.5, at: nil)), "400_INVALID_DRINK"))
    }

    /// What the engine found is recorded and said; with no evening open, nothing happens.
    @Test func aVerdictIsRecordedAndSaid() {
        var h = Harness()
        let verdict = PacingVerdict(notes: [PacingNote(code: "water_check", message: "Water check.", severity: "info")], pace: .caution,
                                    nextCheck: nil)
        #expect(h.send(.paced(verdict), from: .system) == .ignored)
        h.cli(.logDrink(.beer, units: nil, at: nil))
        #expect(h.state.evening?.needsLook == true)
        h.send(.paced(verdict), from: .system)
        #expect(h.persisted.contains { if case .pacing(let p) = $0 { p.code == "water_check" } else { false } })
        #expect(h.lastEffects.contains(.speak(.pacing(h.state.evening!.told[0]))))
        #expect(h.state.evening?.needsLook == false && h.state.ledPattern(at: h.now).name == "pace_caution")
    }

    /// A second button bound to drinks: its single press logs, its hold takes back; the dose button is untouched.
    @Test func aDrinkButton() {
        var h = Harness(settings: BoxSettings(timeZone: Harness.tz, buttons: [
            "dose": .doseButton, "drinks": GestureMap(single: .drink(.beer), double: .drink(.water), hold: .undoDrink),
        ]))
        #expect(h.press(.single, button: "drinks") == .accepted(.drinkLogged(drinks(h)[0], alcoholicTonight: 1)))
        #expect(h.sounds == [.success] && drinks(h)[0].source == .button("drinks"))
        h.press(.double, button: "drinks")
        #expect(drinks(h).map(\.type) == [.beer, .water])
        #expect(h.press(.hold, button: "drinks") == .accepted(.drinkUndone(drinks(h)[1])))
        #expect(ButtonIntent(config: "drink:wine") == .drink(.wine) && ButtonIntent(config: "drink:gin") == nil)
        #expect(ButtonIntent(config: "undo_drink") == .undoDrink && ButtonIntent.drink(.shot).description == "drink:shot")
    }

    /// An afternoon's drink and pre-sleep log belong to the night that begins that evening, not
    /// to last night (whose date runs to prep_time, 18:00), even while last night is still open.
    @Test func theAfternoonBelongsToTonight() {
        var h = Harness()
        h.takeDose1()                                   // last night, 2026-11-21, Dose 1 at 22:00
        h.advance(.minutes(19 * 60))                           // 17:00 next day: before prep_time, last night's date still runs
        #expect(h.state.night.session?.date == "2026-11-21" && h.state.night.dose1 != nil)
        h.cli(.logDrink(.beer, units: nil, at: nil))
        #expect(drinks(h).last?.sessionDate == "2026-11-22")
        #expect(h.cli(.logPreSleep(PreSleepAnswers(alcoholDrinks: 2))) == .accepted(.preSleepLogged(h.state.preSleep!, edited: false)))
        #expect(h.state.preSleep?.sessionDate == "2026-11-22")
        h.advance(.minutes(5 * 60))                           // 22:00: tonight's Dose 1 asks, for 2 drinks
        #expect(h.state.drinksBefore(h.now) == 2)
        #expect(isRefused(h.cli(.takeDose(confirmed: false)), "428_CONFIRMATION_REQUIRED"))
    }
}

