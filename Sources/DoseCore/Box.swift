import Foundation

/// Everything the box can be asked to do. Gestures come from a button's recogniser;
/// the rest from boxctl or from time passing.
public enum Action: Sendable, Hashable {
    case gesture(Gesture, button: String)
    /// Take the next dose. Early or late needs `confirmed` (boxctl take --confirm).
    case takeDose(confirmed: Bool)
    /// Answer a pending early/late confirmation (the confirm hold does this on the button).
    case confirm
    case skipDose2(reason: SkipReason?)
    case snooze
    case undo
    /// The only way to record a dose after Dose 2: explicit and confirmed, from boxctl.
    case extraDose(confirmed: Bool)
    /// `confirmed` ends a night that still owes Dose 2 (wake_final): it records the skip first.
    case logSleepEvent(SleepEventType, notes: String?, confirmed: Bool = false)
    /// `confirmed` closes a night that still owes Dose 2: it records the skip first.
    case checkIn(CheckInAnswers, confirmed: Bool = false)
    case stopAlarm
    case setTarget(minutes: Int, confirmed: Bool)
    case setFault(Fault, active: Bool)
    /// The shell read the supply anew (after a dose, a refill or an adjustment).
    case supplyChanged(SupplyStatus?)
    /// Time passing: alarms fall due, confirmations time out, sessions close.
    case tick
    /// The shell could not establish tonight's doses from the log (a damaged file, salvaged
    /// in part, `since` then): until that night ends no dose is recorded without a
    /// confirmation. After a restart the shell sends it again with the same `since`.
    case enterDoubt(since: Date)
    /// The log could not be read at start (the doubt) and now can: tonight is what it holds,
    /// and the doubt that came from not reading it is over.
    case restoreNight(PersistedNight)
    /// The shell could not write what the last action recorded, so none of it happened.
    /// Sent with that action's source: a hand on the button hears the error tone; a boxctl
    /// caller learns it from the reply (exit 6) and the bedroom stays quiet.
    case persistFailed
    /// The shell played an alarm the core announced as rung, and the speaker failed it (the
    /// shell learns that only when it plays). The core answers with the audio fault and a
    /// notice that the alarm could not sound; the shell writes no "rang" notice for it.
    case alarmNotHeard(AlertKind, AlarmLevel)
}

/// The clocks now, who is acting, and fresh ids for any records (the core makes no randomness).
public struct Context: Sendable, Hashable {
    public var now: Moment
    public var source: Source
    public var ids: [String]

    public init(now: Moment, source: Source = .system, ids: [String] = []) {
        self.now = now
        self.source = source
        self.ids = ids
    }
}

/// What the shell must do, in order. `persist` always comes first: the shell writes the
/// records in one transaction and performs the rest only after the commit returned. If
/// the write fails it keeps the old state, performs nothing of this list, and sends
/// `.persistFailed` with the same source: the core decides what the failure looks like.
/// Timers are not effects: the shell wakes at `BoxState.nextDeadline` after every transition.
public enum Effect: Sendable, Hashable {
    case persist([LogRecord])
    /// The steady LED pattern from now on. It does not cut short a flash in progress.
    case led(LEDPattern)
    /// A pattern laid over the steady one: once, or repeated for `duration`.
    case flash(LEDPattern, duration: Duration?)
    case play(Sound)
    /// Say this sentence after the sound before it (#15). Never instead of a tone, and an
    /// alarm wins: the shell drops speech that an alarm or a stop overtakes, with a log line.
    case speak(String)
    case stopSound
    /// The target interval changed; the shell stores the setting.
    case saveTarget(Int)
    /// Write this notice after the other effects, best effort: an alarm never waits for a
    /// disk, and a notice that cannot be written now is kept for the next write. An
    /// `alarmRang` notice says the `.play` of its alarm before it was heard: if that play
    /// failed, the shell drops the notice and sends `.alarmNotHeard` instead.
    case notice(NoticeRecord)
    /// A fault raised or cleared, for the log: written like a notice (after the sounds, kept
    /// for the next write when the disk refuses it).
    case faultNotice(FaultRecord)
}

/// What a pending confirmation is for: an early or late Dose 2, or any dose while the
/// record of tonight is in doubt.
public enum ConfirmKind: String, Sendable, Hashable, Codable { case early, late, doubt }

