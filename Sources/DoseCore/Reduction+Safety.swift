import Foundation

// The guards against two doses together, in one place (README, "Never two doses
// together"). Each returns the outcome that replaces the action, or nil to go on.
extension Reduction {
    /// A press within the undo window of a recorded dose repeats it: "already recorded",
    /// nothing starts (no dose, no pending confirmation). A hold that follows cancels the
    /// repeat instead of undoing the dose.
    mutating func repeatOfRecordedDose(button: String?) -> Outcome? {
        guard button != nil, let dose = undoableNow() else { return nil }
        return absorbRepeat(of: dose)
    }

    /// Dose 2 by a button needs at least the floor (120 min) after Dose 1; before it a
    /// press is a repeat of Dose 1. Only a confirmed take from the command line records Dose 2 that early.
    mutating func belowDose2Floor() -> Outcome? {
        guard let d1 = night.dose1, let elapsed = state.elapsedSinceDose1(at: now),
              elapsed < .minutes(rules.safety.dose2ButtonFloorMin) else { return nil }
        return absorbRepeat(of: d1)
    }

    mutating func absorbRepeat(of dose: DoseRecord) -> Outcome {
        state.pending = nil
        if undoableNow()?.id == dose.id { state.absorbedRepeat = AbsorbedRepeat(doseID: dose.id, at: now) }
        return refuse(.alreadyRecorded(dose.type, at: dose.at.wall), sound: .alreadyRecorded, flash: .alreadyRecorded)
    }

    /// The hold after a repeat, while the dose is still undoable: the repeat is cancelled,
    /// the dose stands, the status shows. Undo and confirm never share a moment.
    mutating func cancelAbsorbedRepeat() -> Outcome? {
        guard let r = state.absorbedRepeat else { return nil }
        state.absorbedRepeat = nil
        guard let dose = undoableNow(), dose.id == r.doseID else { return nil }
        _ = showStatus()
        return .accepted(.repeatCancelled(dose.type, at: dose.at.wall))
    }

    /// A new Dose 1 within `new_dose1_after_last_dose_min` of the last dose taken (in this
    /// night, or before it anywhere in the log) needs a confirmation.
    func tooSoonForNewDose1() -> Refusal? {
        guard let last = night.lastDoseTaken ?? night.priorDose else { return nil }
        let ago = now.elapsed(since: last.at)
        guard ago < .minutes(rules.safety.newDose1AfterLastDoseMin) else { return nil }
        return .tooSoonAfterLastDose(lastAt: last.at.wall, minutesAgo: max(0, Int(ago.minutes)))
    }

    /// Dose 2 is owed: Dose 1 taken, Dose 2 neither taken nor skipped, the window not yet
    /// closed. Check-in and wake-final are refused then (or, confirmed, record the skip).
    func dose2Owed() -> Refusal? {
        guard night.isOpen, let d1 = night.dose1, !night.isDose2Resolved,
              let elapsed = state.elapsedSinceDose1(at: now), elapsed < state.window.closesAfter else { return nil }
        return .dose2Owed(windowOpens: d1.at.wall.addingTimeInterval(rules.window.openMin * 60),
                          windowCloses: d1.at.wall.addingTimeInterval(rules.window.closeMin * 60))
    }

    /// Dose 1 after alcoholic drinks were logged (#33; the XYWAV label: alcohol with oxybate can
    /// slow breathing dangerously): nothing recorded at first. On the dose button the warning and
    /// a pending confirmation, which the confirm hold answers; elsewhere a refusal that
    /// `--confirm` answers. Either way the Dose 1 then carries the drinks' count.
    /// `byHold`: asked by the confirm hold that answered the doubt, still down.
    mutating func askAfterDrinks(_ drinks: Int, button: String?, byHold: Bool) -> Outcome {
        guard let button, settings.buttons[button]?.isDoseButton == true else {
            return refuse(.alcoholLogged(drinks: drinks), sound: .error, flash: .refused)
        }
        state.pending = PendingConfirmation(kind: .alcohol, since: now, button: button, askedByHold: byHold)
        feedback(.warning, flash: nil)
        return .accepted(.awaitingConfirmation(.alcohol))
    }

    /// Dose 2 after an alcoholic drink logged since Dose 1 (#33): asked first, as Dose 1 is.
    mutating func askAfterDrinksSinceDose1(confirmed: Bool, button: String?, byHold: Bool, answered: Bool) -> Outcome? {
        let drinks = state.drinksSinceDose1(now)
        guard drinks > 0, !confirmed, !answered else { return nil }
        return askAfterDrinks(drinks, button: button, byHold: byHold)
    }

    /// While tonight's record is in doubt a dose needs a confirmation: the confirm hold on
    /// the dose button (the press starts it), or a confirmed command.
    mutating func doubtGuard(confirmed: Bool, button: String?) -> Outcome? {
        guard state.doubt != nil, !confirmed else { return nil }
        guard let button, settings.buttons[button]?.isDoseButton == true else {
            return refuse(.recordInDoubt, sound: .error, flash: .refused)
        }
        state.pending = PendingConfirmation(kind: .doubt, since: now, button: button)
        feedback(.warning, flash: nil)
        return .accepted(.awaitingConfirmation(.doubt))
    }

    /// The shell could not establish tonight's doses (since `since`). The doubt lasts until
    /// the next prep-time rollover (18:00) after it or until a night closes after it; a
    /// warning tone says so at once. Sent again after a restart, it is over if either came.
    mutating func enterDoubt(since: Date) -> Outcome {
        let until = SessionRules.nextOccurrence(of: rules.session.prepTime, after: since, timeZone: settings.timeZone)
        let nightEnded = night.closure.map { $0.at.wall >= since } ?? false
        guard now.wall < until, !nightEnded else { return .ignored }
        state.doubt = Doubt(since: since, until: until)
        state.pending = nil
        effects.append(.play(.warning))
        return .accepted(.doubtEntered)
    }

    /// The log can be read again: the night is what it holds, and a doubt that began because
    /// it could not be read is over (a doubt from a partial recovery is sent again after this).
    mutating func restoreNight(_ persisted: PersistedNight) -> Outcome {
        state.reloadNight(persisted)
        state.doubt = nil
        if state.pending?.kind == .doubt { state.pending = nil }
        return .accepted(.nightRestored)
    }
}
