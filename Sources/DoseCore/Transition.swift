import Foundation

/// What a pending confirmation is for: an early or late Dose 2, or any dose while the
/// record of tonight is in doubt.
/// What a pending confirmation confirms: Dose 2 early or late, a dose while tonight's record is
/// in doubt, or Dose 1 after an alcoholic drink was logged (#33).
public enum ConfirmKind: String, Sendable, Hashable, Codable { case early, late, doubt, alcohol }

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
    /// A long hold asked why Dose 2 is skipped; nothing is recorded until the answer.
    case skipReasonAsked
    /// A hold took back a skip whose reason was being asked: nothing recorded.
    case skipCancelled
    /// A step of the morning check-in by the button (#32).
    case checkInStep(CheckInStep)
    case status
    case alarmStopped
    case targetSet(Int)
    case acknowledged
    case faultChanged
    case supplyChanged
    case drinksChanged
    /// A drink logged, and the evening's alcoholic drinks with it.
    case drinkLogged(DrinkRecord, alcoholicTonight: Int)
    case drinkUndone(DrinkRecord)
    /// The pacing engine looked; what it told, if anything.
    case paced([PacingRecord])
    case eveningRestored
    case preSleepLogged(PreSleepLog, edited: Bool)
    case medicationLogged(MedicationRecord)
    /// A refill or a correction; the count after it is `remainingAfter`.
    case supplyLogged(SupplyRecord)
    case forgot(Forgetting.Plan, Forgetting.Range)
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

    /// What the transition's `persist` effect writes, if anything.
    public var records: [LogRecord] {
        effects.flatMap { effect -> [LogRecord] in if case .persist(let r) = effect { r } else { [] } }
    }
}
