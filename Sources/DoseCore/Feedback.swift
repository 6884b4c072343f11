/// LED colours. An RGB LED mixes them; a single-colour LED shows only the rhythm.
public enum LEDColor: String, Sendable, Hashable, CaseIterable, Codable {
    case off, white, blue, green, yellow, amber, red
    /// Only the evening's pace (#33): no phase of the night uses it.
    case magenta
}

/// A named LED pattern: a colour and a rhythm of on/off segments in milliseconds,
/// starting with "on". Colour is never the only signal: every steady pattern has a
/// rhythm of its own, so a single-colour LED (or a colour-blind eye) still tells them apart.
public struct LEDPattern: Sendable, Hashable, Codable, CustomStringConvertible {
    public var name: String
    public var color: LEDColor
    /// Alternating on/off durations in ms, starting with on. Empty: steady off. One element: steady on.
    public var segments: [Int]
    /// Repeats until replaced (steady patterns) or plays once (flashes).
    public var repeats: Bool

    public init(name: String, color: LEDColor, segments: [Int], repeats: Bool) {
        self.name = name
        self.color = color
        self.segments = segments
        self.repeats = repeats
    }

    public var description: String { "\(color.rawValue) \(name)" }

    // Steady patterns, one per phase and state.
    public static let off = LEDPattern(name: "off", color: .off, segments: [], repeats: true)
    public static let slowPulse = LEDPattern(name: "slow_pulse", color: .blue, segments: [150, 2850], repeats: true)
    public static let pulse = LEDPattern(name: "pulse", color: .green, segments: [150, 850], repeats: true)
    /// 30 minutes or less left (SSOT 2.4.3: the 30-min warning is yellow).
    public static let fastBlink = LEDPattern(name: "fast", color: .yellow, segments: [250, 250], repeats: true)
    /// 15 minutes or less left: take it now (SSOT 2.4.3: the 15-min warning is red).
    public static let urgentBlink = LEDPattern(name: "urgent", color: .red, segments: [100, 100], repeats: true)
    /// The window has closed: red too, but a slow double blink, never the urgent rhythm.
    public static let closedBlink = LEDPattern(name: "closed", color: .red, segments: [150, 150, 150, 1550], repeats: true)
    public static let slowGlow = LEDPattern(name: "slow_glow", color: .white, segments: [1000, 3000], repeats: true)
    public static let confirmEarly = LEDPattern(name: "confirm_early", color: .amber, segments: [80, 80, 80, 760], repeats: true)
    public static let confirmLate = LEDPattern(name: "confirm_late", color: .red, segments: [80, 80, 80, 80, 80, 600], repeats: true)
    public static let fault = LEDPattern(name: "fault", color: .amber, segments: [600, 200, 100, 1100], repeats: true)
    /// Tonight's record is in doubt: three slow amber blinks, then a pause.
    public static let doubt = LEDPattern(name: "doubt", color: .amber, segments: [300, 300, 300, 300, 300, 1500], repeats: true)
    /// Dose 1 waits for a confirmation after a drink was logged (#33): two long amber blinks.
    public static let confirmAlcohol = LEDPattern(name: "confirm_alcohol", color: .amber, segments: [400, 200, 400, 1000], repeats: true)
    public static let confirmDoubt = LEDPattern(name: "confirm_doubt", color: .amber, segments: [80, 80, 80, 80, 80, 80, 80, 760], repeats: true)

    /// A check-in by the button waits for an answer (#32): a slow even white blink.
    public static let checkIn = LEDPattern(name: "checkin", color: .white, segments: [500, 500], repeats: true)

    // One-shot flashes laid over the steady pattern.
    public static let ack = LEDPattern(name: "ack", color: .white, segments: [60], repeats: false)
    public static let confirmation = LEDPattern(name: "confirmation", color: .green, segments: [1500], repeats: false)
    /// Dose 1 taken and the supply is low: the confirmation, then three short blinks.
    public static let confirmationRefillDue = LEDPattern(name: "confirmation_refill_due", color: .green,
                                                         segments: [1500, 300, 120, 120, 120, 120, 120], repeats: false)
    public static let refused = LEDPattern(name: "refused", color: .red, segments: [300, 150, 300], repeats: false)
    public static let stop = LEDPattern(name: "stop", color: .red, segments: [1000, 200, 1000], repeats: false)
    public static let undone = LEDPattern(name: "undone", color: .white, segments: [200, 200, 200, 200, 200], repeats: false)
    /// A press that repeated a dose already recorded: two short blue blinks, nothing started.
    public static let alreadyRecorded = LEDPattern(name: "already_recorded", color: .blue, segments: [120, 120, 120], repeats: false)
    /// A check-in's answer counted back (#32): `presses` white blinks, so that with the voice
    /// off the person sees what the box took.
    public static func count(_ presses: Int, blinkMs: Int = DoseConstants.box.checkin.countBlinkMs) -> LEDPattern {
        let n = max(1, presses)
        return LEDPattern(name: "count_\(n)", color: .white,
                          segments: Array((0..<n).flatMap { _ in [blinkMs, blinkMs] }.dropLast()), repeats: false)
    }
    /// The evening's pace (#33), magenta: a blip every 5 s while it is good, two short blinks
    /// for caution, a steady blink to slow down.
    public static func pace(_ pace: PaceStatus) -> LEDPattern {
        switch pace {
        case .good: LEDPattern(name: "pace_good", color: .magenta, segments: [150, 4850], repeats: true)
        case .caution: LEDPattern(name: "pace_caution", color: .magenta, segments: [150, 150, 150, 2550], repeats: true)
        case .slowDown: LEDPattern(name: "pace_slow_down", color: .magenta, segments: [500, 500], repeats: true)
        }
    }
    /// Shown by a status hold when the phase itself is dark: "alive, no dose yet".
    public static let ready = LEDPattern(name: "ready", color: .white, segments: [500], repeats: false)

