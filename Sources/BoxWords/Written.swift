import DoseCore
import Foundation

/// The written words: boxctl's replies, the status report, the feed and the caregiver bridge.
/// Times of day as "22:05", in the person's zone; a confirmation is `--confirm`.
public enum Written {
    /// A refusal, in the seeds' words where they give one.
    public static func refusal(_ r: Refusal, in zone: TimeZone) -> String {
        refusalSentence(r, in: zone, clock: { LocalTime.hhmm($0, in: zone) }, confirm: confirm)
    }

    static let confirm = ConfirmWords(suffix: " (--confirm)", anyway: "add --confirm", by: "with --confirm", confirmIt: "confirm with --confirm",
                                      endsNight: "--confirm", extraDoseOnly: "with `boxctl dose extra --confirm`")

    /// The one line that explains the doubt state, in status and in refusals.
    public static let doubt = "I could not read tonight's record. If you took Dose 1 or Dose 2 tonight, do not take more."

    /// What an accepted command did; times of day in `zone`.
    public static func acceptance(_ a: Acceptance, in zone: TimeZone) -> String {
        switch a {
        case .recorded(.dose1): "Dose 1 recorded."
        case .recorded(.dose2): "Dose 2 recorded."
        case .recorded(.extraDose): "STOP – Dose 2 already taken tonight; more is a health hazard. Extra dose recorded; Dose 2's time is unchanged."
        case .recorded(.dose2Skipped): "Dose 2 skipped."
        case .recorded(.snooze): "Snoozed for \(DoseConstants.number(DoseConstants.box.snooze.stepMin)) minutes."
        case .recordedEarly(let m):
            "Dose 2 recorded early: \(m) minutes after Dose 1, \(Int(DoseConstants.box.window.openMin) - m) minutes before the window opens."
        case .repeatCancelled(let t, _): "The repeated press recorded nothing; \(label(t)) stands."
        case .doubtEntered: doubt
        case .nightRestored: "Tonight's record can be read again."
        case .loggedSleepEvent(let t): "Logged \(t.rawValue)."
        case .checkedIn(let s): "Check-in saved; the night is closed (\(s.rawValue))."
        case .undone(let t): "Undone: \(t.rawValue)."
        case .awaitingConfirmation(.doubt): "Tonight's record is in doubt: \(confirmHint)"
        case .awaitingConfirmation(.alcohol): "Alcohol was logged today (XYWAV must not be taken with alcohol): \(confirmHint)"
        case .awaitingConfirmation(let kind): "Dose 2 is \(kind.rawValue): \(confirmHint)"
        case .confirmationCancelled: "Cancelled; nothing recorded."
        case .skipReasonAsked: "Skipping Dose 2: the box asks why (one press drowsy, two side effects, or wait: other)."
        case .skipCancelled: "Skip cancelled; nothing recorded."
        case .checkInStep(let step): checkInStep(step)
        case .status: "Status shown."
        case .alarmStopped: "Alarm stopped."
        case .targetSet(let m): "Target set to \(m) minutes."
        case .acknowledged: "OK."
        case .faultChanged: "Fault state updated."
        case .supplyChanged: "Supply updated."
        case .drinksChanged: "Drinks updated."
        case .drinkLogged(let d, let n):
            "Logged \(d.type.rawValue) (\(units(d.units))) at \(LocalTime.hhmm(d.at, in: zone))"
                + "; \(drinks(n)) tonight."
        case .drinkUndone(let d): "Undone: the \(d.type.rawValue) at \(LocalTime.hhmm(d.at, in: zone))."
        case .paced(let told): told.isEmpty ? "Pace checked." : told.map(\.message).joined(separator: " ")
        case .eveningRestored: "Evening restored."
        case .preSleepLogged(let log, let edited): (edited ? "Pre-sleep log updated" : "Pre-sleep log saved") + " for the night of \(log.sessionDate)."
        case .medicationLogged(let r):
            "Logged \(MedicationType.named(r.medicationID)?.name ?? r.medicationID) \(DoseConstants.number(r.doseValue)) \(r.doseUnit)"
                + " at \(LocalTime.hhmm(r.takenAt, in: zone))\(r.confirmedDuplicate ? " (a confirmed duplicate)" : ""), night of \(r.sessionDate)."
        case .forgot(let plan, let range): forgetting(plan, range, counts: nil, done: true, in: zone)
        case .supplyLogged(let r):
            (r.kind == .refillLogged ? "Refill logged: +\(r.doses) doses." : "Supply corrected by \(r.doses) doses.")
                + " Supply: \(supply(SupplyStatus(remainingDoses: r.remainingAfter)))."
        }
    }

