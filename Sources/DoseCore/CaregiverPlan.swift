/// What someone else must learn about a night, and when: the caregiver escalations of a
/// night with Dose 2 outstanding. Like `AlarmPlan`, a pure function of the night (Dose 1,
/// the target with its snoozes, the rules), with offsets in elapsed time since Dose 1, so
/// every reader (boxd, the MQTT bridge after an outage) derives the same steps.
///
/// The defaults (constants.json "caregiver"), from the seeds' schedule:
/// - **Alarm unanswered** when the wake alarm has done all it can: its last follow-up (target
///   + 6 min) has rung its full `alarm.ring_s` and `unanswered_grace_s` more has passed
///   (target + 8 min at 165: 173 min) with Dose 2 neither taken nor skipped. Earlier, the box
///   itself is still trying; a minute's grace lets a woken person reach the bottle.
/// - **Dose 2 missing, 15 min left** (`dose2_missing_remaining_min`): the seeds' first
///   hard-stop warning and the point below which snooze is refused (`snooze.
///   disabled_below_remaining_min`): the last moment a caregiver can still help in time.
/// - **Window closed without Dose 2** at the close (240 min), the seeds' expiry.
/// A box that is off or cut off is the broker's last will, not a step here.
public struct CaregiverPlan: Sendable, Hashable {
    public enum Alert: String, Sendable, Hashable, CaseIterable, Codable {
        case alarmUnanswered = "alarm_unanswered"
        case dose2Missing = "dose2_missing"
        case windowClosedWithoutDose2 = "window_closed_without_dose2"
    }

    public struct Step: Sendable, Hashable {
        public var offset: Duration
        public var alert: Alert
    }

    public var steps: [Step]

    /// The steps while Dose 2 is outstanding; `targetMinutes` already includes snoozes. An
    /// "unanswered" that would fall at or after the "missing" step is dropped: the later
    /// step says more.
    public static func make(targetMinutes: Double, rules: DoseConstants) -> CaregiverPlan {
        let close = Duration.minutes(rules.window.closeMin)
        let missing = close - .minutes(rules.caregiver.dose2MissingRemainingMin)
        let lastFollowUp = rules.wakeAlarm.followUpsAfterTargetMin.max() ?? 0
        let unanswered = Duration.minutes(targetMinutes + lastFollowUp) + .seconds(rules.alarm.ringS + rules.caregiver.unansweredGraceS)
        var steps: [Step] = []
        if unanswered < missing { steps.append(Step(offset: unanswered, alert: .alarmUnanswered)) }
        steps.append(Step(offset: missing, alert: .dose2Missing))
        steps.append(Step(offset: close, alert: .windowClosedWithoutDose2))
        return CaregiverPlan(steps: steps)
    }

    /// The steps due at `elapsed` since Dose 1 that were not due at `through` (nil: none
    /// were yet), in order.
    public func due(at elapsed: Duration, after through: Duration?) -> [Step] {
        steps.filter { step in step.offset <= elapsed && through.map { step.offset > $0 } ?? true }
    }
}
