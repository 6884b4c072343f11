import DoseCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// What boxd and boxctl both read: default paths, the files boxd keeps in its state
// directory (one schema each, here), the kernel's clocks, and local "HH:MM".

public enum BoxPaths {
    /// The night log, settings.json and sim-clock.json live here unless told otherwise.
    public static let defaultStateDirectory = "/var/lib/boxd"
    /// The control socket's name in its directory ($RUNTIME_DIRECTORY under systemd).
    public static let socketName = "control.sock"
    public static let defaultSocket = "/run/boxd/" + socketName
}

/// Settings changed at run time (boxctl target), kept in the state directory so they
/// survive restarts; they override the config file. `timeZone` is written at start so
/// boxctl can show local times while boxd is down.
public struct SettingsStore: Sendable {
    public let directory: URL
    public var url: URL { directory.appendingPathComponent("settings.json") }

    public struct Saved: Codable, Sendable, Hashable {
        public var targetMinutes: Int?
        public var timeZone: String?
        public init(targetMinutes: Int? = nil, timeZone: String? = nil) {
            self.targetMinutes = targetMinutes
            self.timeZone = timeZone
        }
    }

    public init(directory: URL) { self.directory = directory }

    public func load() -> Saved? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(Saved.self, from: data)
    }

    public func save(targetMinutes: Int) throws {
        var s = load() ?? Saved()
        s.targetMinutes = targetMinutes
        try JSONEncoder().encode(s).write(to: url, options: .atomic)
    }

    public func save(timeZone: TimeZone) throws {
        var s = load() ?? Saved()
        guard s.timeZone != timeZone.identifier else { return }
        s.timeZone = timeZone.identifier
        try JSONEncoder().encode(s).write(to: url, options: .atomic)
    }
}

/// The simulated clock's reading, saved in the state directory (`sim-clock.json`) so a
/// restarted boxd continues on the same simulated boot, and boxctl judges a night on it.
public struct SimClockFile: Sendable {
    public let url: URL

    public struct Reading: Codable, Sendable, Hashable {
        public var wall: Date
        public var mono: Int64
        public var boot: String
        public var startWall: Date
        public init(wall: Date, mono: Int64, boot: String, startWall: Date) {
            self.wall = wall
            self.mono = mono
            self.boot = boot
            self.startWall = startWall
        }

        public var moment: Moment { Moment(wall: wall, boot: boot, monoNanos: mono) }
    }

    public init(directory: URL) { url = directory.appendingPathComponent("sim-clock.json") }
    public init(url: URL) { self.url = url }

    public func load() -> Reading? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(Reading.self, from: data)
    }

    public func save(_ reading: Reading) throws {
        try JSONEncoder().encode(reading).write(to: url, options: .atomic)
    }
}

/// The kernel's clocks and boot id.
public enum KernelClock {
    public static func read(_ id: clockid_t) -> Int64 {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// CLOCK_BOOTTIME in ns: never jumps within a boot, counts suspend.
    public static func bootTime() -> Int64 { read(CLOCK_BOOTTIME) }

    /// The kernel's boot id: monotonic readings compare only within one boot.
    public static let bootID: String = {
        if let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) {
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !id.isEmpty { return id }
        }
        // Unknown boot: a fresh id means elapsed time across restarts falls back to the wall clock.
        return "unknown-\(UUID().uuidString.lowercased())"
    }()

    /// Now, on the real clocks.
    public static func now() -> Moment { Moment(wall: Date(), boot: bootID, monoNanos: bootTime()) }
}
