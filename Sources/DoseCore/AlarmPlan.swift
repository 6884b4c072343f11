/// The kinds of alert the box rings, by their wire (and sound) names.
public enum AlertKind: String, Sendable, Hashable, CaseIterable, Codable {
    case windowOpen = "window_open"
    case preAlarm = "pre_alarm"
    case mainAlarm = "main_alarm"
    case followUp = "follow_up"
    case remainingWarning = "remaining_warning"
    case hardStop = "hard_stop"
    case expired

    /// Tie-break when two steps of equal level fall at the same instant: the one closer to the hard stop wins.
    var mergePriority: Int {
        switch self {
        case .windowOpen: 0
        case .preAlarm: 1
        case .mainAlarm: 2
        case .followUp: 3
        case .remainingWarning: 4
        case .hardStop: 5
        case .expired: 6
        }
    }
}

/// How hard an alert rings. Escalates through the night: gentle, standard, critical.
public enum AlarmLevel: Int, Sendable, Hashable, CaseIterable, Comparable, Codable, CustomStringConvertible {
    case gentle = 1, standard = 2, critical = 3

    public static func < (a: AlarmLevel, b: AlarmLevel) -> Bool { a.rawValue < b.rawValue }
    public var description: String {
        switch self {
        case .gentle: "gentle"
        case .standard: "standard"
        case .critical: "critical"
        }
    }
}

/// One alert: `offset` is elapsed time since Dose 1, never a wall-clock instant.
public struct AlarmStep: Sendable, Hashable, CustomStringConvertible {
    public var offset: Duration
    public var kind: AlertKind
    public var level: AlarmLevel

    public init(offset: Duration, kind: AlertKind, level: AlarmLevel) {
        self.offset = offset
        self.kind = kind
        self.level = level
    }

    public var description: String { "\(kind.rawValue)@\(offset.minutes)m/\(level)" }
}

/// The night's alerts in order. A pure function of the night: Dose 1, Dose 2 outstanding, target and snoozes.
public struct AlarmPlan: Sendable, Hashable {
    public var steps: [AlarmStep]

    public init(steps: [AlarmStep]) { self.steps = steps }

    public static let empty = AlarmPlan(steps: [])

    /// The plan while Dose 2 is outstanding. `targetMinutes` already includes snoozes.
    ///
    /// - Wake alarm around the target (SSOT 2.4.3, "Wake Alarm Schedule"): pre-alarm
    ///   standard, main critical, follow-ups critical. The window-open chime stays gentle.
    /// - Window open (gentle), remaining-time warnings and hard-stop warnings counted back
    ///   from the close, and the expiry at the close (critical), which every plan holds.
    /// - Wake-alarm steps at or after the close are dropped: the expiry covers them.
    /// - Steps at the same instant merge into the stronger one.
    public static func make(targetMinutes: Double, rules: DoseConstants) -> AlarmPlan {
        let close = rules.window.closeMin
        var steps: [AlarmStep] = [AlarmStep(offset: .minutes(rules.window.openMin), kind: .windowOpen, level: .gentle)]

        var wake: [AlarmStep] = [
            AlarmStep(offset: .minutes(targetMinutes - rules.wakeAlarm.preAlarmBeforeTargetMin), kind: .preAlarm, level: .standard),
            AlarmStep(offset: .minutes(targetMinutes), kind: .mainAlarm, level: .critical),
        ]
        wake += rules.wakeAlarm.followUpsAfterTargetMin.map {
            AlarmStep(offset: .minutes(targetMinutes + $0), kind: .followUp, level: .critical)
        }
        steps += wake.filter { $0.offset < .minutes(close) }

        // Remaining-time and hard-stop warnings: standard, then critical from 5 min before the
        // close (SSOT 2.4.3: the 15-min hard stop is standard, 5/2/0.5 min critical).
        let critical = rules.alerts.criticalWithinMinOfClose
        steps += rules.alerts.remainingWarningsBeforeCloseMin.map { left in
            AlarmStep(offset: .minutes(close - left), kind: .remainingWarning, level: left > critical ? .standard : .critical)
        }
        steps += rules.alerts.hardStopWarningsBeforeCloseMin.map { left in
            AlarmStep(offset: .minutes(close - left), kind: .hardStop, level: left > critical ? .standard : .critical)
        }
        steps.append(AlarmStep(offset: .minutes(close), kind: .expired, level: .critical))
        return AlarmPlan(steps: merged(steps))
    }

    /// Sorts by offset and keeps one step per instant: the higher level, then the later kind.
    static func merged(_ steps: [AlarmStep]) -> [AlarmStep] {
        var out: [AlarmStep] = []
        out.reserveCapacity(steps.count)
        for step in steps.sorted(by: { $0.offset < $1.offset }) {
            if let last = out.last, last.offset == step.offset {
                if (step.level, step.kind.mergePriority) > (last.level, last.kind.mergePriority) {
                    out[out.count - 1] = step
                }
            } else {
                out.append(step)
            }
        }
        return out
    }

    /// The steps still to come after `firedThrough` (nil: none fired yet).
    public func remaining(after firedThrough: Duration?) -> [AlarmStep] {
        guard let f = firedThrough else { return steps }
        return steps.filter { $0.offset > f }
    }

    public var holdsExpiry: Bool { steps.contains { $0.kind == .expired } }
}
