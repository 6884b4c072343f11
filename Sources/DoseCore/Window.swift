/// Where the night stands (SSOT 3.0's phases).
public enum Phase: String, Sendable, Hashable, CaseIterable, Codable {
    case noDose1, beforeWindow, active, nearClose, closed, finalizing, completed
}

/// The dose window: the rules that depend only on time elapsed since Dose 1.
public struct DoseWindow: Sendable, Hashable {
    public let rules: DoseConstants.Window

    public init(rules: DoseConstants.Window) { self.rules = rules }

    public var opensAfter: Duration { .minutes(rules.openMin) }
    public var closesAfter: Duration { .minutes(rules.closeMin) }
    public var nearCloseAfter: Duration { closesAfter - .minutes(rules.nearCloseRemainingMin) }

    /// The window's phase `elapsed` after Dose 1: before 150 min, active, near-close once
    /// 15 min or less remain, closed from 240 min on.
    public func phase(elapsed: Duration) -> Phase {
        if elapsed < opensAfter { return .beforeWindow }
        if elapsed >= closesAfter { return .closed }
        if elapsed >= nearCloseAfter { return .nearClose }
        return .active
    }

    public func remaining(elapsed: Duration) -> Duration { closesAfter - elapsed }

    /// On time: within ±10 min of the target (adherence metrics).
    public func isOnTime(intervalMinutes: Double, targetMinutes: Double) -> Bool {
        abs(intervalMinutes - targetMinutes) <= rules.onTimeThresholdMin
    }
}
