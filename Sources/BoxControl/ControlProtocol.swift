import DoseCore
import Foundation

/// The control socket speaks newline-delimited JSON: one request per line, one reply per
/// line. Every frame carries `v`, the protocol version.
public enum ControlProtocol {
    public static let version = 1
    /// Frames longer than this are refused (and the connection closed): a client has no reason to send more.
    public static let maxFrameBytes = 64 * 1024
    /// A sleep-event or check-in note, in UTF-8 bytes: a paragraph, well inside a frame.
    public static let maxNoteBytes = 8 * 1024

    /// Why a note cannot be sent, naming the option and its limit, or nil.
    public static func noteProblem(_ note: String?, option: String) -> String? {
        guard let note, note.utf8.count > maxNoteBytes else { return nil }
        return "\(option) is \(note.utf8.count) bytes; a note may have at most \(maxNoteBytes) bytes"
    }
    public static let defaultSocketPath = "/run/boxd/control.sock"

    public static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        e.keyEncodingStrategy = .convertToSnakeCase
        e.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(date.iso8601)
        }
        return e
    }

    public static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        d.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = Date(iso8601: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not ISO 8601: \(text)"))
            }
            return date
        }
        return d
    }
}

/// The exit codes boxctl uses, also carried in replies so that both agree.
public enum ExitCode: Int32, Sendable, Codable {
    case ok = 0
    case usage = 2
    case refused = 3
    case unreachable = 4
    case logUnreadable = 5
    /// The box failed to do it (for example the log could not be written): nothing was recorded.
    case failed = 6
}

/// One request. Flat optional fields keep the wire format plain: `{"v":1,"cmd":"take","confirm":true}`.
public struct ControlRequest: Codable, Sendable, Hashable {
    public var v: Int
    public var cmd: String
    public var confirm: Bool?
    public var reason: String?
    public var event: String?
    public var note: String?
    public var minutes: Int?
    public var button: String?
    public var holdMs: Int?
    public var edges: String?
    public var ms: Int64?
    public var clear: Bool?
    public var checkin: CheckInAnswers?
    public var name: String?

    public init(_ cmd: String, confirm: Bool? = nil, reason: String? = nil, event: String? = nil, note: String? = nil,
                minutes: Int? = nil, button: String? = nil, holdMs: Int? = nil, edges: String? = nil, ms: Int64? = nil,
                clear: Bool? = nil, checkin: CheckInAnswers? = nil, name: String? = nil) {
        v = ControlProtocol.version
        self.cmd = cmd
        self.confirm = confirm
        self.reason = reason
        self.event = event
        self.note = note
        self.minutes = minutes
        self.button = button
        self.holdMs = holdMs
        self.edges = edges
        self.ms = ms
        self.clear = clear
        self.checkin = checkin
        self.name = name
    }
}

/// One reply. `code` is the refusal's code (the seeds' where they have one).
public struct ControlResponse: Codable, Sendable {
    public var v: Int = ControlProtocol.version
    public var ok: Bool
    public var exit: ExitCode
    public var message: String
    public var code: String?
    public var status: StatusReport?
    public var led: LEDReport?
    public var sounds: [SoundReport]?
    public var config: [ConfigEntry]?
    /// Measurements kept by boxd for the benchmark, in milliseconds, by name.
    public var metrics: [String: [Double]]?

    public init(ok: Bool, exit: ExitCode, message: String, code: String? = nil) {
        self.ok = ok
        self.exit = exit
        self.message = message
        self.code = code
    }

    public static func success(_ message: String) -> ControlResponse { ControlResponse(ok: true, exit: .ok, message: message) }
    public static func usage(_ message: String) -> ControlResponse {
        ControlResponse(ok: false, exit: .usage, message: message, code: "400_BAD_REQUEST")
    }
}

public struct LEDReport: Codable, Sendable, Hashable {
    public var color: String
    public var pattern: String
    /// A flash laid over the steady pattern right now, if any.
    public var flash: String?
    public init(color: String, pattern: String, flash: String? = nil) {
        self.color = color
        self.pattern = pattern
        self.flash = flash
    }
}

public struct SoundReport: Codable, Sendable, Hashable {
    /// Milliseconds since the simulated clock started.
    public var offsetMs: Int64
    public var name: String
    public var level: String?
    /// The player reported a fault when asked to play it: it was not heard.
    public var failed: Bool?
    public init(offsetMs: Int64, name: String, level: String?, failed: Bool = false) {
        self.offsetMs = offsetMs
        self.name = name
        self.level = level
        self.failed = failed ? true : nil
    }
}

public struct ConfigEntry: Codable, Sendable, Hashable {
    public var key: String
    public var value: String
    /// default, the config file's path, or the state directory (boxctl target).
    public var source: String
    public init(key: String, value: String, source: String) {
        self.key = key
        self.value = value
        self.source = source
    }
}
