import DoseCore

/// What `boxctl test led|sound NAME` may show or play, by name: decoding checks the name,
/// boxd looks it up.
public enum TestSignals {
    public static let patterns: [String: LEDPattern] = Dictionary(uniqueKeysWithValues: [
        LEDPattern.slowPulse, .pulse, .fastBlink, .urgentBlink, .closedBlink, .slowGlow, .confirmEarly, .confirmLate, .fault,
        .ack, .confirmation, .confirmationRefillDue, .refused, .stop, .undone, .ready, .doubt, .confirmDoubt, .alreadyRecorded,
        .checkIn, .count(3), .confirmAlcohol,
    ].map { ($0.name, $0) } + LEDColor.allCases.filter { $0 != .off }.map {
        ($0.rawValue, LEDPattern(name: $0.rawValue, color: $0, segments: [3000], repeats: false))
    })

    public static let sounds: [String: Sound] = {
        var all: [String: Sound] = ["success": .success, "warning": .warning, "error": .error, "stop": .stop, "status": .status,
                                    "already_recorded": .alreadyRecorded, "success_refill_due": .successRefillDue,
                                    "skip_hold": .skipHold, "minute_tick": .minuteTick]
        for level in AlarmLevel.allCases { all["alarm_\(level)"] = .alarm(.mainAlarm, level) }
        for kind in AlertKind.allCases { all[kind.rawValue] = .alarm(kind, .standard) }
        return all
    }()
}
