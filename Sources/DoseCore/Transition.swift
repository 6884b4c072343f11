import Foundation

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

public enum Outcome: Sendable, Hashable {
    case accepted(Acceptance)
    case refused(Refusal)
    /// Nothing to do (a release, a tick with nothing due).
    case ignored
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
