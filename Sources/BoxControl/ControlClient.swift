import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends one command to boxd's control socket and reads the reply.
public struct ControlClient: Sendable {
    public enum Failure: Error, CustomStringConvertible {
        /// boxd is not there (no socket, nobody listening, no permission).
        case unreachable(String)
        /// boxd answered something that is not a reply.
        case badReply(String)

        public var description: String {
            switch self {
            case .unreachable(let s): s
            case .badReply(let s): s
            }
        }
    }

    public let path: String
    public let timeout: Duration

    public init(path: String, timeout: Duration = .seconds(10)) {
        self.path = path
        self.timeout = timeout
    }

    public func send(_ command: Command) throws(Failure) -> Reply {
        let fd = try connect(sending: command) { fd in
            var tv = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
        defer { close(fd) }

        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !reply.contains(UInt8(ascii: "\n")) {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { throw .unreachable("boxd did not answer (\(n == 0 ? "connection closed" : String(cString: strerror(errno))))") }
            reply += chunk[0..<n]
            if reply.count > 16 * 1024 * 1024 { throw .badReply("reply too large") }
        }
        let line = reply.prefix { $0 != UInt8(ascii: "\n") }
        do {
            return try ControlProtocol.decoder().decode(Reply.self, from: Data(line))
        } catch {
            throw .badReply("boxd's reply could not be read: \(error)")
        }
    }
}

extension ControlClient {
    /// Sends `watch` and hands every reply frame to `onReply` until boxd closes the
    /// connection (then `.unreachable`) or `onReply` returns false. No read timeout: a
    /// quiet night sends nothing for hours.
    public func watch(after: Int64?, onReply: (Reply) -> Bool) throws(Failure) {
        let connection = try openWatch(after: after)
        while let reply = try connection.next() {
            guard onReply(reply) else { return }
        }
    }
}

extension ControlClient {
    /// A connected socket that `command` was written to (`prepare` runs before the write);
    /// the caller closes it.
    func connect(sending command: Command, prepare: (Int32) -> Void) throws(Failure) -> Int32 {
        guard UnixSocket.address(path) != nil else { throw .unreachable("socket path too long: \(path)") }
        guard let fd = UnixSocket.connectStream(path) else {
            throw .unreachable("boxd is not reachable at \(path): \(String(cString: strerror(errno)))")
        }
        prepare(fd)
        guard let frame = try? ControlProtocol.line(command) else {
            close(fd)
            throw .badReply("cannot encode the command")
        }
        guard UnixSocket.writeAll(fd, frame) || Self.hasUnreadReply(fd) else {
            close(fd)
            throw .unreachable("boxd closed the connection")
        }
        return fd
    }

    /// boxd may answer and close before the command is written (busy: too many connections at
    /// once); what it said is still there to read.
    static func hasUnreadReply(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }
}

/// Durations as people type them: 150m, 30s, 1h5m, 1d, 500ms, with an optional sign.
public enum DurationText {
    public static func parseMilliseconds(_ text: String) -> Int64? {
        var s = Substring(text.trimmingCharacters(in: .whitespaces))
        var sign: Int64 = 1
        if s.first == "-" { sign = -1; s = s.dropFirst() } else if s.first == "+" { s = s.dropFirst() }
        guard !s.isEmpty else { return nil }
        var total: Int64 = 0
        var number = ""
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if c.isNumber {
                number.append(c)
                i = s.index(after: i)
                continue
            }
            guard let n = Int64(number) else { return nil }
            number = ""
            var unit = String(c)
            let next = s.index(after: i)
            if c == "m", next < s.endIndex, s[next] == "s" {
                unit = "ms"
                i = s.index(after: next)
            } else {
                i = next
            }
            let factor: Int64
            switch unit {
            case "ms": factor = 1
            case "s": factor = 1000
            case "m": factor = 60_000
            case "h": factor = 3_600_000
            case "d": factor = 86_400_000
            default: return nil
            }
            let (product, overflow) = n.multipliedReportingOverflow(by: factor)
            guard !overflow else { return nil }
            total += product
        }
        guard number.isEmpty else { return nil } // a number with no unit
        return sign * total
    }
}
