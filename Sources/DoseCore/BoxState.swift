import Foundation

/// The whole state of the box: the durable night (a fold of the log) plus what lives only
/// in memory and may be lost on a restart without losing anything acknowledged: a pending
/// confirmation, the alarm ringing now, which alarms already rang, faults, the LED shown.
public struct BoxState: Sendable, Hashable {
    public var settings: BoxSettings {
        didSet { plansMemo = PlansMemo() } // new rules or target: the plans are made again
    }
    public internal(set) var night: Night
    public internal(set) var pending: PendingConfirmation?
    /// A skip by the button whose reason is being asked.
    public internal(set) var skipQuestion: SkipQuestion?
    /// The button whose hold cancelled a skip, until its next press: the same hold, kept
    /// down past the long hold, must not ask again.
    var skipCancelledBy: String?
    /// The morning check-in by the button, while it is being answered.
    public internal(set) var checkIn: CheckInProgress?
    var checkInSaved: CheckInSaved?
    public internal(set) var ringing: Ringing?
    public internal(set) var alarmCursor: AlarmCursor?
    /// The last minutes' ticks given (or let pass) for this Dose 1.
    public internal(set) var tickCursor: AlarmCursor?
    public internal(set) var faults: Set<Fault>
    public internal(set) var shownLED: LEDPattern?
    /// Tonight's doses could not be established from the log (see `Action.enterDoubt`).
    public internal(set) var doubt: Doubt?
    /// The supply as the shell last read it (nil: not counted); a low one adds the refill
    /// reminder to Dose 1.
    public internal(set) var supply: SupplyStatus?
    /// When the alcoholic drinks the shell last read were logged (#33).
    public internal(set) var drinks: [Date] = []
    /// The evening's open pacing session (#33), nil when none is open.
    public internal(set) var evening: Evening?
    /// The latest pre-sleep log (#33); its drinks count for the Dose 1 of its night.
    public internal(set) var preSleep: PreSleepLog?
    /// The last press answered as a repeat of a dose, for the hold that may follow it.
    public internal(set) var absorbedRepeat: AbsorbedRepeat?
    /// The open session's fallback close, computed once per session (calendar math is costly).
    var fallbackCloseCache: FallbackClose?
    /// A closed night's `completedUntil`, computed once per closure.
    var completedUntilCache: CompletedUntil?
    /// The night's plans for the current target (BoxState+Plans), kept by every reduction.
    var plansMemo = PlansMemo()

    public init(settings: BoxSettings, night: Night = Night(), faults: Set<Fault> = []) {
        self.settings = settings
        self.night = night
        self.faults = faults
    }

    /// The same night folded again from its records, whose wall times the shell re-derived
    /// after a clock step (one timeline); everything in memory stays.
    public mutating func reloadNight(_ persisted: PersistedNight) {
        night = Night(persisted)
        fallbackCloseCache = nil
        completedUntilCache = nil
    }

    /// The state after a restart: the night as the log holds it, nothing else.
    public static func rebuilt(settings: BoxSettings, from persisted: PersistedNight, faults: Set<Fault> = []) -> BoxState {
        BoxState(settings: settings, night: Night(persisted), faults: faults)
    }

    /// The same, from a whole log in append order (tests, and the model's restarts).
    public static func rebuilt(settings: BoxSettings, records log: [LogRecord], faults: Set<Fault> = []) -> BoxState {
        rebuilt(settings: settings, from: PersistedNight(log: log), faults: faults)
    }

    var window: DoseWindow { settings.window }

    /// A question waits for a hand on the button (a confirmation, a skip's reason, the
    /// check-in): its times are a person's, so a sped-up demo clock runs at real speed.
    public var waitsForAHand: Bool { pending != nil || skipQuestion != nil || checkIn != nil }

    /// Time since Dose 1, if it was taken in the open night.
    public func elapsedSinceDose1(at now: Moment) -> Duration? {
        guard night.isOpen, let d1 = night.dose1 else { return nil }
        return now.elapsed(since: d1.at)
    }

