import Foundation

/// The rules of the night as one pure, total function:
/// `(state, action, context) -> (state, effects, outcome)`. No I/O, no clock reads, no
/// randomness; every refusal carries a reason.
public enum DoseReducer {
    public static func reduce(_ state: BoxState, _ action: Action, _ context: Context) -> Transition {
        var r = Reduction(state: state, ctx: context)
        r.passTime()
        r.outcome = r.perform(action)
        return r.finish()
    }
}

/// One transition in progress: records to persist (applied to the night as they are
/// made), effects in order, and the outcome.
struct Reduction {
    var state: BoxState
    let ctx: Context
    var records: [LogRecord] = []
    var effects: [Effect] = []
    var outcome: Outcome = .ignored
    var usedIDs = 0

    init(state: BoxState, ctx: Context) {
        self.state = state
        self.ctx = ctx
    }

    var now: Moment { ctx.now }
    var settings: BoxSettings { state.settings }
    var rules: DoseConstants { state.settings.rules }
    var night: Night { state.night }
    var fromButton: Bool { if case .button = ctx.source { true } else { false } }

    // MARK: - Time passing (runs before every action)

    mutating func passTime() {
        closeSessionIfDue()
        endEveningIfDue()
        if let d = state.doubt, now.wall >= d.until { state.doubt = nil }
        if let p = state.pending,
           now.elapsed(since: p.since) >= .seconds(rules.gestures.confirmationWindowS) {
            state.pending = nil // timed out: records nothing
        }
        if let q = state.skipQuestion, now.elapsed(since: q.since) >= .seconds(rules.gestures.skipReasonWaitS) {
            answerSkipQuestion(.other, timedOut: true) // waiting is an answer: "or wait"
        }
        passCheckInTime()
        var rungOut: AlarmStep?
        if let ringing = state.ringing, now.elapsed(since: ringing.since) >= settings.ringTime {
            state.ringing = nil
            effects.append(.stopSound)
            rungOut = ringing.step
        }
        ringDueAlarms()
        let ticked = giveMinuteTick()
        // The alarm wins: an alert's words come once it has rung out, with the time left now,
        // and not at all when the next alert rings in its place. A tick's words come after it
        // (the words after a sound, never a sound over the words), unless an alert's do.
        if let rungOut, state.ringing == nil, let elapsed = state.elapsedSinceDose1(at: now) {
            speak(.alert(rungOut.kind, elapsed: elapsed, rules: rules))
        } else if let ticked {
            speak(.alert(.remainingWarning, elapsed: ticked, rules: rules))
        }
        announceCaregiverSteps()
    }

    /// SSOT 3.0 fallbacks A (missed check-in cutoff) and B (prep-time rollover), but never
    /// while the dose window is still running.
    mutating func closeSessionIfDue() {
        guard night.isOpen, !state.isWindowRunning(at: now), let close = state.fallbackClose() else { return }
        guard now.wall >= close.at else { return }
        closeSession(reason: close.reason)
    }

    /// Rings the latest step that fell due since the last one rang, once. After a restart
    /// (no cursor) every missed step is due, and still only the latest rings, at once.
    mutating func ringDueAlarms() {
        guard let d1 = night.dose1, let elapsed = state.elapsedSinceDose1(at: now) else { return }
        let due = state.plan.remaining(after: state.cursorThrough).filter { $0.offset <= elapsed }
        state.alarmCursor = AlarmCursor(dose1ID: d1.id, through: max(elapsed, state.cursorThrough ?? .zero))
        guard var step = due.last else { return }
        step.level = due.map(\.level).max() ?? step.level
        state.ringing = Ringing(step: step, since: now)
        effects.append(.play(.alarm(step.kind, step.level)))
        // A speaker known to be broken cannot wake anyone: say so now, never "rang". The
        // player still tries (it may come back within the ring); a play that fails without a
        // known fault comes back as `.alarmNotHeard`.
        let silent = state.faults.contains(.audioUnavailable)
        announce(silent ? .alarmSilent : .alarmRang, alert: step.kind, level: step.level)
    }