/// What an accepted action did, for replies and logs.
public enum Acceptance: Sendable, Hashable {
    case recorded(DoseEventType)
    /// Dose 2 before the window, with how long after Dose 1 it came.
    case recordedEarly(minutesAfterDose1: Int)
    /// A hold answered a repeated press: nothing was undone, the dose stands.
    case repeatCancelled(DoseEventType, at: Date)
    case doubtEntered
    case nightRestored
    case loggedSleepEvent(SleepEventType)
    case checkedIn(TerminalState)
    case undone(DoseEventType)
    case awaitingConfirmation(ConfirmKind)
    case confirmationCancelled
    case status
    case alarmStopped
    case targetSet(Int)
    case acknowledged
    case faultChanged
    case supplyChanged

    public var message: String {
        switch self {
        case .recorded(.dose1): "Dose 1 recorded."
        case .recorded(.dose2): "Dose 2 recorded."
        case .recorded(.extraDose): "STOP – Dose 2 already taken tonight; more is a health hazard. Extra dose recorded; Dose 2's time is unchanged."
        case .recorded(.dose2Skipped): "Dose 2 skipped."
        case .recorded(.snooze): "Snoozed for \(DoseConstants.number(DoseConstants.box.snooze.stepMin)) minutes."
        case .recordedEarly(let m):
            "Dose 2 recorded early: \(m) minutes after Dose 1, \(Int(DoseConstants.box.window.openMin) - m) minutes before the window opens."
        case .repeatCancelled(let t, _): "The repeated press recorded nothing; \(t.label) stands."
        case .doubtEntered: Refusal.doubtText
        case .nightRestored: "Tonight's record can be read again."
        case .loggedSleepEvent(let t): "Logged \(t.rawValue)."
        case .checkedIn(let s): "Check-in saved; the night is closed (\(s.rawValue))."
        case .undone(let t): "Undone: \(t.rawValue)."
        case .awaitingConfirmation(.doubt): "Tonight's record is in doubt: \(Self.confirmHint)"
        case .awaitingConfirmation(let kind): "Dose 2 is \(kind.rawValue): \(Self.confirmHint)"
        case .confirmationCancelled: "Cancelled; nothing recorded."
        case .status: "Status shown."
        case .alarmStopped: "Alarm stopped."
        case .targetSet(let m): "Target set to \(m) minutes."
        case .acknowledged: "OK."
        case .faultChanged: "Fault state updated."
        case .supplyChanged: "Supply updated."
        }
    }

    /// "hold the button 2 s within 15 s to confirm", from the gesture constants.
    static var confirmHint: String {
        let g = DoseConstants.box.gestures
        return "hold the button \(DoseConstants.number(Double(g.confirmHoldMs) / 1000)) s within \(DoseConstants.number(g.confirmationWindowS)) s to confirm."
    }
}

/// Why an action was refused, with the seeds' codes and user messages where they have one.
public enum Refusal: Sendable, Hashable {
    case dose1Required
    case snoozeLimit(max: Int)
    case snoozeNearClose
    case snoozeBeforeWindow
    case windowExceeded
    case dose2AlreadyTaken(at: Date)
    case dose2WasSkipped
    case needsConfirmation(ConfirmKind)
    case skipBeforeWindow
    case undoExpired(windowSeconds: Int)
    case nothingToUndo
    case cooldown(SleepEventType, remainingSeconds: Int)
    case noOpenSession
    case invalidCheckIn
    case invalidTarget(Int, valid: [Int])
    case targetNeedsConfirmation(Int)
    case extraDoseNeedsConfirmation
    case extraDoseOnlyFromCLI
    case extraDoseBeforeDose2
    case nothingToConfirm
    case unknownButton(String)
    /// A press that repeats a dose just recorded (or Dose 1 before the floor): nothing starts.
    case alreadyRecorded(DoseEventType, at: Date)
    /// Check-in or wake-final while Dose 2 is still owed tonight.
    case dose2Owed(windowOpens: Date, windowCloses: Date)
    /// A new Dose 1 this soon after the last dose of the previous night.
    case tooSoonAfterLastDose(lastAt: Date, minutesAgo: Int)
    /// Tonight's record could not be read; a dose needs a confirmation.
    case recordInDoubt
    case napInProgress(since: Date)
    case noNapInProgress
    /// The same medication logged less than the guard (5 min) from this one.
    case duplicateMedication(name: String, at: Date)
    case invalidMedication(String)
    case invalidSupply(String)