    /// The phase of SSOT 3.0. A closed night reads `completed` (SSOT 3.0: finalizing ->
    /// completed on check-in) until the next night begins at the prep-time rollover; a
    /// press starts a new night all the same.
    public func phase(at now: Moment) -> Phase {
        guard night.isOpen else {
            if let until = completedUntil(), now.wall < until { return .completed }
            return .noDose1
        }
        // Wake-final never hides a dose that is still owed (the window still running).
        let elapsed = elapsedSinceDose1(at: now)
        if night.wakeFinal != nil, night.isDose2Resolved || elapsed.map({ $0 >= window.closesAfter }) ?? true {
            return .finalizing
        }
        if night.isDose2Resolved { return .completed }
        guard let elapsed else { return .noDose1 }
        return window.phase(elapsed: elapsed)
    }

    /// Where the doses stand, ignoring finalizing: the dose rules apply even after wake-final.
    func doseStage(at now: Moment) -> Phase {
        guard night.isOpen, night.dose1 != nil else { return .noDose1 }
        if night.isDose2Resolved { return .completed }
        return window.phase(elapsed: elapsedSinceDose1(at: now) ?? .zero)
    }

    /// Dose 1 taken, Dose 2 still owed, and the window not yet closed: the fallback
    /// session closes wait for the window, so a night never ends under a running window.
    func isWindowRunning(at now: Moment) -> Bool {
        guard let elapsed = elapsedSinceDose1(at: now), !night.isDose2Resolved else { return false }
        return elapsed < window.closesAfter
    }

    var cursorThrough: Duration? {
        guard let c = alarmCursor, c.dose1ID == night.dose1?.id else { return nil }
        return c.through
    }

    var tickThrough: Duration? {
        guard let c = tickCursor, c.dose1ID == night.dose1?.id else { return nil }
        return c.through
    }

    /// The next alarm to ring and how far away it is.
    public func nextAlarm(at now: Moment) -> (step: AlarmStep, dueIn: Duration)? {
        guard let elapsed = elapsedSinceDose1(at: now), let step = remainingPlan.steps.first else { return nil }
        return (step, step.offset - elapsed)
    }

    /// The steady LED pattern: a pending confirmation, else doubt, else a fault, else the phase.
    public func ledPattern(at now: Moment) -> LEDPattern {
        if let p = pending {
            switch p.kind {
            case .early: return .confirmEarly
            case .late: return .confirmLate
            case .doubt: return .confirmDoubt
            case .alcohol: return .confirmAlcohol
            }
        }
        if doubt != nil { return .doubt }
        if checkIn != nil { return .checkIn }
        if faults.contains(where: \.showsOnLED) { return .fault }
        let phase = phasePattern(at: now)
        // The evening's pace, on the dark LED of a night not begun (or done): its own colour.
        if let evening, phase == .off { return .pace(evening.pace) }
        return phase
    }

    /// The phase's own pattern, escalating with the time left in the window.
    public func phasePattern(at now: Moment) -> LEDPattern {
        .forPhase(phase(at: now), remaining: elapsedSinceDose1(at: now).map { window.remaining(elapsed: $0) })
    }

    public var snoozesRemaining: Int { max(0, settings.rules.snooze.maxPerNight - night.snoozeCount) }

    /// Whether a double press of `button` means anything now (a snooze, or its refusal in
    /// the window). Where it does not, a single press commits at release instead of waiting
    /// out the double gap.
    public func doubleIsMeaningful(button: String, at now: Moment) -> Bool {
        guard let map = settings.buttons[button] else { return false }
        if skipQuestion?.button == button { return true } // two presses answer "side effects"
        if checkIn?.button == button { return false } // a check-in counts presses, not clicks
        if let p = pending, p.button == button { return false }
        switch map.double {
        case .nothing: return false
        case .snooze:
            // In the window a single press takes Dose 2, so a double meant as a snooze must
            // never be split into a dose: wait for it there, even when the snooze will be refused.
            return [.active, .nearClose, .closed].contains(doseStage(at: now))
        case .takeNext, .undoOrStatus, .log, .drink, .undoDrink: return true
        }
    }