    /// The caregiver escalations that fell due and were not given yet for this Dose 1, in
    /// order (after a restart, every one missed while boxd was down: late beats never).
    mutating func announceCaregiverSteps() {
        guard let elapsed = state.elapsedSinceDose1(at: now) else { return }
        for step in state.caregiverPlan.due(at: elapsed, after: nil) where !night.hasNotified(step.alert) {
            announce(.init(step.alert))
        }
    }

    /// Raises or clears a fault; a change a caregiver should hear of is also written to the
    /// log (`Effect.faultNotice`), once per change.
    mutating func setFault(_ fault: Fault, active: Bool) {
        let changed = active ? state.faults.insert(fault).inserted : state.faults.remove(fault) != nil
        if changed, active { speak(.raised(fault)) }
        guard changed, fault.isCaregiverNews else { return }
        effects.append(.faultNotice(FaultRecord(id: freshID(), code: fault.code, raised: active, at: now)))
    }

    /// A notice for the log, written after this transition's sounds (`Effect.notice`).
    mutating func announce(_ kind: NoticeRecord.Kind, alert: AlertKind? = nil, level: AlarmLevel? = nil) {
        guard let session = night.session, let d1 = night.dose1 else { return }
        let notice = NoticeRecord(id: freshID(), sessionID: session.id, sessionDate: session.date, kind: kind, at: now,
                                  dose1ID: d1.id, alert: alert, level: level)
        state.night.apply(.notice(notice))
        effects.append(.notice(notice))
    }

    // MARK: - Actions

    mutating func perform(_ action: Action) -> Outcome {
        switch action {
        case .tick: return .ignored
        case .gesture(let g, let button): return gesture(g, button: button)
        case .takeDose(let confirmed): return takeNext(confirmed: confirmed, button: nil)
        case .confirm: return confirmPending()
        case .skipDose2(let reason): return skip(reason: reason)
        case .snooze: return snooze()
        case .undo: return undo()
        case .extraDose(let confirmed): return extraDose(confirmed: confirmed)
        case .logSleepEvent(let type, let notes, let confirmed): return logSleepEvent(type, notes: notes, confirmed: confirmed)
        case .checkIn(let answers, let confirmed): return checkIn(answers, confirmed: confirmed)
        case .enterDoubt(let since): return enterDoubt(since: since)
        case .restoreNight(let records): return restoreNight(records)
        case .stopAlarm: return stopAlarm() ? .accepted(.alarmStopped) : .ignored
        case .setTarget(let minutes, let confirmed): return setTarget(minutes, confirmed: confirmed)
        case .setFault(let fault, let active):
            setFault(fault, active: active)
            return .accepted(.faultChanged)
        case .supplyChanged(let supply):
            state.supply = supply
            return .accepted(.supplyChanged)
        case .drinksChanged(let drinks): return drinksChanged(drinks)
        case .logDrink(let type, let units, let at): return logDrink(type, units: units, at: at)
        case .undoDrink: return undoDrink()
        case .paced(let verdict): return paced(verdict)
        case .restoreEvening(let evening): return restoreEvening(evening)
        case .logPreSleep(let answers): return logPreSleep(answers)
        case .restorePreSleep(let log): return restorePreSleep(log)
        case .logMedication(let entry, let confirmed, let nearby, let night):
            return logMedication(entry, confirmed: confirmed, nearby: nearby, night: night)
        case .changeSupply(let change, let current): return changeSupply(change, current: current)
        case .forget(let range, let nights, let confirmed): return forget(range, nights: nights, confirmed: confirmed)
        case .persistFailed:
            setFault(.logUnwritable, active: true)
            feedback(.error, flash: nil)
            return .accepted(.faultChanged)
        case .alarmNotHeard(let alert, let level):
            announce(.alarmSilent, alert: alert, level: level)
            setFault(.audioUnavailable, active: true)
            return .accepted(.faultChanged)
        }
    }

