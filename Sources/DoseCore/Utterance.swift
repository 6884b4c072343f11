import Foundation

/// What the voice is to say, as facts (`Effect.speak`). The core decides when the box speaks
/// and about what; `BoxWords.Speech` decides the words.
public enum Utterance: Sendable, Hashable {
    /// What a button just did, with the state after it.
    case accepted(Acceptance, state: BoxState, at: Moment)
    case refused(Refusal, state: BoxState)
    /// An alert that has rung out, `elapsed` after Dose 1: the time left is the time left then.
    case alert(AlertKind, elapsed: Duration, rules: DoseConstants)
    case fault(Fault)
    /// What the pacing engine told (#33): its words, as recorded.
    case pacing(PacingRecord)

    /// The answer to a button, or nil when its sound says it all (a press heard, an alarm
    /// stopped, a change only the status shows).
    public static func answer(_ outcome: Outcome, state: BoxState, at now: Moment) -> Utterance? {
        switch outcome {
        case .ignored: nil
        case .refused(let r): .refused(r, state: state)
        case .accepted(.doubtEntered), .accepted(.nightRestored), .accepted(.targetSet), .accepted(.acknowledged),
             .accepted(.faultChanged), .accepted(.supplyChanged), .accepted(.drinksChanged), .accepted(.paced), .accepted(.eveningRestored), .accepted(.preSleepLogged), .accepted(.medicationLogged), .accepted(.supplyLogged),
             .accepted(.forgot): nil
        case .accepted(let a): .accepted(a, state: state, at: now)
        }
    }

    /// A fault just raised, in the room, or nil: not the speaker's own (it cannot be heard,
    /// so the LED and the feed carry it), nor what changes nothing at the bedside.
    public static func raised(_ fault: Fault) -> Utterance? {
        switch fault {
        case .audioUnavailable, .buttonsSimulated, .clockUnsynced, .witnessRebuilt: nil
        case .gpioUnavailable, .buttonStuck, .logUnwritable, .logRecovered, .logLostRecords: .fault(fault)
        }
    }
}