    /// The steady pattern of each phase. A dark bedroom until Dose 1; off again once the
    /// night is done. In the window it escalates with the time left (SSOT 2.4.3, PRD
    /// "yellow → red"): green, yellow from 30 min left, red urgent from 15, red closed at 240.
    public static func forPhase(_ phase: Phase, remaining: Duration? = nil) -> LEDPattern {
        switch phase {
        case .noDose1, .completed: .off
        case .beforeWindow: .slowPulse
        case .active:
            if let remaining, remaining <= .minutes(DoseConstants.box.led.yellowWithinMinOfClose) { .fastBlink } else { .pulse }
        case .nearClose: .urgentBlink
        case .closed: .closedBlink
        case .finalizing: .slowGlow
        }
    }
}

/// The sounds the box plays, named after the seeds' accessibility section, plus alarms.
public enum Sound: Sendable, Hashable, CustomStringConvertible {
    /// Rising chime: a dose or event recorded.
    case success
    /// Descending tone: needs confirmation, or something was taken back.
    case warning
    /// Sharp buzz: an action failed or was refused.
    case error
    /// "STOP, Dose 2 already taken".
    case stop
    /// A short neutral chirp for a status hold.
    case status
    /// Two equal beeps: the press was heard and changed nothing, the dose is already recorded.
    case alreadyRecorded
    /// Dose 1 taken and the supply is low: the success chime, then the refill motif.
    case successRefillDue
    /// The long hold reached the skip: a falling pair of low notes, the moment it counts.
    case skipHold
    /// A soft tick each minute in the last minutes of the window.
    case minuteTick
    /// An alert of the plan, at its level.
    case alarm(AlertKind, AlarmLevel)

    public var name: String {
        switch self {
        case .success: "success"
        case .warning: "warning"
        case .error: "error"
        case .stop: "stop"
        case .status: "status"
        case .alreadyRecorded: "already_recorded"
        case .successRefillDue: "success_refill_due"
        case .skipHold: "skip_hold"
        case .minuteTick: "minute_tick"
        case .alarm(let kind, _): kind.rawValue
        }
    }

    public var level: AlarmLevel? {
        if case .alarm(_, let level) = self { return level }
        return nil
    }

    public var description: String { level.map { "\(name)/\($0)" } ?? name }
}

/// Something wrong with the box itself. Faults show on the LED (except clock sync) and in status.
public enum Fault: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Worth telling someone elsewhere (an event in the feed): what endangers tonight's alarm
    /// or record. Not the clock's sync (a Pi without a battery clock is unsynced at every boot
    /// until NTP answers; the night's rules run on elapsed time) nor simulated buttons.
    public var isCaregiverNews: Bool {
        switch self {
        case .audioUnavailable, .logUnwritable, .logRecovered, .logLostRecords, .witnessRebuilt, .buttonStuck, .gpioUnavailable: true
        case .buttonsSimulated, .clockUnsynced: false
        }
    }

    case audioUnavailable
    case logUnwritable
    case logRecovered
    /// The log was behind its witness (#29): records it had acknowledged are gone from it.
    case logLostRecords
    /// The witness beside the log was missing or damaged while the log was fine: rebuilt.
    case witnessRebuilt
    case buttonStuck(String)
    case gpioUnavailable
    /// `--hardware auto` found no config and no GPIO chip: the buttons and LED are simulated.
    case buttonsSimulated
    case clockUnsynced

    public var code: String {
        switch self {
        case .audioUnavailable: "audio_unavailable"
        case .logUnwritable: "log_unwritable"
        case .logRecovered: "log_recovered"
        case .logLostRecords: "log_lost_records"
        case .witnessRebuilt: "witness_rebuilt"
        case .buttonStuck(let name): "button_stuck:\(name)"
        case .gpioUnavailable: "gpio_unavailable"
        case .buttonsSimulated: "buttons_simulated"
        case .clockUnsynced: "clock_unsynced"
        }
    }

    public var showsOnLED: Bool { self != .clockUnsynced }

    /// The fault a stored `code` names (a fault event's), nil for a code this build does not know.
    public init?(code: String) {
        if code.hasPrefix("button_stuck:") {
            self = .buttonStuck(String(code.dropFirst("button_stuck:".count)))
            return
        }
        guard let fault = Self.withoutName.first(where: { $0.code == code }) else { return nil }
        self = fault
    }

    /// Every fault but `buttonStuck`, which names its button.
    public static let withoutName: [Fault] = [.audioUnavailable, .logUnwritable, .logRecovered, .logLostRecords,
                                             .witnessRebuilt, .gpioUnavailable, .buttonsSimulated, .clockUnsynced]

    public var description: String { code }

    public static func < (a: Fault, b: Fault) -> Bool { a.code < b.code }
}

/// A fault of the box raised or cleared (`Fault.isCaregiverNews` ones only): kept in the log
/// so that someone elsewhere learns it through the event feed even after an outage. Not part
/// of any night (a fault can come at noon), so it has no session.
public struct FaultRecord: Sendable, Hashable {
    public var id: String
    /// `Fault.code`: audio_unavailable, gpio_unavailable, button_stuck:NAME, log_unwritable, log_recovered.
    public var code: String
    public var raised: Bool
    public var at: Moment
    public init(id: String, code: String, raised: Bool, at: Moment) {
        self.id = id
        self.code = code
        self.raised = raised
        self.at = at
    }
}
