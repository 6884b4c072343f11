import Foundation

// The night's non-dose actions (sleep events, check-in, target) and the helpers every
// action uses to record, give feedback and finish a transition.
extension Reduction {
    mutating func logSleepEvent(_ type: SleepEventType, notes: String?, confirmed: Bool) -> Outcome {
        if night.isOpen, let last = night.lastSleepEvent(type) {
            let since = now.elapsed(since: last.at)
            let cooldown = settings.cooldown(of: type)
            if since < cooldown {
                let remaining = Int((cooldown - since).seconds.rounded(.up))
                return refuse(.cooldown(type, remainingSeconds: remaining), sound: .error, flash: .refused)
            }
        }
        switch type {
        case .wakeFinal:
            if let owed = dose2Owed() {
                guard confirmed else { return refuse(owed, sound: .error, flash: .refused) }
                recordSkip(reason: .other)
            }
        case .napStart:
            if night.isOpen, let nap = night.napInProgress {
                return refuse(.napInProgress(since: nap.at.wall), sound: .error, flash: .refused)
            }
        case .napEnd:
            guard night.isOpen, night.napInProgress != nil else { return refuse(.noNapInProgress, sound: .error, flash: .refused) }
        default: break
        }
        let s = ensureSession()
        append(.sleepEvent(SleepEventRecord(id: freshID(), sessionID: s.id, sessionDate: s.date, type: type,
                                            at: now, notes: notes, source: ctx.source)))
        feedback(.success, flash: nil)
        return .accepted(.loggedSleepEvent(type))
    }

    /// SSOT 3.0 closes a night by check-in from finalizing; a night that still owes Dose 2
    /// is closed only with a confirmation, which records the skip.
    mutating func checkIn(_ answers: CheckInAnswers, confirmed: Bool) -> Outcome {
        guard answers.isValid else { return .refused(.invalidCheckIn) }
        guard night.isOpen, night.session != nil else { return .refused(.noOpenSession) }
        if let owed = dose2Owed() {
            guard confirmed else { return refuse(owed, sound: .error, flash: .refused) }
            recordSkip(reason: .other)
        }
        guard let s = night.session else { return .refused(.noOpenSession) }
        append(.checkIn(CheckInRecord(id: freshID(), sessionID: s.id, sessionDate: s.date, at: now, answers: answers, source: ctx.source)))
        let terminal = closeSession(reason: .checkIn)
        feedback(.success, flash: nil)
        return .accepted(.checkedIn(terminal))
    }

    mutating func setTarget(_ minutes: Int, confirmed: Bool) -> Outcome {
        let valid = rules.window.validTargetsMin
        guard valid.contains(minutes) else { return .refused(.invalidTarget(minutes, valid: valid)) }
        guard confirmed else { return .refused(.targetNeedsConfirmation(minutes)) }
        state.settings.targetMinutes = minutes
        effects.append(.saveTarget(minutes))
        return .accepted(.targetSet(minutes))
    }

    /// The medication log's entry, or the guard's refusal (`MedicationLog.decide`).
    mutating func logMedication(_ entry: MedicationEntry, confirmed: Bool, nearby: [MedicationRecord], night: String?) -> Outcome {
        let date = MedicationLog.sessionDate(of: entry.takenAt ?? now.wall, timeZone: settings.timeZone, rules: rules)
        switch MedicationLog.decide(entry, confirmed: confirmed, nearby: nearby, now: now.wall, timeZone: settings.timeZone,
                                    sessionID: { $0 == date ? night : nil }, id: freshID(), source: ctx.source, rules: rules) {
        case .refused(let refusal): return .refused(refusal)
        case .record(let record):
            append(.medication(record))
            return .accepted(.medicationLogged(record))
        }
    }

    /// A refill or a correction of the count (`Supply.decide`); the count is the new one at once.
    mutating func changeSupply(_ change: SupplyChange, current: SupplyStatus?) -> Outcome {
        switch Supply.decide(change, current: current, at: now, id: freshID(), source: ctx.source, rules: rules) {
        case .refused(let refusal): return .refused(refusal)
        case .record(let record):
            append(.supply(record))
            state.supply = SupplyStatus(remainingDoses: record.remainingAfter, rules: rules)
            return .accepted(.supplyLogged(record))
        }
    }

