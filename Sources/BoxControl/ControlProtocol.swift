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

    /// The one decoder of command frames (the server's, and the fuzzer's): a command, or
    /// why not, naming the field.
    public static func decodeCommand(_ frame: [UInt8]) -> Result<Command, ProtocolError> {
        if frame.allSatisfy({ $0 == 32 || $0 == 13 || $0 == 9 }) { return .failure(ProtocolError("empty frame")) }
        do {
            return .success(try decoder().decode(Command.self, from: Data(frame)))
        } catch let error as ProtocolError {
            return .failure(error)
        } catch {
            // Not JSON, or not an object: the fields were never reached.
            return .failure(ProtocolError("malformed request: expected one JSON object with v and cmd per line"))
        }
    }

    /// One line of the wire: the JSON and its newline.
    public static func line(_ value: some Encodable) throws -> Data {
        var data = try encoder().encode(value)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// A decoding error in words, with its path as the wire spells it ("checkin.mood: ...").
    public static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map(String.init) ?? snakeCase($0.stringValue) }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let c): return "\(path(c.codingPath + [key])) is missing"
        case .typeMismatch(_, let c), .valueNotFound(_, let c): return "\(path(c.codingPath)) has the wrong type"
        case .dataCorrupted(let c): return "\(path(c.codingPath)): \(c.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    static func snakeCase(_ key: String) -> String {
        key.reduce(into: "") { out, ch in
            if ch.isUppercase { out += "_" + ch.lowercased() } else { out.append(ch) }
        }
    }

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

/// What became of a request, as v1's `exit` field numbers it (the number boxctl exits with
/// for such a reply; boxctl's `Exit` owns the exit codes, and a test holds the two together).
/// A number this build does not know (5 from an older boxd, or a newer one's) reads as failed.
public enum ReplyClass: Int32, Sendable, Codable {
    case ok = 0
    case usage = 2
    case refused = 3
    /// boxd is too busy to answer (its connections are all taken).
    case busy = 4
    /// The box failed to do it (for example the log could not be written): nothing was recorded.
    case failed = 6

    public init(from decoder: any Decoder) throws {
        self = ReplyClass(rawValue: try decoder.singleValueContainer().decode(Int32.self)) ?? .failed
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
    /// For a sentence said (`name` "speech"): its words.
    public var text: String?
    public init(offsetMs: Int64, name: String, level: String?, failed: Bool = false, text: String? = nil) {
        self.offsetMs = offsetMs
        self.name = name
        self.level = level
        self.failed = failed ? true : nil
        self.text = text
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