    /// The snooze cut-off, the one place it is decided: SSOT 2.4.3 "Snooze disabled when <15
    /// min remain", and at exactly 15 the window is near its close (SSOT 3.0), so 15 minutes
    /// or less left (`snooze.disabled_below_remaining_min`; the phase's own
    /// `window.near_close_remaining_min` only names the phase).
    func snoozeIsCutOff(elapsed: Duration) -> Bool {
        window.remaining(elapsed: elapsed) <= .minutes(settings.rules.snooze.disabledBelowRemainingMin)
    }

    /// Why a snooze would be refused now, or nil when it would be accepted.
    public func snoozeRefusal(at now: Moment) -> Refusal? {
        guard night.isOpen, night.dose1 != nil else { return .dose1Required }
        if let d2 = night.dose2 { return .dose2AlreadyTaken(at: d2.at.wall) }
        if night.skip != nil { return .dose2WasSkipped }
        let elapsed = elapsedSinceDose1(at: now) ?? .zero
        switch window.phase(elapsed: elapsed) {
        case .beforeWindow: return .snoozeBeforeWindow
        case .closed: return .windowExceeded
        default: break
        }
        if snoozeIsCutOff(elapsed: elapsed) { return .snoozeNearClose }
        if night.snoozeCount >= settings.rules.snooze.maxPerNight {
            return .snoozeLimit(max: settings.rules.snooze.maxPerNight)
        }
        return nil
    }

    /// How long the shell may wait before it must send `.tick`: the next alarm, the end of
    /// a ring or a confirmation, a window edge, or the night's fallback close.
    public func nextDeadline(at now: Moment) -> Duration? {
        var candidates: [Duration] = []
        if let elapsed = elapsedSinceDose1(at: now), !night.isDose2Resolved {
            if let next = remainingPlan.steps.first { candidates.append(next.offset - elapsed) }
            // The next caregiver escalation not given yet: it is told at its minute, not at the next alarm.
            if let next = caregiverPlan.steps.first(where: { $0.offset > elapsed && !night.hasNotified($0.alert) }) {
                candidates.append(next.offset - elapsed)
            }
            if let tick = minuteTicks.first(where: { $0 > elapsed }) { candidates.append(tick - elapsed) }
            let yellow = window.closesAfter - .minutes(settings.rules.led.yellowWithinMinOfClose)
            for edge in [window.opensAfter, yellow, window.nearCloseAfter, window.closesAfter] where edge > elapsed {
                candidates.append(edge - elapsed)
            }
        }
        if let r = ringing { candidates.append(settings.ringTime - now.elapsed(since: r.since)) }
        if let p = pending {
            candidates.append(.seconds(settings.rules.gestures.confirmationWindowS) - now.elapsed(since: p.since))
        }
        if let q = skipQuestion {
            candidates.append(.seconds(settings.rules.gestures.skipReasonWaitS) - now.elapsed(since: q.since))
        }
        if let c = checkIn, let d = checkInDeadline(c) { candidates.append(d.after - now.elapsed(since: d.since)) }
        if night.isOpen, !isWindowRunning(at: now), let close = fallbackClose() {
            candidates.append(.seconds(close.at.timeIntervalSince(now.wall)))
        }
        if let d = doubt { candidates.append(.seconds(d.until.timeIntervalSince(now.wall))) }
        if let e = evening {
            for at in [e.nextCheck, e.endsAt(settings.rules.pacing)].compactMap({ $0 }) { candidates.append(.seconds(at.timeIntervalSince(now.wall))) }
        }
        return candidates.min().map { max($0, .zero) }
    }

