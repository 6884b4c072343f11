import DoseCore
import Foundation

/// One request to boxd, shared by boxd and boxctl. On the wire (NDJSON, see
/// `ControlProtocol`) it is one flat JSON object: `{"v":1,"cmd":"take","confirm":true}`.
/// Test and benchmark commands live in their own namespaces (`sim.*`, `bench.*`,
/// `test.*`), and `sim.*`/`bench.*` are refused unless boxd runs simulated hardware.
/// Every field is checked while decoding (see `Command+Codable.swift`), so a decoded
/// command is valid and the router only routes.
public enum Command: Sendable, Hashable {
    case status
    /// The status as `boxctl status` prints it, rendered by boxd (`StatusReport.text()`): the
    /// client then decodes one string instead of the report's twenty-odd types (#34). On the
    /// wire: `status` with `"text":true`.
    case statusText
    case take(confirm: Bool)
    case skip(reason: SkipReason?)
    case snooze
    case undo
    case extra(confirm: Bool)
    case log(SleepEventType, note: String?, confirm: Bool)
    case checkin(CheckInAnswers, confirm: Bool)
    case target(minutes: Int, confirm: Bool)
    /// A medication taken (SSOT 2.4.2); `confirm` logs one within the duplicate guard.
    case medication(MedicationEntry, confirm: Bool)
    /// Delete the nights with a session date in `from`…`to` (`from` nil: every night up to
    /// `to`); without `confirm` only says what would go (`Forgetting`).
    case forget(from: String?, to: String, confirm: Bool)
    /// A refill of the supply, or a correction of its count (`Supply`).
    case supply(SupplyChange)
    /// The evening before (#33): a drink logged (`units` nil: the type's; `at` nil: now), or
    /// the evening's last drink taken back.
    case drink(DrinkChange)
    /// Tonight's pre-sleep log (schema v6 `pre_sleep_logs`), new or edited until Dose 1.
    case preSleep(PreSleepAnswers)
    case config
    case doctor
    /// Shows an LED pattern or colour (a name in `TestSignals.patterns`) for 3 s.
    case testLED(name: String)
    /// Plays a sound (a name in `TestSignals.sounds`), or `inMs` later on the alarm timer.
    case testSound(name: String, inMs: Int?)
    /// Says a sentence through the box's speaker and replies once it has been said (#15):
    /// the status a hold would say, or the voice's test sentence.
    case say(SayWhat)
    /// Follows the night log's event feed: every entry after `after` (the entries' ids), or
    /// from now when nil, then each new one as it is committed. The connection stays open:
    /// boxd replies `watching`, then one `event` frame per entry (see `ControlServer`).
    case watch(after: Int64?)
    /// The caregiver bridge's link to its broker; valid only on that bridge's `watch`
    /// connection (boxd keeps it while the connection is open; see `CaregiverLinkReport`).
    case link(CaregiverLinkReport)
    case sim(SimCommand)
    case bench(BenchCommand)

    /// The `cmd` on the wire.
    public var name: String {
        switch self {
        case .status, .statusText: "status"
        case .take: "take"
        case .skip: "skip"
        case .snooze: "snooze"
        case .undo: "undo"
        case .extra: "extra"
        case .log: "log"
        case .checkin: "checkin"
        case .target: "target"
        case .medication: "med"
        case .forget: "forget"
        case .supply: "supply"
        case .drink: "drink"
        case .preSleep: "presleep"
        case .config: "config"
        case .doctor: "doctor"
        case .testLED: "test.led"
        case .testSound: "test.sound"
        case .say: "say"
        case .watch: "watch"
        case .link: "link"
        case .sim(let s): "sim." + s.name
        case .bench(let b): "bench." + b.name
        }
    }
}

/// `boxctl drink add` and `boxctl drink undo`.
public enum DrinkChange: Sendable, Hashable {
    case add(DrinkType, units: Double?, at: Date?)
    case undo
}

/// Drives a box on the simulated clock (`boxd --hardware sim --clock sim:…`).
public enum SimCommand: Sendable, Hashable {
    /// One clean press held `holdMs`; the clock moves through it until the gesture resolves.
    case press(button: String, holdMs: Int)
    case double(button: String)
    case edges(button: String, [SimEdge])
    /// Moves the simulated clock forward; every timer due on the way fires in order.
    case advance(ms: Int64)
    /// Steps the wall clock only (either way), as NTP does.
    case clockStep(ms: Int64)
    case led
    case sounds(clear: Bool)
    case fault(SimFault)

