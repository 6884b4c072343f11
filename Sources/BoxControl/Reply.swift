import DoseCore
import Foundation

/// One reply from boxd. On the wire it keeps the flat fields boxctl --json users know
/// (`v, ok, exit, message, code, status, led, sounds, config, metrics`), plus `reply`,
/// the case name, so a reader never has to guess which one it got.
public enum Reply: Sendable, Hashable {
    /// It was done (or there was nothing to do): exit 0.
    case done(String, status: StatusReport?)
    /// The dose rules said no: exit 3; `code` is the seeds' where they have one.
    case refused(code: String, message: String, status: StatusReport?)
    /// The box failed to do it (for example the log could not be written): exit 6.
    case failed(code: String, message: String, status: StatusReport?)
    /// A bad request: exit 2.
    case usage(String, code: String = "400_BAD_REQUEST")
    /// Too many connections: exit 4, as when boxd cannot be reached.
    case busy(String)
    case status(StatusReport)
    /// Text to print as it is (the answer to `statusText`).
    case text(String)
    case config([ConfigEntry])
    case led(LEDReport)
    case sounds([SoundReport])
    /// The benchmark's measurements, in milliseconds, by name.
    case metrics([String: [Double]])
    /// `watch` began: the events that follow have ids above `after` (for a watch from now,
    /// the newest id in the log when it began).
    case watching(after: Int64)
    /// One entry of the night log's event feed, on a `watch` connection.
    case event(FeedEvent)

    public var ok: Bool { replyClass == .ok }

    /// v1's `exit` field.
    public var replyClass: ReplyClass {
        switch self {
        case .done, .status, .text, .config, .led, .sounds, .metrics, .watching, .event: .ok
        case .refused: .refused
        case .failed: .failed
        case .usage: .usage
        case .busy: .busy
        }
    }

    public var message: String {
        switch self {
        case .done(let m, _), .refused(_, let m, _), .failed(_, let m, _), .usage(let m, _), .busy(let m): m
        case .status, .text, .config, .led, .sounds, .metrics, .watching, .event: "ok"
        }
    }

    public var code: String? {
        switch self {
        case .refused(let c, _, _), .failed(let c, _, _), .usage(_, let c): c
        case .busy: "503_BUSY"
        default: nil
        }
    }

    public var status: StatusReport? {
        switch self {
        case .done(_, let s), .refused(_, _, let s), .failed(_, _, let s): s
        case .status(let s): s
        default: nil
        }
    }

    public var led: LEDReport? { if case .led(let l) = self { l } else { nil } }
    public var sounds: [SoundReport]? { if case .sounds(let s) = self { s } else { nil } }
    public var config: [ConfigEntry]? { if case .config(let c) = self { c } else { nil } }
    public var metrics: [String: [Double]]? { if case .metrics(let m) = self { m } else { nil } }
    public var event: FeedEvent? { if case .event(let e) = self { e } else { nil } }
    public var after: Int64? { if case .watching(let a) = self { a } else { nil } }

    /// The case's name on the wire.
    var kind: String {
        switch self {
        case .done: "done"
        case .refused: "refused"
        case .failed: "failed"
        case .usage: "usage"
        case .busy: "busy"
        case .status: "status"
        case .text: "text"
        case .config: "config"
        case .led: "led"
        case .sounds: "sounds"
        case .metrics: "metrics"
        case .watching: "watching"
        case .event: "event"
        }
    }
}

extension Reply: Codable {
    enum Key: String, CodingKey {
        case v, reply, ok, exit, message, code, status, text, led, sounds, config, metrics, after, event
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(ControlProtocol.version, forKey: .v)
        try c.encode(kind, forKey: .reply)
        try c.encode(ok, forKey: .ok)
        try c.encode(replyClass, forKey: .exit)
        try c.encode(message, forKey: .message)
        try c.encodeIfPresent(code, forKey: .code)
        try c.encodeIfPresent(status, forKey: .status)
        if case .text(let text) = self { try c.encode(text, forKey: .text) }
        try c.encodeIfPresent(led, forKey: .led)
        try c.encodeIfPresent(sounds, forKey: .sounds)
        try c.encodeIfPresent(config, forKey: .config)
        try c.encodeIfPresent(metrics, forKey: .metrics)
        try c.encodeIfPresent(after, forKey: .after)
        try c.encodeIfPresent(event, forKey: .event)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let replyClass = try c.decode(ReplyClass.self, forKey: .exit)
        let message = try c.decodeIfPresent(String.self, forKey: .message) ?? ""
        let code = try c.decodeIfPresent(String.self, forKey: .code)
        let status = try c.decodeIfPresent(StatusReport.self, forKey: .status)
        switch try c.decodeIfPresent(String.self, forKey: .reply) {
        case "status" where status != nil: self = .status(status!)
        case "text": self = .text(try c.decode(String.self, forKey: .text))
        case "config": self = .config(try c.decode([ConfigEntry].self, forKey: .config))
        case "led": self = .led(try c.decode(LEDReport.self, forKey: .led))
        case "sounds": self = .sounds(try c.decode([SoundReport].self, forKey: .sounds))
        case "metrics": self = .metrics(try c.decode([String: [Double]].self, forKey: .metrics))
        case "watching": self = .watching(after: try c.decode(Int64.self, forKey: .after))
        case "event": self = .event(try c.decode(FeedEvent.self, forKey: .event))
        default:
            // done, refused, failed, usage, busy, or a kind a newer boxd added: the class says which.
            switch replyClass {
            case .ok: self = .done(message, status: status)
            case .refused: self = .refused(code: code ?? "", message: message, status: status)
            case .usage: self = .usage(message, code: code ?? "400_BAD_REQUEST")
            case .busy: self = .busy(message)
            case .failed: self = .failed(code: code ?? "", message: message, status: status)
            }
        }
    }
}
