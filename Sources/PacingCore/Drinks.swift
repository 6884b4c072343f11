import DoseCore
import Foundation

/// One drink logged (seed 002, "DrinkLog"): when, what, its standard units.
public struct DrinkLog: Sendable, Hashable {
    public var id: String
    public var at: Date
    public var type: DrinkType
    public var units: Double
    public var isAlcoholic: Bool

    /// `units` nil: the type's default.
    public init(id: String, at: Date, type: DrinkType, units: Double? = nil, rules: DoseConstants.Pacing = DoseConstants.box.pacing) {
        let d = type.defaults(rules)
        self.id = id
        self.at = at
        self.type = type
        self.units = units ?? d.units
        self.isAlcoholic = d.alcoholic
    }
}

extension Sensitivity {
    public func preset(_ rules: DoseConstants.Pacing) -> DoseConstants.Pacing.Preset {
        switch self {
        case .relaxed: rules.presets.relaxed
        case .balanced: rules.presets.balanced
        case .strict: rules.presets.strict
        }
    }
}

/// What the engine reads of the user's settings (seed 002, "UserSettingsSnapshot").
public struct PacingSettings: Sendable, Hashable {
    public var sensitivity: Sensitivity
    public var hydrationReminders: Bool
    /// A water check every this many alcoholic drinks.
    public var hydrationCadence: Int

    public init(sensitivity: Sensitivity = .balanced, hydrationReminders: Bool = true,
                hydrationCadence: Int = DoseConstants.box.pacing.hydrationCadenceDrinks) {
        self.sensitivity = sensitivity
        self.hydrationReminders = hydrationReminders
        self.hydrationCadence = hydrationCadence
    }
}

/// The rules' events (seed 002, "Rules"), by their codes.
public enum PacingCode: String, Sendable, Hashable, CaseIterable, Codable {
    case rapidRepeat = "rapid_repeat"
    case fastPace = "fast_pace"
    case escalation
    case shotStacking = "shot_stacking"
    case waterCheck = "water_check"
    case niceReset = "nice_reset"

    /// A warning, as "Nice reset" counts them: the four pace rules, not the water check.
    public var isWarning: Bool { [.rapidRepeat, .fastPace, .escalation, .shotStacking].contains(self) }

    /// The pace this rule's condition means while it holds.
    public var pace: PaceStatus {
        switch self {
        case .fastPace, .escalation: .slowDown
        case .rapidRepeat, .shotStacking: .caution
        case .waterCheck, .niceReset: .good
        }
    }

    public var severity: String {
        switch self {
        case .escalation: "warning"
        case .fastPace, .rapidRepeat, .shotStacking: "caution"
        case .waterCheck, .niceReset: "info"
        }
    }

    /// The words, supportive and plain (seed 002, "Guardrails": "You're pacing fast. Take a
    /// 20 min break."; "Take a break", "Water check", "Nice reset"). Never a BAC, never
    /// anything about driving.
    public var message: String {
        switch self {
        case .rapidRepeat: "Two drinks close together. Slow down a little."
        case .fastPace: "You're pacing fast. Take a 20 min break."
        case .escalation: "That is a lot in a short time. Take a longer break, and have some water."
        case .shotStacking: "Take a break."
        case .waterCheck: "Water check."
        case .niceReset: "Nice reset."
        }
    }
}

/// An event fired (or, to the engine, a recent one for its cooldowns).
public struct PacingEvent: Sendable, Hashable {
    public var code: PacingCode
    public var at: Date
    public init(_ code: PacingCode, at: Date) {
        self.code = code
        self.at = at
    }
}
