import DoseCore
import Foundation

/// How a confirmation is asked for: on the command line a flag, at the bedside a hold.
struct ConfirmWords {
    /// Ends "… needs confirmation": " (--confirm)".
    var suffix: String
    /// After "To record a dose anyway, ": "add --confirm".
    var anyway: String
    /// "with --confirm" or "by confirming".
    var by: String
    /// A sentence's last words: "confirm with --confirm".
    var confirmIt: String
    /// What ends an owed night: "--confirm".
    var endsNight: String
    /// Where an extra dose can be recorded.
    var extraDoseOnly: String
}

/// A refusal's sentence: the seed's text where it has one (SSOT 2.4.3 error codes; pinned in
/// BoxWordsTests), else the box's. One place for both the written and the spoken words: they
/// differ in how a confirmation is asked for and how a time of day is said.
func refusalSentence(_ r: Refusal, in zone: TimeZone, clock: (Date) -> String, confirm c: ConfirmWords) -> String {
    switch r {
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
    case .needsConfirmation(.early): "The Dose 2 window is not open yet. Taking Dose 2 early needs confirmation\(c.suffix)."
    case .needsConfirmation(.late): "The Dose 2 window has expired. Taking Dose 2 late needs confirmation\(c.suffix)."
    case .needsConfirmation(.doubt), .recordInDoubt: Written.doubt + " To record a dose anyway, \(c.anyway)."
    case .needsConfirmation(.alcohol): "Alcohol was logged today. The dose needs confirmation\(c.suffix)."
    case .alcoholLogged(let n):
        "You logged \(n) alcoholic drink\(n == 1 ? "" : "s") today. XYWAV must not be taken with alcohol. To record the dose anyway, \(c.anyway)."
    case .skipBeforeWindow: "Skipping Dose 2 is possible once the window opens."
    case .undoExpired(let s): "The undo window (\(s) s) has passed."
    case .nothingToUndo: "There is no dose action to undo."
    case .noDrinkToUndo: "There is no drink this evening to undo."
    case .invalidDrink(let why): "Not logged: \(why)."
    case .invalidPreSleep(let why): "Not saved: \(why)."
    case .preSleepAfterDose1(let date): "Dose 1 of the night of \(date) is taken: its pre-sleep log can no longer change."
    case .cooldown(let t, let s): "\(t.rawValue) was logged moments ago; it can be logged again in \(s) s."
    case .noOpenSession: "There is no open night."
    case .invalidCheckIn: "Check-in answers out of range: quality 1–5, mental clarity 1–10."
    case .invalidTarget(let m, let valid):
        "\(m) is not a valid target; choose one of \(valid.map(String.init).joined(separator: ", ")) minutes."
    case .targetNeedsConfirmation(let m):
        "Setting the target to \(m) minutes moves the wake alarm. Dose 2 must still be taken \(DoseConstants.box.windowText) minutes after Dose 1; \(c.confirmIt)."
    case .extraDoseNeedsConfirmation:
        "STOP – Dose 2 already taken. An extra dose is a health hazard; record it only if it really happened, \(c.by)."
    case .extraDoseOnlyFromCLI: "An extra dose can only be recorded \(c.extraDoseOnly)."
    case .extraDoseBeforeDose2: "Dose 2 has not been taken; an extra dose can only follow Dose 2."
    case .nothingToConfirm: "There is nothing waiting for confirmation."
    case .unknownButton(let name): "No button named \(name)."
    case .alreadyRecorded(.dose1, let at):
        "This dose was already taken at \(clock(at)). Dose 2 is due from \(clock(at.addingTimeInterval(DoseConstants.box.window.openMin * 60)))."
    case .alreadyRecorded(_, let at): "This dose was already taken at \(clock(at))."
    case .dose2Owed(let opens, let closes):
        "Dose 2 is still owed tonight (window \(clock(opens))–\(clock(closes))). Take it or skip it first; \(c.endsNight) ends the night and records Dose 2 as skipped."
    case .tooSoonAfterLastDose(let at, let m):
        "The last dose was taken at \(clock(at)), \(m) minutes ago. A new Dose 1 this soon needs confirmation\(c.suffix)."
    case .napInProgress(let since): "A nap is already in progress (started \(clock(since))); log nap_end first."
    case .noNapInProgress: "No nap is in progress; log nap_start first."
    case .duplicateMedication(let name, let at):
        "\(name) was already logged at \(clock(at)), less than \(DoseConstants.number(DoseConstants.box.medication.duplicateGuardMin)) minutes from this one. If it was really taken twice, log it \(c.by)."
    case .invalidMedication(let p): "Not logged: \(Written.medicationProblem(p, in: zone, clock: clock))."
    case .invalidSupply(let p): "Not logged: \(Written.supplyProblem(p))."
    case .nothingToForget(let range, let kept): Written.nothingToForget(range, kept: kept, in: zone)
    case .forgetNeedsConfirmation(let plan, let range): Written.forgetting(plan, range, counts: nil, done: false, in: zone)
    }
}