    /// Forgetting nights: what may go (`Forgetting.plan`: never the latest night, nor one with
    /// a dose too recent for the guard), a confirmation first, then the shell deletes them.
    mutating func forget(_ range: Forgetting.Range, nights: [Forgetting.Night], confirmed: Bool) -> Outcome {
        let plan = Forgetting.plan(nights, latestSessionID: night.session?.id, now: now.wall, rules: rules)
        guard !plan.forget.isEmpty else { return .refused(.nothingToForget(range, kept: plan.kept)) }
        guard confirmed else { return .refused(.forgetNeedsConfirmation(plan, range)) }
        effects.append(.forget(plan, range))
        return .accepted(.forgot(plan, range))
    }

    // MARK: - Helpers

    @discardableResult
    mutating func closeSession(reason: CloseReason) -> TerminalState {
        guard let s = night.session else { return .aborted }
        let terminal = night.terminalState(window: state.window, now: now)
        append(.sessionClosed(SessionCloseRecord(sessionID: s.id, at: now, terminalState: terminal, reason: reason)))
        state.pending = nil
        state.checkIn = nil // a check-in by the button ends with the night, saved or not
        state.doubt = nil // the doubt ends with the night
        stopAlarm()
        return terminal
    }

    /// The open session, opening one when the night has none (SSOT 3.0: the first event that needs it).
    mutating func ensureSession() -> SessionRecord {
        if night.isOpen, let s = night.session { return s }
        let date = SessionRules.sessionKey(for: now.wall, timeZone: settings.timeZone, rolloverHour: rules.session.rolloverHour)
        let s = SessionRecord(id: freshID(), date: date, start: now, targetMinutes: settings.targetMinutes,
                              timeZone: settings.timeZone.identifier)
        append(.sessionOpened(s))
        return s
    }

    mutating func snooze() -> Outcome {
        if let refusal = state.snoozeRefusal(at: now) {
            return refuse(refusal, sound: .error, flash: .refused)
        }
        stopAlarm()
        record(dose: .snooze, metadata: DoseMetadata(snoozeNumber: night.snoozeCount + 1))
        // Steps the moved plan puts in the past do not ring; the cursor already stands at now.
        feedback(.success, flash: nil)
        return .accepted(.recorded(.snooze))
    }

    /// Records a dose event; whatever confirmation was pending is answered by it.
    mutating func record(dose type: DoseEventType, metadata: DoseMetadata = .init()) {
        if type == .dose1 { state.evening = nil } // Dose 1 ends the evening's pacing session
        if type != .snooze {
            state.pending = nil
            state.skipQuestion = nil
            state.checkIn = nil
        }
        let s = ensureSession()
        append(.dose(DoseRecord(id: freshID(), sessionID: s.id, sessionDate: s.date, type: type, at: now,
                                metadata: metadata, source: ctx.source)))
    }

    mutating func append(_ record: LogRecord) {
        records.append(record)
        state.night.apply(record)
    }

    mutating func freshID() -> String {
        defer { usedIDs += 1 }
        if usedIDs < ctx.ids.count { return ctx.ids[usedIDs] }
        let base = ctx.ids.last ?? "\(now.boot)-\(now.monoNanos)"
        return "\(base)-\(usedIDs)"
    }

    /// Sounds acknowledge what a button did; boxctl's reply is its own acknowledgement,
    /// so actions over SSH stay silent in the bedroom.
    mutating func feedback(_ sound: Sound, flash: LEDPattern?) {
        guard fromButton else { return }
        if let flash { effects.append(.flash(flash, duration: nil)) }
        effects.append(.play(sound))
    }

    /// Something for the speaker to say, when the voice is on (`Effect.speak`: after the sound).
    mutating func speak(_ utterance: Utterance?) {
        guard settings.voice.enabled, let utterance else { return }
        effects.append(.speak(utterance))
    }

    mutating func refuse(_ refusal: Refusal, sound: Sound, flash: LEDPattern) -> Outcome {
        feedback(sound, flash: flash)
        return .refused(refusal)
    }

    /// Adds what follows from the new state: persist first, the plan's change, the LED.
    mutating func finish() -> Transition {
        state.cacheFallbackClose()
        state.keepPlans()
        // What a button did, said after its sound; boxctl's reply speaks for itself.
        if fromButton { speak(.answer(outcome, state: state, at: now)) }
        let led = state.ledPattern(at: now)
        if led != state.shownLED {
            state.shownLED = led
            effects.append(.led(led))
        }
        if !records.isEmpty { effects.insert(.persist(records), at: 0) }
        return Transition(state: state, effects: effects, outcome: outcome)
    }
}
