import DoseCore
import TOMLKit

/// `[evening]` (#33): Take Care's user settings on the box (seed 002 "UserSettings").
public struct EveningConfig: Sendable, Hashable {
    /// Which preset of thresholds the pacing coach uses.
    public var sensitivity: Sensitivity = .balanced
    /// Whether the coach gives its water checks.
    public var hydrationReminders = true
    public init(sensitivity: Sensitivity = .balanced, hydrationReminders: Bool = true) {
        self.sensitivity = sensitivity
        self.hydrationReminders = hydrationReminders
    }
}

extension Reader {
    /// `sensitivity`: relaxed, balanced (the default) or strict; `hydration_reminders`: true or false.
    mutating func eveningSection() throws(ConfigError) -> EveningConfig {
        let t = try table("evening")
        if let t { try checkKeys(t, "evening", allowed: Self.known["evening"]!) }
        let text = try string(t, "evening", "sensitivity", default: Sensitivity.balanced.rawValue)
        guard let sensitivity = Sensitivity(rawValue: text) else {
            throw ConfigError("evening.sensitivity", "\"\(text)\" is not \(Sensitivity.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return EveningConfig(sensitivity: sensitivity, hydrationReminders: try bool(t, "evening", "hydration_reminders", default: true))
    }
}
