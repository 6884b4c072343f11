import Foundation

/// What a button gesture means. The dose button's default map is single: take the next
/// dose, double: snooze, hold: undo or status. A second button may log sleep events.
public enum ButtonIntent: Sendable, Hashable, CustomStringConvertible {
    case takeNext
    case snooze
    case undoOrStatus
    case log(SleepEventType)
    /// The evening before (#33): a drink of this type, or the evening's last drink taken back.
    case drink(DrinkType)
    case undoDrink
    case nothing

    public var description: String {
        switch self {
        case .takeNext: "take"
        case .snooze: "snooze"
        case .undoOrStatus: "undo_or_status"
        case .log(let t): "log:\(t.rawValue)"
        case .drink(let t): "drink:\(t.rawValue)"
        case .undoDrink: "undo_drink"
        case .nothing: "nothing"
        }
    }

    /// Parses the config spelling: take, snooze, undo_or_status, nothing, undo_drink,
    /// drink:TYPE (shot, beer, wine, cocktail, water), or a sleep event wire name.
    public init?(config text: String) {
        switch text {
        case "take": self = .takeNext
        case "snooze": self = .snooze
        case "undo_or_status": self = .undoOrStatus
        case "nothing": self = .nothing
        case "undo_drink": self = .undoDrink
        case let text where text.hasPrefix("drink:"):
            guard let t = DrinkType(rawValue: String(text.dropFirst(6))) else { return nil }
            self = .drink(t)
        default:
            guard let t = SleepEventType(rawValue: text) else { return nil }
            self = .log(t)
        }
    }
}

public struct GestureMap: Sendable, Hashable {
    public var single: ButtonIntent
    public var double: ButtonIntent
    public var hold: ButtonIntent

    public init(single: ButtonIntent, double: ButtonIntent, hold: ButtonIntent) {
        self.single = single
        self.double = double
        self.hold = hold
    }

    public static let doseButton = GestureMap(single: .takeNext, double: .snooze, hold: .undoOrStatus)

    /// Only the dose button can start or answer a confirmation.
    public var isDoseButton: Bool { single == .takeNext }
}

/// The night's adjustable settings, validated by the config layer before they get here.
public struct BoxSettings: Sendable, Hashable {
    public var rules: DoseConstants
    /// One of the valid targets (165, 180, 195, 210, 225 min).
    public var targetMinutes: Int
    public var undoWindow: Duration
    public var ringTime: Duration
    public var timeZone: TimeZone
    public var buttons: [String: GestureMap]
    /// What the box says aloud (#15): whether it speaks, and how it says a time of day.
    public var voice: VoiceSettings

    public init(rules: DoseConstants = .box, targetMinutes: Int? = nil, undoWindow: Duration? = nil, ringTime: Duration? = nil,
                timeZone: TimeZone, buttons: [String: GestureMap] = ["dose": .doseButton], voice: VoiceSettings = .init()) {
        self.voice = voice
        self.rules = rules
        self.targetMinutes = targetMinutes ?? rules.window.defaultTargetMin
        self.undoWindow = undoWindow ?? .seconds(rules.undo.defaultS)
        self.ringTime = ringTime ?? .seconds(rules.alarm.ringS)
        self.timeZone = timeZone
        self.buttons = buttons
    }

    public var window: DoseWindow { DoseWindow(rules: rules.window) }

    public func cooldown(of type: SleepEventType) -> Duration {
        .seconds(rules.sleepEvents.first { $0.event == type.rawValue }?.cooldownS ?? 0)
    }
}

/// The voice's settings: whether it speaks, how it says a time of day, and whether it reminds
/// the person to stay in bed after a dose.
public struct VoiceSettings: Sendable, Hashable {
    public var enabled: Bool
    public var clock: ClockStyle
    /// The stay-in-bed reminder after each dose (SSOT: "always enforce stay-in-bed protocol").
    public var stayInBed: Bool

    public init(enabled: Bool = true, clock: ClockStyle = .twelveHour, stayInBed: Bool = true) {
        self.enabled = enabled
        self.clock = clock
        self.stayInBed = stayInBed
    }
}

/// How the voice says a time of day: "10:02 PM" or "22:02".
public enum ClockStyle: String, Sendable, Hashable, CaseIterable {
    case twelveHour = "12h"
    case twentyFourHour = "24h"
}
