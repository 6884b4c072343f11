import Foundation

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