    /// A night's evening before, for history and the report: "2 drinks (2 units) · caffeine 2, last 15:30 · stress 5/10 · exercise light 30 min".
    public static func evening(_ e: EveningFacts?, zone: TimeZone) -> String {
        guard let e else { return "—" }
        var parts: [String] = []
        if e.hadAlcohol {
            parts.append("\(e.alcoholicDrinks) drink\(e.alcoholicDrinks == 1 ? "" : "s")" + (e.units > 0 ? " (\(units(e.units)))" : ""))
        }
        if let p = e.preSleep {
            if let c = p.caffeineCups { parts.append("caffeine \(c)" + (p.caffeineCutoff.map { ", last \(LocalTime.hhmm($0, in: zone))" } ?? "")) }
            if let s = p.stressLevel { parts.append("stress \(s)/\(DoseConstants.box.preSleep.stressMax)") }
            if let x = p.exerciseType, x != .none { parts.append("exercise \(x.rawValue)" + (p.exerciseDuration.map { " \($0) min" } ?? "")) }
        }
        return parts.isEmpty ? "—" : parts.joined(separator: " · ")
    }

    /// "1 unit", "2.5 units": standard drink units.
    public static func units(_ u: Double) -> String { "\(DoseConstants.number(u)) unit\(u == 1 ? "" : "s")" }

    /// "1 drink", "3 drinks": alcoholic drinks, counted (never a BAC).
    public static func drinks(_ n: Int) -> String { "\(n) drink\(n == 1 ? "" : "s")" }

    /// A step of the check-in by the button, as the journal and the feed write it.
    static func checkInStep(_ step: CheckInStep) -> String {
        switch step {
        case .started(let q): "Morning: wake-final; the check-in asks question \(q.number)."
        case .answered(let q, let n, let next): "Check-in question \(q.number): \(n) press\(n == 1 ? "" : "es"); asks \(next.number)."
        case .outOfRange(let q, let n): "Check-in question \(q.number): \(n) presses is out of range; asked again."
        case .back(let q): "Check-in: back to question \(q.number)."
        case .stopped(let answered): "Check-in stopped after \(answered) answers; nothing saved."
        case .alreadySaved: "The check-in is already saved; nothing changed."
        case .saved(_, _, let early): early ? "Check-in saved early; unanswered questions keep the defaults." : "Check-in saved."
        }
    }

    /// "hold the button 2 s within 15 s to confirm", from the gesture constants.
    static var confirmHint: String {
        let g = DoseConstants.box.gestures
        return "hold the button \(DoseConstants.number(Double(g.confirmHoldMs) / 1000)) s within \(DoseConstants.number(g.confirmationWindowS)) s to confirm."
    }

    /// A dose event as people read it: "Dose 1", "the skip of Dose 2".
    public static func label(_ type: DoseEventType) -> String {
        switch type {
        case .dose1: "Dose 1"
        case .dose2: "Dose 2"
        case .extraDose: "the extra dose"
        case .dose2Skipped: "the skip of Dose 2"
        case .snooze: "the snooze"
        }
    }

