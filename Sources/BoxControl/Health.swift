import Foundation

// The health line's parts. In JSON each is `{"state": "...", "detail": ...}` (detail null
// unless a fault says why), so scripts compare `state` instead of parsing words; `text`
// is the status line's wording.

/// Buttons or audio.
public enum DeviceHealth: Sendable, Hashable {
    case ok
    /// Simulated buttons and LED (no chip configured or found).
    case simulated
    /// A button held down far longer than any press.
    case stuck
    case fault(String)

    public var text: String {
        switch self {
        case .ok: "ok"
        case .simulated: "SIMULATED"
        case .stuck: "stuck"
        case .fault(let detail): "FAULT (\(detail))"
        }
    }
}

/// The night log.
public enum LogHealth: Sendable, Hashable {
    case ok
    /// A damaged log was salvaged into a new one.
    case recovered
    case fault(String)

    public var text: String {
        switch self {
        case .ok: "ok"
        case .recovered: "recovered"
        case .fault(let detail): "FAULT (\(detail))"
        }
    }
}

/// The wall clock, as the kernel sees it (NTP).
public enum ClockHealth: String, Sendable, Hashable, CaseIterable {
    case synced
    case notSynced = "not_synced"

    public var text: String { self == .synced ? "synced" : "not synced" }
}

/// The JSON of one part; `detail` is always written, null when there is none.
private struct HealthWire: Codable {
    var state: String
    var detail: String?

    init(_ state: String, _ detail: String? = nil) {
        self.state = state
        self.detail = detail
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(state, forKey: .state)
        try c.encode(detail, forKey: .detail)
    }

    static func unknown(_ state: String, _ decoder: any Decoder) -> DecodingError {
        .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown health state \(state)"))
    }
}

extension DeviceHealth: Codable {
    public init(from decoder: any Decoder) throws {
        let w = try HealthWire(from: decoder)
        switch w.state {
        case "ok": self = .ok
        case "simulated": self = .simulated
        case "stuck": self = .stuck
        case "fault": self = .fault(w.detail ?? "")
        default: throw HealthWire.unknown(w.state, decoder)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .ok: try HealthWire("ok").encode(to: encoder)
        case .simulated: try HealthWire("simulated").encode(to: encoder)
        case .stuck: try HealthWire("stuck").encode(to: encoder)
        case .fault(let detail): try HealthWire("fault", detail).encode(to: encoder)
        }
    }
}

extension LogHealth: Codable {
    public init(from decoder: any Decoder) throws {
        let w = try HealthWire(from: decoder)
        switch w.state {
        case "ok": self = .ok
        case "recovered": self = .recovered
        case "fault": self = .fault(w.detail ?? "")
        default: throw HealthWire.unknown(w.state, decoder)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .ok: try HealthWire("ok").encode(to: encoder)
        case .recovered: try HealthWire("recovered").encode(to: encoder)
        case .fault(let detail): try HealthWire("fault", detail).encode(to: encoder)
        }
    }
}

extension ClockHealth: Codable {
    public init(from decoder: any Decoder) throws {
        let w = try HealthWire(from: decoder)
        guard let c = ClockHealth(rawValue: w.state) else { throw HealthWire.unknown(w.state, decoder) }
        self = c
    }

    public func encode(to encoder: any Encoder) throws { try HealthWire(rawValue).encode(to: encoder) }
}
