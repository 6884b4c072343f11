import Foundation

/// The evening before (#33): drinks logged and taken back, and what the pacing engine found.
/// Its session opens with the first drink and ends `pacing.session_timeout_min` after the
/// last, or at Dose 1 (`record(dose:)`); the alcohol guard reads `state.drinks`.
extension Reduction {
    /// A drink, at `at` or now: not ahead of the box's clock by more than a medication entry may
    /// be (`medication.future_tolerance_s`: boxctl's clock may differ a little), nor before the
    /// guard's look-back. A drink is never put after the moment it is logged.
    mutating func logDrink(_ type: DrinkType, units: Double?, at: Date?) -> Outcome {
        let when = at ?? now.wall
        let lookback = rules.safety.alcoholLookbackH * 3600
        if when.timeIntervalSince(now.wall) > rules.medication.futureToleranceS {
            return refuse(.invalidDrink("a drink cannot be logged in the future"), sound: .error, flash: .refused)
        }
        if now.wall.timeIntervalSince(when) >= lookback {
            return refuse(.invalidDrink("a drink more than \(Int(rules.safety.alcoholLookbackH)) hours ago no longer counts tonight"),
                          sound: .error, flash: .refused)
        }
        if let units, !(units.isFinite && units >= 0 && units <= rules.pacing.maxUnitsPerDrink) {
            return refuse(.invalidDrink("units must be from 0 to \(DoseConstants.number(rules.pacing.maxUnitsPerDrink))"), sound: .error, flash: .refused)
        }
        let d = type.defaults(rules.pacing)
        var evening = state.evening ?? Evening(sessionID: freshID(), sessionDate: dateKey(when), drinks: [])
        let record = DrinkRecord(id: freshID(), sessionID: evening.sessionID, sessionDate: dateKey(when), at: min(when, now.wall),
                                 logged: now, type: type, units: units ?? d.units, isAlcoholic: d.alcoholic, source: ctx.source)
        append(.drink(record))
        evening.add(record)
        state.evening = evening
        if record.isAlcoholic { state.drinks.append(record.at) }
        feedback(.success, flash: .ack)
        return .accepted(.drinkLogged(record, alcoholicTonight: evening.alcoholicDrinks))
    }

    /// The evening's drink logged last, taken back (seed 002 "undoLast"; no time limit there).
    mutating func undoDrink() -> Outcome {
        guard var evening = state.evening, let last = evening.drinks.last else {
            return refuse(.noDrinkToUndo, sound: .error, flash: .refused)
        }
        append(.drinkUndone(DrinkUndoRecord(drinkID: last.id, at: now, source: ctx.source)))
        evening.remove(last.id)
        state.evening = evening
        if last.isAlcoholic, let i = state.drinks.firstIndex(of: last.at) { state.drinks.remove(at: i) }
        feedback(.warning, flash: .undone)
        return .accepted(.drinkUndone(last))
    }

    /// What the engine told is recorded and said; the pace shows on the LED until it changes.
    mutating func paced(_ verdict: PacingVerdict) -> Outcome {
        guard var evening = state.evening else { return .ignored }
        var told: [PacingRecord] = []
        for note in verdict.notes {
            let r = PacingRecord(id: freshID(), sessionID: evening.sessionID, sessionDate: evening.sessionDate, at: now, note: note)
            append(.pacing(r))
            told.append(r)
        }
        evening.looked(told: told, pace: verdict.pace, nextCheck: verdict.nextCheck)
        state.evening = evening
        if !told.isEmpty {
            // Said wherever the drink came from: the box speaks up, as the seed's phone notifies.
            effects.append(.play(.status))
            for r in told { speak(.pacing(r)) }
        }
        return .accepted(.paced(told))
    }

    /// The alcoholic drinks' times the log holds (at start), for the guard.
    mutating func drinksChanged(_ drinks: [Date]) -> Outcome {
        state.drinks = drinks
        return .accepted(.drinksChanged)
    }

    /// The latest pre-sleep log the log holds (at start); `drinksBefore` judges whether it is tonight's.
    mutating func restorePreSleep(_ log: PreSleepLog?) -> Outcome {
        state.preSleep = log
        return .accepted(.eveningRestored)
    }

    /// The open session the log holds, if it is still open now.
    mutating func restoreEvening(_ evening: Evening?) -> Outcome {
        state.evening = evening
        endEveningIfDue()
        return .accepted(.eveningRestored)
    }

    /// The session ends `session_timeout_min` after its last drink, or with a Dose 1 taken after it began.
    mutating func endEveningIfDue() {
        guard let e = state.evening else { return }
        let timedOut = e.endsAt(rules.pacing).map { now.wall >= $0 } ?? true
        let began = e.began ?? now.wall
        let dosed = night.doseEvents.contains { $0.type == .dose1 && !night.undoneIDs.contains($0.id) && $0.at.wall >= began }
        if timedOut || dosed { state.evening = nil }
    }

    func dateKey(_ date: Date) -> String { SessionRules.eveningKey(for: date, timeZone: settings.timeZone, rules: rules.session) }
}

extension Evening {
    mutating func add(_ drink: DrinkRecord) {
        drinks.append(drink)
        needsLook = true
        drinkSinceLook = true
    }

    mutating func remove(_ id: String) {
        drinks.removeAll { $0.id == id }
        needsLook = true
    }

    mutating func looked(told new: [PacingRecord], pace: PaceStatus, nextCheck: Date?) {
        told += new
        self.pace = pace
        self.nextCheck = nextCheck
        needsLook = false
        drinkSinceLook = false
    }

    /// When the session began: its first drink's logging.
    var began: Date? { drinks.map(\.logged.wall).min() }
}