    /// One line that says what is wrong and what to do.
    public static func advice(_ fault: Fault) -> String {
        switch fault {
        case .audioUnavailable: "Alarms cannot sound: check the speaker and `boxctl doctor`; the box keeps retrying."
        case .logUnwritable: "Doses cannot be saved: the night log is not writable; check the SD card and /var/lib/boxd."
        case .logRecovered: "The night log was damaged and set aside; every readable row was carried into a new one (figures in the journal). Keep the .corrupt file for support."
        case .logLostRecords:
            "The night log lost records it had saved (a file lost or restored from an older copy); the doses its witness knew were put back. Tonight is in doubt: confirm a dose by holding the button. Keep the .behind file for support."
        case .witnessRebuilt:
            "The night log's witness file was missing or damaged and was made again from the log. If no one restored files by hand, check the SD card."
        case .buttonStuck(let name): "Button \(name) seems stuck down; it was treated as released. Check the button and its wiring."
        case .gpioUnavailable: "The buttons or LED cannot be reached: check the GPIO chip in boxd.toml and `boxctl doctor`; the box keeps retrying."
        case .buttonsSimulated: "SIMULATED buttons and LED: no config file names a GPIO chip and none was found. A real button does nothing."
        case .clockUnsynced:
            "The wall clock is not synchronised: times shown may be off, and after a reboot the dose window is measured on this clock, so it may be off too."
        }
    }

