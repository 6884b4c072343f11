import DoseCore
import Foundation

// boxd's own files in its state directory, beside the night log. They are boxd's alone:
// boxctl reads only the log (its public record), so it cannot depend on them.

/// Settings changed at run time (boxctl target), kept in the state directory so they
/// survive restarts; they override the config file.
public struct SettingsStore: Sendable {
    public let directory: URL
    public var url: URL { directory.appendingPathComponent("settings.json") }

    public struct Saved: Codable, Sendable, Hashable {
        public var targetMinutes: Int?
        public init(targetMinutes: Int? = nil) { self.targetMinutes = targetMinutes }
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
}

/// The simulated clock's reading, saved in the state directory (`sim-clock.json`) so a
/// restarted boxd continues on the same simulated boot.
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
