import Foundation

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
    /// Say this after the sound before it (#15), in the voice's words (`BoxWords.Speech`).
    /// Never instead of a tone, and an alarm wins: the shell drops speech that an alarm or a
    /// stop overtakes, with a log line.
    case speak(Utterance)
    case stopSound
    /// The target interval changed; the shell stores the setting.
    case saveTarget(Int)
    /// Delete the plan's nights from the log, with everything recorded in them. Like
    /// `persist`, done before the state counts; if it fails, nothing of the action happens.
    case forget(Forgetting.Plan, Forgetting.Range)
    /// Write this notice after the other effects, best effort: an alarm never waits for a
    /// disk, and a notice that cannot be written now is kept for the next write. An
    /// `alarmRang` notice says the `.play` of its alarm before it was heard: if that play
    /// failed, the shell drops the notice and sends `.alarmNotHeard` instead.
    case notice(NoticeRecord)
    /// A fault raised or cleared, for the log: written like a notice (after the sounds, kept
    /// for the next write when the disk refuses it).
    case faultNotice(FaultRecord)
}

extension Effect {
    /// A button going down is acknowledged at once with a short white flash, whatever it will
    /// turn out to mean (it touches no record). The shell may write it on the edge's own thread
    /// before the engine takes the press up (`PressAcknowledger`): this is the one it writes.
    public static let pressAcknowledgement = Effect.flash(.ack, duration: nil)
}