    public var code: String {
        switch self {
        case .dose1Required: "422_DOSE1_REQUIRED"
        case .snoozeLimit: "422_SNOOZE_LIMIT"
        case .snoozeNearClose: "422_SNOOZE_DISABLED"
        case .snoozeBeforeWindow: "422_WINDOW_NOT_OPEN"
        case .windowExceeded: "422_WINDOW_EXCEEDED"
        case .dose2AlreadyTaken: "409_ALREADY_TAKEN"
        case .dose2WasSkipped: "409_DOSE2_SKIPPED"
        case .needsConfirmation: "428_CONFIRMATION_REQUIRED"
        case .skipBeforeWindow: "422_WINDOW_NOT_OPEN"
        case .undoExpired: "410_UNDO_EXPIRED"
        case .nothingToUndo: "404_NOTHING_TO_UNDO"
        // Not 429_RATE_LIMIT: that is request throttling; this is the event's own cooldown.
        case .cooldown: "425_EVENT_COOLDOWN"
        case .noOpenSession: "404_NO_SESSION"
        case .invalidCheckIn: "400_INVALID_CHECKIN"
        case .invalidTarget: "400_INVALID_TARGET"
        case .targetNeedsConfirmation: "428_CONFIRMATION_REQUIRED"
        case .extraDoseNeedsConfirmation: "428_CONFIRMATION_REQUIRED"
        case .extraDoseOnlyFromCLI: "403_EXTRA_DOSE_CLI_ONLY"
        case .extraDoseBeforeDose2: "409_DOSE2_NOT_TAKEN"
        case .nothingToConfirm: "404_NOTHING_TO_CONFIRM"
        case .unknownButton: "404_UNKNOWN_BUTTON"
        case .alreadyRecorded: "409_ALREADY_TAKEN"
        case .dose2Owed: "409_DOSE2_OWED"
        case .tooSoonAfterLastDose: "428_CONFIRMATION_REQUIRED"
        case .recordInDoubt: "428_RECORD_IN_DOUBT"
        case .napInProgress: "409_NAP_IN_PROGRESS"
        case .noNapInProgress: "409_NO_NAP_IN_PROGRESS"
        case .duplicateMedication: "409_DUPLICATE_MEDICATION"
        case .invalidMedication: "400_INVALID_MEDICATION"
        case .invalidSupply: "400_INVALID_SUPPLY"
        }
    }

    /// The text shown to the person, in their time zone; `time` says a time of day another
    /// way (the voice's 12-hour clock), else "22:05".
    public func message(timeZone: TimeZone, time: ((Date) -> String)? = nil) -> String {
        let clock = time ?? { Refusal.clock($0, timeZone) }
        return switch self {
        case .dose1Required: "Please take Dose 1 first."
        case .snoozeLimit(let max): "Maximum snoozes reached (\(max)). Take dose now or skip."
        case .snoozeNearClose:
            "Snooze is disabled when \(DoseConstants.number(DoseConstants.box.snooze.disabledBelowRemainingMin)) minutes or less remain. Take dose now or skip."
        case .snoozeBeforeWindow: "The Dose 2 window is not open yet; there is nothing to snooze."
        case .windowExceeded: "Dose 2 window has expired. Please skip this dose."
        case .dose2AlreadyTaken(let at):
            // The seed's 409_ALREADY_TAKEN text, then its safety alert.
            "This dose was already taken at \(clock(at)). STOP – another dose tonight is a health hazard."
        case .dose2WasSkipped: "Dose 2 was skipped tonight; nothing more to take."
        case .needsConfirmation(.early): "The Dose 2 window is not open yet. Taking Dose 2 early needs confirmation (--confirm)."
        case .needsConfirmation(.late): "The Dose 2 window has expired. Taking Dose 2 late needs confirmation (--confirm)."
        case .needsConfirmation(.doubt): Refusal.doubtText + " To record a dose anyway, add --confirm."
        case .skipBeforeWindow: "Skipping Dose 2 is possible once the window opens."
        case .undoExpired(let s): "The undo window (\(s) s) has passed."
        case .nothingToUndo: "There is no dose action to undo."
        case .cooldown(let t, let s): "\(t.rawValue) was logged moments ago; it can be logged again in \(s) s."
        case .noOpenSession: "There is no open night."
        case .invalidCheckIn: "Check-in answers out of range: quality 1–5, mental clarity 1–10."
        case .invalidTarget(let m, let valid):
            "\(m) is not a valid target; choose one of \(valid.map(String.init).joined(separator: ", ")) minutes."
        case .targetNeedsConfirmation(let m):
            "Setting the target to \(m) minutes moves the wake alarm. Dose 2 must still be taken \(DoseConstants.box.windowText) minutes after Dose 1; confirm with --confirm."
        case .extraDoseNeedsConfirmation:
            "STOP – Dose 2 already taken. An extra dose is a health hazard; record it only if it really happened, with --confirm."
        case .extraDoseOnlyFromCLI: "An extra dose can only be recorded with `boxctl dose extra --confirm`."
        case .extraDoseBeforeDose2: "Dose 2 has not been taken; an extra dose can only follow Dose 2."
        case .nothingToConfirm: "There is nothing waiting for confirmation."
        case .unknownButton(let name): "No button named \(name)."
        case .alreadyRecorded(.dose1, let at):
            "This dose was already taken at \(clock(at)). Dose 2 is due from \(clock(at.addingTimeInterval(DoseConstants.box.window.openMin * 60)))."
        case .alreadyRecorded(_, let at): "This dose was already taken at \(clock(at))."
        case .dose2Owed(let opens, let closes):
            "Dose 2 is still owed tonight (window \(clock(opens))–\(clock(closes))). Take it or skip it first; --confirm ends the night and records Dose 2 as skipped."
        case .tooSoonAfterLastDose(let at, let m):
            "The last dose was taken at \(clock(at)), \(m) minutes ago. A new Dose 1 this soon needs confirmation (--confirm)."
        case .recordInDoubt: Refusal.doubtText + " To record a dose anyway, add --confirm."
        case .napInProgress(let since): "A nap is already in progress (started \(clock(since))); log nap_end first."
        case .noNapInProgress: "No nap is in progress; log nap_start first."
        case .duplicateMedication(let name, let at):
            "\(name) was already logged at \(clock(at)), less than \(DoseConstants.number(DoseConstants.box.medication.duplicateGuardMin)) minutes from this one. If it was really taken twice, log it with --confirm."
        case .invalidMedication(let detail): "Not logged: \(detail)."
        case .invalidSupply(let detail): "Not logged: \(detail)."
        }
    }

