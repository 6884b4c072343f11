import BoxControl
import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

// What a program run by systemd says to it: readiness and watchdog pings (sd_notify), and log
// lines whose levels journald keeps. boxd's and the bridge's alike.

/// sd_notify without libsystemd: one datagram to $NOTIFY_SOCKET.
public struct SystemdNotifier: Sendable {
    let path: String?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public var isActive: Bool { path != nil }

    /// Sends `READY=1`, `STATUS=...`, `WATCHDOG=1` and the like. Failures are ignored: the box runs without systemd too.
    @discardableResult
    public func notify(_ message: String) -> Bool {
        guard let path else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(message.utf8)
        let sent = UnixSocket.withAddress(path) { addr, len in sendto(fd, bytes, bytes.count, 0, addr, len) }
        return (sent ?? -1) >= 0
    }

    /// Half of WATCHDOG_USEC, when systemd asks for watchdog pings (and they are for this process).
    public static func watchdogInterval(environment: [String: String] = ProcessInfo.processInfo.environment) -> Duration? {
        guard let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"].flatMap(Int32.init), pid != getpid() { return nil }
        return .microseconds(Int64(usec / 2))
    }
}

/// swift-log to stderr with sd-daemon priority prefixes (`<3>` error ... `<7>` debug), so
/// journald keeps the levels.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    let label: String

    public init(label: String, level: Logger.Level = .info) {
        self.label = label
        logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    public func log(event: LogEvent) {
        var text = "<\(Self.priority(event.level))>\(event.message)"
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        if !merged.isEmpty {
            text += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        text += "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}