    /// "12 doses (6 nights)", and how to log a refill when one is due.
    public static func supply(_ s: SupplyStatus) -> String {
        "\(count(s.remainingDoses, "dose")) (\(count(s.remainingNights, "night")))"
            + (s.refillDue ? "; refill due: log it with boxctl supply refill" : "")
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// Why an amount is not a dose, after its name: "must be positive" (the caller says "the
    /// dose", "dose" or "--dose").
    public static func doseProblem(_ p: DoseProblem) -> String {
        switch p {
        case .unknownUnit: "must be given in \(MedicationLog.units.joined(separator: ", "))"
        case .notANumber: "must be a number"
        case .notPositive: "must be positive"
        case .outOfRange(let unit, let minMg, let maxMg, let perUnit):
            "must be from \(DoseConstants.number(minMg)) to \(DoseConstants.number(maxMg)) mg"
                + (unit == "mg" ? "" : " (\(DoseConstants.number(minMg / perUnit)) to \(DoseConstants.number(maxMg / perUnit)) \(unit))")
                + ", the range of a real dose of Adderall"
        }
    }

    static func medicationProblem(_ p: MedicationProblem, in zone: TimeZone, clock: (Date) -> String) -> String {
        switch p {
        case .unknownMedication(let id): "unknown medication \(id); known: \(MedicationType.known.map(\.id).joined(separator: ", "))"
        case .unknownUnit: "the unit must be one of \(MedicationLog.units.joined(separator: ", "))"
        case .dose(let d): "the dose \(doseProblem(d))"
        case .inFuture(let at): "\(clock(at)) is in the future"
        case .tooLongAgo(let at, let days):
            "\(dateTime(at, in: zone)) is more than \(DoseConstants.number(days)) days ago; only what was taken in the last \(DoseConstants.number(days)) days is logged (is the date right?)"
        }
    }

    /// "2026-11-21 08:00" in `zone`, for a time that may be any day.
    static func dateTime(_ date: Date, in zone: TimeZone) -> String {
        let c = SessionRules.calendar(zone).dateComponents([.year, .month, .day], from: date)
        return "\(SessionRules.pad(c.year ?? 0, 4))-\(SessionRules.pad(c.month ?? 0, 2))-\(SessionRules.pad(c.day ?? 0, 2)) \(LocalTime.hhmm(date, in: zone))"
    }

    static func supplyProblem(_ p: SupplyProblem) -> String {
        switch p {
        case .refillOutOfRange(let limit): "a refill adds 1 to \(limit) doses"
        case .adjustmentOutOfRange(let limit): "an adjustment changes the count by 1 to \(limit) doses, up or down"
        case .belowZero(let wouldBe, let now): "the count would be \(wouldBe); there are \(now) doses"
        }
    }

    /// "2026-11-01 to 2026-11-20", "up to 2026-11-20".
    public static func range(_ r: Forgetting.Range) -> String { r.from.map { "\($0) to \(r.to)" } ?? "up to \(r.to)" }

    static func nothingToForget(_ range: Forgetting.Range, kept: [Forgetting.Kept], in zone: TimeZone) -> String {
        (["No night to forget \(Self.range(range))."] + keptLines(kept, in: zone)).joined(separator: " ")
    }

    /// A deletion asked for (`done` false: the confirmation it needs) or done, with what it
    /// removes table by table when the log has counted it.
    public static func forgetting(_ plan: Forgetting.Plan, _ range: Forgetting.Range, counts: Forgetting.Counts?, done: Bool,
                                  in zone: TimeZone) -> String {
        let what = counts.map(Self.counts) ?? count(plan.forget.count, "night")
        let head = done ? "Deleted \(what), \(Self.range(range))."
            : "This deletes \(what), \(Self.range(range)). It cannot be undone; export first if you want a copy. Add --confirm to delete."
        return ([head] + keptLines(plan.kept, in: zone)).joined(separator: " ")
    }

    /// "1 night: 2 dose events, 0 sleep events, 0 check-ins, 3 notices, 0 medication entries".
    public static func counts(_ c: Forgetting.Counts) -> String {
        "\(count(c.nights, "night")): \(c.doseEvents) dose events, \(c.sleepEvents) sleep events, \(c.checkIns) check-ins, \(c.notices) notices, \(c.medications) medication entries"
    }

    static func keptLines(_ kept: [Forgetting.Kept], in zone: TimeZone) -> [String] {
        kept.map { "\($0.night.sessionDate) is kept: \(keptReason($0.because, in: zone))." }
    }

    /// Why a night stays when asked to forget it.
    public static func keptReason(_ because: Forgetting.KeptBecause, in zone: TimeZone) -> String {
        switch because {
        case .latestNight: "it is the box's latest night (its safety rules read it); it can go once the next night has begun"
        case .recentDose(let at):
            "a dose was taken at \(LocalTime.hhmm(at, in: zone)), less than \(DoseConstants.number(DoseConstants.box.safety.newDose1AfterLastDoseMin)) minutes ago"
        }
    }

    /// Why the planner suggests what it does, for `boxctl plan` and the report.
    public static func explanation(_ s: Planner.Suggestion) -> String {
        let p = DoseConstants.box.planner
        let avg = s.averageInterval.map { "\(Int($0.rounded()))-min" } ?? "no"
        switch s.reason {
        case .revertAfterMissedWindows:
            return "the last \(s.missedInARow) nights with Dose 1 all missed the window; back to \(p.baselineTargetMin) min"
        case .insufficientData:
            return "\(s.nightsInWeek) finished nights with Dose 1 in the last \(p.weekDays) days; \(p.minNightsInWeek) are needed before any change"
        case .targetChangedThisWeek:
            return "the target changed in the last \(p.weekDays) days; it gets a whole week before the next change"
        case .tooVariable:
            let pct = s.consistency.map { "\(Int(($0 * 100).rounded()))%" } ?? "none"
            return "too variable: \(pct) of the week's nights within ±\(DoseConstants.number(p.consistencyBandMin)) min of the \(avg) average (\(Int((p.minConsistency * 100).rounded()))% needed); back to \(p.baselineTargetMin) min"
        case .nudgeDown:
            return "the week's \(avg) average is under \(DoseConstants.number(p.nudgeDownBelowAvgMin)) min; \(p.nudgeStepMin) min earlier"
        case .nudgeUp:
            return "the week's \(avg) average is over the target + \(DoseConstants.number(p.nudgeUpAboveTargetMin)) min; \(p.nudgeStepMin) min later"
        case .keep:
            return "the week's \(avg) average fits the target"
        }
    }
}