    mutating func gesture(_ g: Gesture, button: String) -> Outcome {
        guard let map = settings.buttons[button] else { return .refused(.unknownButton(button)) }
        switch g {
        case .pressed:
            if state.skipCancelledBy == button { state.skipCancelledBy = nil }
            if state.checkIn?.button == button { countCheckInPress() }
            effects.append(.pressAcknowledgement)
            return .accepted(.acknowledged)
        case .stuck:
            setFault(.buttonStuck(button), active: true)
            return .accepted(.faultChanged)
        case .recovered:
            setFault(.buttonStuck(button), active: false)
            return .accepted(.faultChanged)
        default: break
        }
        // A check-in, a skip's question, then a pending confirmation, take precedence over
        // everything else this button does.
        if state.checkIn?.button == button { return checkInGesture(g) }
        if let answered = pressAfterCheckIn(g, button: button) { return answered }
        if let q = state.skipQuestion, q.button == button {
            switch g {
            case .single: return answerSkipQuestion(.drowsy)
            case .double: return answerSkipQuestion(.sideEffects)
            case .hold:
                state.skipQuestion = nil
                state.skipCancelledBy = button
                feedback(.warning, flash: nil)
                return .accepted(.skipCancelled)
            default: return .ignored // the release of the long hold itself, and holds held on
            }
        }
        if g == .skipHold { return skipByHold(button: button, isDoseButton: map.isDoseButton) }
        if let p = state.pending, p.button == button {
            switch g {
            case .confirmHold: return confirmPending()
            case .hold: return .ignored // on the way to the confirm hold: means nothing here
            case .releasedAfterHold where p.askedByHold:
                state.pending?.askedByHold = false // the hold that asked it, let go: the question stands
                return .ignored
            default:
                state.pending = nil
                return .accepted(.confirmationCancelled)
            }
        }
        let intent: ButtonIntent
        switch g {
        case .single: intent = map.single
        case .double: intent = map.double
        case .hold: intent = map.hold
        default: return .ignored
        }
        switch intent {
        case .takeNext:
            stopAlarm() // "Take now" answers a ringing alarm
            return takeNext(confirmed: false, button: button)
        case .snooze: return snooze()
        case .undoOrStatus:
            if let answered = cancelAbsorbedRepeat() { return answered }
            if undoableNow() != nil { return undo() }
            if stopAlarm() { return .accepted(.alarmStopped) }
            return state.isMorning(at: now) ? startCheckIn(button: button) : showStatus()
        case .log(let type): return logSleepEvent(type, notes: nil, confirmed: false)
        case .drink(let type): return logDrink(type, units: nil, at: nil)
        case .undoDrink: return undoDrink()
        case .nothing: return .ignored
        }
    }

    /// Takes the next dose: Dose 1, or Dose 2 in the window. Early or late Dose 2 needs a
    /// confirmation: a confirmed command, or on the button a confirm hold within 15 s.
    /// The guards against two doses together come first (Reduction+Safety.swift).
    mutating func takeNext(confirmed: Bool, button: String?, doubtAnswered: Bool = false, drinksAnswered: Bool = false) -> Outcome {
        if !confirmed, let repeated = repeatOfRecordedDose(button: button) { return repeated }
        let stage = state.doseStage(at: now)
        if stage != .completed, !doubtAnswered, let doubted = doubtGuard(confirmed: confirmed, button: button) {
            return doubted
        }
        switch stage {
        case .noDose1:
            if !confirmed, let tooSoon = tooSoonForNewDose1() { return refuse(tooSoon, sound: .stop, flash: .stop) }
            let drinks = state.drinksBefore(now)
            if drinks > 0, !confirmed, !drinksAnswered { return askAfterDrinks(drinks, button: button, byHold: doubtAnswered) }
            record(dose: .dose1, metadata: DoseMetadata(alcoholDrinks: drinks > 0 ? drinks : nil))
            // The refill reminder: at Dose 1, once a night, while the supply is low; never
            // during an alarm (none rings before Dose 1's window).
            if let supply = state.supply, supply.refillDue, let s = night.session {
                append(.supply(SupplyRecord(id: freshID(), kind: .refillReminder, at: now, sessionID: s.id, sessionDate: s.date,
                                            doses: 0, remainingAfter: supply.remainingDoses - 1, source: ctx.source)))
                feedback(.successRefillDue, flash: .confirmationRefillDue)
            } else {
                feedback(.success, flash: .confirmation)
            }
            return .accepted(.recorded(.dose1))
        case .completed:
            return refuseCompleted()
        case .active, .nearClose:
            if let asked = askAfterDrinksSinceDose1(confirmed: confirmed, button: button, byHold: doubtAnswered, answered: drinksAnswered) {
                return asked
            }
            return takeDose2(early: false, late: false)
        case .beforeWindow, .closed:
            let kind: ConfirmKind = stage == .beforeWindow ? .early : .late
            if confirmed { return takeDose2(early: kind == .early, late: kind == .late) }
            if kind == .early, button != nil, let repeated = belowDose2Floor() { return repeated }
            guard let button, settings.buttons[button]?.isDoseButton == true else {
                return refuse(.needsConfirmation(kind), sound: .error, flash: .refused)
            }
            if let asked = askAfterDrinksSinceDose1(confirmed: false, button: button, byHold: doubtAnswered, answered: drinksAnswered) {
                return asked
            }
            // Asked by the confirm hold that answered another question, still down: its release keeps this one.
            state.pending = PendingConfirmation(kind: kind, since: now, button: button, askedByHold: doubtAnswered)
            feedback(.warning, flash: nil)
            return .accepted(.awaitingConfirmation(kind))
        case .finalizing:
            return .ignored // not a dose stage
        }
    }