    /// When time next decides in a check-in: the count becomes the answer `answer_gap_ms`
    /// after the last press; with none, the wait runs out `question_wait_s` after the question.
    /// Nothing while a hold is down (its release decides).
    func checkInDeadline(_ c: CheckInProgress) -> (since: Moment, after: Duration)? {
        if c.holding { return nil }
        if c.presses > 0, let last = c.lastPress { return (last, .milliseconds(settings.rules.checkin.answerGapMs)) }
        return (c.asked, .seconds(settings.rules.checkin.questionWaitS))
    }

    /// The morning (#32): Dose 1 taken in the open night, Dose 2 taken, skipped or its window
    /// closed, and the wake time (`[schedule] wake`) reached since the night began. A hold then
    /// wakes the box and asks the check-in.
    public func isMorning(at now: Moment) -> Bool {
        guard night.isOpen, let s = night.session, night.dose1 != nil, !isWindowRunning(at: now) else { return false }
        return now.wall >= SessionRules.nextOccurrence(of: settings.rules.session.wakeTime, after: s.start.wall, timeZone: settings.timeZone)
    }

    /// When and why the open session closes if nobody checks in.
    func fallbackClose() -> FallbackClose? {
        guard night.isOpen, let s = night.session else { return nil }
        let basis = rolloverBasis
        if let c = fallbackCloseCache, c.basis == basis { return c }
        let close = SessionRules.fallbackClose(sessionStart: s.start.wall, prepRollover: nightRollover(of: s),
                                               timeZone: settings.timeZone, rules: settings.rules.session)
        return FallbackClose(basis: basis, at: close.at, reason: close.reason)
    }

    /// The prep-time rollover (18:00) that ends the night, SSOT 3.0's fallback B: the first
    /// after the session began, unless Dose 1's window was running at it with Dose 2 owed.
    /// The close waits for the window, and such a night (Dose 1 in the late afternoon) is
    /// the evening's own: it ends at the next day's rollover, so it closes the next morning
    /// like any night and reads `completed` after Dose 2, not "no dose yet tonight".
    func nightRollover(of s: SessionRecord) -> Date {
        let session = settings.rules.session
        let first = SessionRules.prepRollover(sessionStart: s.start.wall, timeZone: settings.timeZone, rules: session)
        guard let d1 = night.dose1?.at.wall, d1 < first,
              d1.addingTimeInterval(window.closesAfter.seconds) > first else { return first }
        if let resolved = (night.dose2 ?? night.skip)?.at.wall, resolved <= first { return first }
        return SessionRules.prepRollover(sessionStart: first, timeZone: settings.timeZone, rules: session)
    }

    /// What the night's rollover depends on: the session, its Dose 1 and how Dose 2 was resolved.
    var rolloverBasis: RolloverBasis {
        RolloverBasis(sessionID: night.session?.id ?? "", dose1ID: night.dose1?.id, resolvedID: (night.dose2 ?? night.skip)?.id)
    }

    mutating func cacheFallbackClose() {
        fallbackCloseCache = fallbackClose()
        completedUntilCache = night.closure.flatMap { _ in completedUntil().map { CompletedUntil(basis: rolloverBasis, until: $0) } }
    }

    /// Until when a closed night reads `completed`: its rollover (`nightRollover`), when the
    /// next night begins (SSOT 3.0's time boundary model).
    func completedUntil() -> Date? {
        guard night.closure != nil, let s = night.session else { return nil }
        if let cached = completedUntilCache, cached.basis == rolloverBasis { return cached.until }
        return nightRollover(of: s)
    }
}

struct RolloverBasis: Sendable, Hashable {
    var sessionID: String
    var dose1ID: String?
    var resolvedID: String?
}

struct CompletedUntil: Sendable, Hashable {
    var basis: RolloverBasis
    var until: Date
}

struct FallbackClose: Sendable, Hashable {
    var basis: RolloverBasis
    var at: Date
    var reason: CloseReason
}
