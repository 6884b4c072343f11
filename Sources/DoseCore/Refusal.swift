import Foundation

/// Why an action was refused, with the seeds' codes and the facts a message needs; the words
/// are the edge's (`BoxWords`).
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
    /// Dose 1 with alcoholic drinks logged within the look-back: a confirmation first (#33).
    case alcoholLogged(drinks: Int)
    /// `boxctl drink undo` with no drink in the evening's open session.
    case noDrinkToUndo
    case invalidDrink(String)
    case invalidPreSleep(String)
    /// The pre-sleep log of a night whose Dose 1 is taken: it was the evening before.
    case preSleepAfterDose1(String)
    case napInProgress(since: Date)
    case noNapInProgress
    /// The same medication logged less than the guard (5 min) from this one.
    case duplicateMedication(name: String, at: Date)
    case invalidMedication(MedicationProblem)
    case invalidSupply(SupplyProblem)
    /// No night of the range may go; `kept` says why each stays.
    case nothingToForget(Forgetting.Range, kept: [Forgetting.Kept])
    case forgetNeedsConfirmation(Forgetting.Plan, Forgetting.Range)

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
        case .alcoholLogged: "428_CONFIRMATION_REQUIRED"
        case .noDrinkToUndo: "404_NOTHING_TO_UNDO"
        case .invalidDrink: "400_INVALID_DRINK"
        case .invalidPreSleep: "400_INVALID_PRESLEEP"
        case .preSleepAfterDose1: "409_DOSE1_TAKEN"
        case .napInProgress: "409_NAP_IN_PROGRESS"
        case .noNapInProgress: "409_NO_NAP_IN_PROGRESS"
        case .duplicateMedication: "409_DUPLICATE_MEDICATION"
        case .invalidMedication: "400_INVALID_MEDICATION"
        case .invalidSupply: "400_INVALID_SUPPLY"
        case .nothingToForget: "404_NOTHING_TO_FORGET"
        case .forgetNeedsConfirmation: "428_CONFIRMATION_REQUIRED"
        }
    }
}

/// "22:05": a wall time as the patient reads it. The one HH:MM formatter (refusals,
/// status, history).
public enum LocalTime {
    public static func hhmm(_ date: Date, in zone: TimeZone) -> String {
        String(hhmmss(date, in: zone).prefix(5))
    }

    /// HH:MM:SS in `zone` at that instant (its offset then, DST included); seconds truncated.
    /// The offset, then arithmetic: a calendar's components cost several times more, and a
    /// ten-year export writes 7,300 of these.
    public static func hhmmss(_ date: Date, in zone: TimeZone) -> String {
        let local = (date.timeIntervalSince1970 + TimeInterval(zone.secondsFromGMT(for: date))).rounded(.down)
        let second = Int(local.truncatingRemainder(dividingBy: 86_400) + 86_400) % 86_400
        return SessionRules.pad(second / 3600, 2) + ":" + SessionRules.pad(second / 60 % 60, 2) + ":" + SessionRules.pad(second % 60, 2)
    }
}