    var name: String {
        switch self {
        case .press: "press"
        case .double: "double"
        case .edges: "edges"
        case .advance: "advance"
        case .clockStep: "clock_step"
        case .led: "led"
        case .sounds: "sounds"
        case .fault: "fault"
        }
    }
}

/// For the benchmark: real clock, simulated buttons.
public enum BenchCommand: Sendable, Hashable {
    /// One edge stamped now: pressed (down) or released (up).
    case inject(button: String, pressed: Bool)
    /// The measurements boxd kept (cleared when read).
    case metrics

    var name: String {
        switch self {
        case .inject: "inject"
        case .metrics: "metrics"
        }
    }
}

/// One raw edge of a simulated button, `ms` after the first; on the wire a list of them
/// is the text "0:down,12:up" (down = pressed).
public struct SimEdge: Sendable, Hashable {
    public var ms: Int64
    public var pressed: Bool
    public init(ms: Int64, pressed: Bool) {
        self.ms = ms
        self.pressed = pressed
    }

    /// "0:down,12:up" -> edges; nil unless every offset is within `Limits.edgeMs`, they
    /// ascend, and there are `Limits.edgeCount` of them.
    public static func parse(_ text: String) -> [SimEdge]? {
        var out: [SimEdge] = []
        for part in text.split(separator: ",") {
            let kv = part.split(separator: ":")
            guard kv.count == 2, let ms = Int64(kv[0].trimmingCharacters(in: .whitespaces)),
                  Command.Limits.edgeMs.contains(ms), ms >= (out.last?.ms ?? 0) else { return nil }
            switch kv[1].trimmingCharacters(in: .whitespaces) {
            case "down": out.append(SimEdge(ms: ms, pressed: true))
            case "up": out.append(SimEdge(ms: ms, pressed: false))
            default: return nil
            }
        }
        return Command.Limits.edgeCount.contains(out.count) ? out : nil
    }

    /// What `parse` wants, for a frame or a command line that has something else.
    public static let expected = "edges must look like \"0:down,12:up,15:down,140:up\" (ms offsets from 0 to \(Command.Limits.edgeMs.upperBound), ascending, at most \(Command.Limits.edgeCount.upperBound))"

    public static func text(_ edges: [SimEdge]) -> String {
        edges.map { "\($0.ms):\($0.pressed ? "down" : "up")" }.joined(separator: ",")
    }
}

public enum SimFault: String, Sendable, Hashable, CaseIterable {
    case logReadonly = "log-readonly"
    case audioFail = "audio-fail"
    case audioOk = "audio-ok"
}

extension Command {
    /// The ranges decoding enforces; boxctl checks the same ones before sending.
    public enum Limits {
        public static let holdMs = 1...60_000
        public static let advanceMs: ClosedRange<Int64> = 0...(7 * 86_400_000)
        /// Signed; a closed range also keeps `abs(Int64.min)` (a trap) out.
        public static let clockStepMs: ClosedRange<Int64> = (-400 * 86_400_000)...(400 * 86_400_000)
        public static let testSoundInMs = 1...600_000
        public static let edgeMs: ClosedRange<Int64> = 0...600_000
        public static let edgeCount = 1...10_000
    }

    /// Changes nothing and makes no sound: what the caregiver bridge may send.
    public var isReadOnly: Bool {
        switch self {
        case .status, .statusText, .config, .doctor, .watch, .link: true
        case .take, .skip, .snooze, .undo, .extra, .log, .checkin, .target, .medication, .forget, .supply, .drink, .preSleep, .testLED, .testSound, .say, .sim, .bench: false
        }
    }

    /// Only for a box with simulated hardware: refused otherwise (`403_NOT_SIMULATED`).
    public var needsSimulation: Bool {
        switch self {
        case .sim, .bench: true
        default: false
        }
    }
}

/// What `say` says: the status (`boxctl say-status`) or the test sentence (`boxctl test voice`).
public enum SayWhat: String, Sendable, Hashable, CaseIterable, Codable {
    case status, test
}
