/// The night's plans, derived from the target and the rules: the alarms, the caregiver's
/// escalations and the last minutes' ticks. Every transition and every deadline reads them
/// (a press read them a dozen times), so a reduction keeps them for the current target
/// (`keepPlans`) and a reading makes them only when that target has changed since.
extension BoxState {
    /// Tonight's target including snoozes, in minutes after Dose 1.
    public var effectiveTargetMinutes: Double {
        Double(settings.targetMinutes) + Double(night.snoozeCount) * settings.rules.snooze.stepMin
    }

    /// Whether the night has plans: it is open, Dose 1 is taken and Dose 2 is outstanding.
    var hasPlans: Bool { night.isOpen && night.dose1 != nil && !night.isDose2Resolved }

    /// The whole plan of the open night while Dose 2 is outstanding, else empty.
    public var plan: AlarmPlan { hasPlans ? plans.alarms : .empty }

    /// The caregiver escalations of the open night while Dose 2 is outstanding, else none.
    public var caregiverPlan: CaregiverPlan { hasPlans ? plans.caregiver : CaregiverPlan(steps: []) }

    /// Steps still to ring.
    public var remainingPlan: AlarmPlan {
        AlarmPlan(steps: plan.remaining(after: cursorThrough))
    }

    /// The last minutes' soft ticks (#32; SSOT 2.4.3, accessibility: a tick every minute in the
    /// last 5 minutes), as offsets after Dose 1: each whole minute before the close, within
    /// `alerts.minute_ticks_within_min_of_close`, but for those where an alert of the plan
    /// rings (the alarm wins). None once Dose 2 is taken or skipped.
    public var minuteTicks: [Duration] { hasPlans ? plans.minuteTicks : [] }

    /// The plans for the current target: the kept ones, or made now.
    var plans: NightPlans {
        let target = effectiveTargetMinutes
        if let kept = plansMemo.plans, kept.targetMinutes == target { return kept }
        return NightPlans(targetMinutes: target, settings: settings)
    }

    /// Keeps the plans for the current target (a reduction's end), so that readings until the
    /// next change make nothing.
    mutating func keepPlans() { plansMemo.plans = plans }
}

/// The plans for one target (snoozes included) under one set of rules.
struct NightPlans: Sendable {
    var targetMinutes: Double
    var alarms: AlarmPlan
    var caregiver: CaregiverPlan
    var minuteTicks: [Duration]

    init(targetMinutes: Double, settings: BoxSettings) {
        self.targetMinutes = targetMinutes
        alarms = AlarmPlan.make(targetMinutes: targetMinutes, rules: settings.rules)
        caregiver = CaregiverPlan.make(targetMinutes: targetMinutes, rules: settings.rules)
        let within = Int(settings.rules.alerts.minuteTicksWithinMinOfClose)
        let alerts = Set(alarms.steps.map(\.offset))
        let close = settings.window.closesAfter
        minuteTicks = within < 1 ? [] : (1...within).reversed().map { close - .minutes(Double($0)) }.filter { !alerts.contains($0) }
    }
}

/// Kept plans: derived from the state's own fields, so they never make two states differ.
/// Settings that change drop them (BoxState.settings), and a target that changes is seen by
/// its key, so a reading never gets another target's plans.
struct PlansMemo: Sendable, Hashable {
    var plans: NightPlans?

    static func == (_: PlansMemo, _: PlansMemo) -> Bool { true }
    func hash(into _: inout Hasher) {}
}