    mutating func refuseCompleted() -> Outcome {
        if let d2 = night.dose2 { return refuse(.dose2AlreadyTaken(at: d2.at.wall), sound: .stop, flash: .stop) }
        return refuse(.dose2WasSkipped, sound: .stop, flash: .stop)
    }

    mutating func confirmPending() -> Outcome {
        guard let p = state.pending else { return .refused(.nothingToConfirm) }
        state.pending = nil
        if p.kind == .doubt { return takeNext(confirmed: false, button: p.button, doubtAnswered: true) }
        // Asked after the doubt's (if any), so both are answered now.
        if p.kind == .alcohol { return takeNext(confirmed: false, button: p.button, doubtAnswered: true, drinksAnswered: true) }
        // Judge by the time of the confirmation: 149.9 pressed, 150.1 confirmed is on time.
        switch state.doseStage(at: now) {
        case .beforeWindow:
            if let repeated = belowDose2Floor() { return repeated }
            return takeDose2(early: true, late: false)
        case .active, .nearClose: return takeDose2(early: false, late: false)
        case .closed: return takeDose2(early: false, late: true)
        case .completed: return refuseCompleted()
        default: return refuse(.dose1Required, sound: .error, flash: .refused)
        }
    }

    mutating func takeDose2(early: Bool, late: Bool) -> Outcome {
        stopAlarm()
        state.pending = nil
        let drinks = state.drinksSinceDose1(now)
        record(dose: .dose2, metadata: DoseMetadata(isEarly: early, isLate: late, isExtraDose: false, alcoholDrinks: drinks > 0 ? drinks : nil))
        feedback(.success, flash: .confirmation)
        if early, let elapsed = state.elapsedSinceDose1(at: now) {
            return .accepted(.recordedEarly(minutesAfterDose1: Int(elapsed.minutes)))
        }
        return .accepted(.recorded(.dose2))
    }

    mutating func extraDose(confirmed: Bool) -> Outcome {
        if fromButton { return refuse(.extraDoseOnlyFromCLI, sound: .stop, flash: .stop) }
        guard night.isOpen, night.dose1 != nil else { return .refused(.dose1Required) }
        guard night.dose2 != nil else { return .refused(.extraDoseBeforeDose2) }
        guard confirmed else { return .refused(.extraDoseNeedsConfirmation) }
        record(dose: .extraDose, metadata: DoseMetadata(isExtraDose: true))
        return .accepted(.recorded(.extraDose))
    }

    mutating func showStatus() -> Outcome {
        let phasePattern = state.phasePattern(at: now)
        let shown = phasePattern == .off ? LEDPattern.ready : phasePattern
        effects.append(.flash(shown, duration: .seconds(rules.feedback.statusDisplayS)))
        effects.append(.play(.status))
        return .accepted(.status)
    }

    /// Silences a ringing alarm. The plan goes on: later steps still ring.
    @discardableResult
    mutating func stopAlarm() -> Bool {
        guard state.ringing != nil else { return false }
        state.ringing = nil
        effects.append(.stopSound)
        return true
    }
}