    /// The one line that explains the doubt state, in status and in refusals.
    public static let doubtText = "I could not read tonight's record. If you took Dose 1 or Dose 2 tonight, do not take more."

    static func clock(_ date: Date, _ tz: TimeZone) -> String { LocalTime.hhmm(date, in: tz) }
}

/// "22:05": a wall time as the patient reads it. The one HH:MM formatter (refusals,
/// status, history).
public enum LocalTime {
    public static func hhmm(_ date: Date, in zone: TimeZone) -> String {
        let c = SessionRules.calendar(zone).dateComponents([.hour, .minute], from: date)
        return SessionRules.pad(c.hour ?? 0, 2) + ":" + SessionRules.pad(c.minute ?? 0, 2)
    }

    /// HH:MM:SS in `zone` at that instant (its offset then, DST included); seconds truncated.
    public static func hhmmss(_ date: Date, in zone: TimeZone) -> String {
        let c = SessionRules.calendar(zone).dateComponents([.hour, .minute, .second], from: date)
        return SessionRules.pad(c.hour ?? 0, 2) + ":" + SessionRules.pad(c.minute ?? 0, 2) + ":" + SessionRules.pad(c.second ?? 0, 2)
    }
}

public enum Outcome: Sendable, Hashable {
    case accepted(Acceptance)
    case refused(Refusal)
    /// Nothing to do (a release, a tick with nothing due).
    case ignored
}

/// Tonight's doses could not be established from the log. Ends at `until` (the next
/// prep-time rollover) or when a night closes, whichever comes first.
public struct Doubt: Sendable, Hashable {
    public var since: Date
    public var until: Date
}

/// A press answered as a repeat of the dose recorded at `doseID`; a hold within the undo
/// window then cancels the repeat instead of undoing the dose.
public struct AbsorbedRepeat: Sendable, Hashable {
    public var doseID: String
    public var at: Moment
}

public struct PendingConfirmation: Sendable, Hashable {
    public var kind: ConfirmKind
    public var since: Moment
    public var button: String
}

public struct Ringing: Sendable, Hashable {
    public var step: AlarmStep
    public var since: Moment
}

/// Which plan steps have been rung: those at or before `through`, for this Dose 1.
public struct AlarmCursor: Sendable, Hashable {
    public var dose1ID: String
    public var through: Duration
}

public struct Transition: Sendable {
    public var state: BoxState
    public var effects: [Effect]
    public var outcome: Outcome

    /// The records to write first, if any.
    public var records: [LogRecord] {
        if case .persist(let r)? = effects.first { return r }
        return []
    }
}
