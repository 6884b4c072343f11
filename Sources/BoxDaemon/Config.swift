import BoxGPIO
import DoseCore
import Foundation
import TOMLKit

/// A config problem, named by its key: `buttons.dose.line: 99 is not a line of chip pinctrl-rp1 (0..53)`.
public struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    public var key: String
    public var message: String
    public init(_ key: String, _ message: String) {
        self.key = key
        self.message = message
    }
    public var description: String { key.isEmpty ? message : "\(key): \(message)" }
}

/// /etc/boxd/boxd.toml, validated. Every value remembers where it came from.
public struct BoxConfig: Sendable {
    public struct Button: Sendable, Hashable {
        public var name: String
        public var line: Int
        public var activeLow: Bool
        public var map: GestureMap
    }

    public enum LEDWiring: Sendable, Hashable {
        case rgb(red: Int, green: Int, blue: Int)
        case single(line: Int)
    }

    public var timeZone: TimeZone
    public var targetMinutes: Int
    public var undoSeconds: Double
    public var ringSeconds: Double
    /// A chip label, name or path; "auto" tries the Raspberry Pi header chips.
    public var chip: String
    public var buttons: [Button]
    public var led: LEDWiring?
    public var ledActiveLow: Bool
    public var audioDevice: String
    public var volume: Double
    /// Where each value came from, by key: "default" or the file's path.
    public var sources: [String: String]
    public var path: String?

    /// Used when no config file exists: one dose button, an RGB LED, the default sound device.
    public static let embeddedDefault = """
    [box]
    time_zone = "\(TimeZone.current.identifier)"
    target_minutes = \(DoseConstants.box.window.defaultTargetMin)
    undo_seconds = \(DoseConstants.number(DoseConstants.box.undo.defaultS))
    ring_seconds = \(DoseConstants.number(DoseConstants.box.alarm.ringS))

    [gpio]
    chip = "auto"

    [buttons.dose]
    line = 17
    active_low = true
    single = "take"
    double = "snooze"
    hold = "undo_or_status"

    [led]
    red = 22
    green = 23
    blue = 24
    active_low = false

    [audio]
    device = "default"
    volume = 0.8
    """

    /// Loads `path`, or the embedded default when `path` is nil.
    public static func load(path: String?, rules: DoseConstants = .box) throws(ConfigError) -> BoxConfig {
        guard let path else { return try parse(embeddedDefault, path: nil, rules: rules) }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError("", "cannot read config \(path): \((error as NSError).localizedDescription)")
        }
        return try parse(text, path: path, rules: rules)
    }

    public static func parse(_ text: String, path: String?, rules: DoseConstants = .box) throws(ConfigError) -> BoxConfig {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw ConfigError("", "\(path ?? "config"): TOML syntax error at line \(e.source.begin.line), column \(e.source.begin.column): \(e.description)")
        } catch {
            throw ConfigError("", "\(path ?? "config"): not valid TOML")
        }
        var reader = Reader(root: table, origin: path ?? "default")
        return try reader.config(rules: rules, path: path)
    }

    /// The dose rules' settings this config asks for.
    public func settings(rules: DoseConstants = .box) -> BoxSettings {
        BoxSettings(rules: rules, targetMinutes: targetMinutes, undoWindow: .seconds(undoSeconds), ringTime: .seconds(ringSeconds),
                    timeZone: timeZone, buttons: Dictionary(uniqueKeysWithValues: buttons.map { ($0.name, $0.map) }))
    }

    /// Every value with its source, for `boxctl config show`.
    public var entries: [(key: String, value: String)] {
        var out: [(String, String)] = [
            ("box.time_zone", timeZone.identifier), ("box.target_minutes", String(targetMinutes)),
            ("box.undo_seconds", format(undoSeconds)), ("box.ring_seconds", format(ringSeconds)), ("gpio.chip", chip),
        ]
        for b in buttons {
            out += [("buttons.\(b.name).line", String(b.line)), ("buttons.\(b.name).active_low", String(b.activeLow)),
                    ("buttons.\(b.name).single", b.map.single.description), ("buttons.\(b.name).double", b.map.double.description),
                    ("buttons.\(b.name).hold", b.map.hold.description)]
        }
        switch led {
        case .rgb(let r, let g, let b)?: out += [("led.red", String(r)), ("led.green", String(g)), ("led.blue", String(b))]
        case .single(let l)?: out.append(("led.line", String(l)))
        case nil: break
        }
        out += [("led.active_low", String(ledActiveLow)), ("audio.device", audioDevice), ("audio.volume", format(volume))]
        return out
    }

    func format(_ d: Double) -> String { DoseConstants.number(d) }
}

/// Reads typed values by dotted key, rejecting unknown keys and wrong types with the key named.
struct Reader {
    let root: TOMLTable
    let origin: String
    var sources: [String: String] = [:]

    init(root: TOMLTable, origin: String) {
        self.root = root
        self.origin = origin
    }

    static let known: [String: Set<String>] = [
        "": ["box", "gpio", "buttons", "led", "audio"],
        "box": ["time_zone", "target_minutes", "undo_seconds", "ring_seconds"],
        "gpio": ["chip"],
        "led": ["red", "green", "blue", "line", "active_low"],
        "audio": ["device", "volume"],
    ]
    static let buttonKeys: Set<String> = ["line", "active_low", "single", "double", "hold"]

    func table(_ key: String) throws(ConfigError) -> TOMLTable? {
        guard let v = root[key] else { return nil }
        guard let t = v.table else { throw ConfigError(key, "must be a table ([\(key)])") }
        return t
    }

    func checkKeys(_ t: TOMLTable, _ prefix: String, allowed: Set<String>) throws(ConfigError) {
        for k in t.keys.sorted() where !allowed.contains(k) {
            throw ConfigError(prefix.isEmpty ? k : "\(prefix).\(k)", "unknown key (expected one of \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    mutating func value<T>(_ t: TOMLTable?, _ prefix: String, _ name: String, default d: T,
                           _ read: (TOMLValueConvertible) -> T?, _ typeName: String) throws(ConfigError) -> T {
        let key = "\(prefix).\(name)"
        guard let raw = t?[name] else {
            sources[key] = "default"
            return d
        }
        guard let v = read(raw) else { throw ConfigError(key, "must be \(typeName)") }
        sources[key] = origin
        return v
    }

    mutating func int(_ t: TOMLTable?, _ p: String, _ n: String, default d: Int) throws(ConfigError) -> Int {
        try value(t, p, n, default: d, { $0.int }, "an integer")
    }
    mutating func number(_ t: TOMLTable?, _ p: String, _ n: String, default d: Double) throws(ConfigError) -> Double {
        try value(t, p, n, default: d, { $0.double ?? $0.int.map(Double.init) }, "a number")
    }
    mutating func string(_ t: TOMLTable?, _ p: String, _ n: String, default d: String) throws(ConfigError) -> String {
        try value(t, p, n, default: d, { $0.string }, "a string")
    }
    mutating func bool(_ t: TOMLTable?, _ p: String, _ n: String, default d: Bool) throws(ConfigError) -> Bool {
        try value(t, p, n, default: d, { $0.bool }, "true or false")
    }

    mutating func config(rules: DoseConstants, path: String?) throws(ConfigError) -> BoxConfig {
        try checkKeys(root, "", allowed: Self.known[""]!)
        let box = try table("box"), gpio = try table("gpio"), led = try table("led"), audio = try table("audio")
        if let box { try checkKeys(box, "box", allowed: Self.known["box"]!) }
        if let gpio { try checkKeys(gpio, "gpio", allowed: Self.known["gpio"]!) }
        if let led { try checkKeys(led, "led", allowed: Self.known["led"]!) }
        if let audio { try checkKeys(audio, "audio", allowed: Self.known["audio"]!) }

        let tzName = try string(box, "box", "time_zone", default: TimeZone.current.identifier)
        guard let tz = TimeZone(identifier: tzName) else {
            throw ConfigError("box.time_zone", "\"\(tzName)\" is not an IANA time zone name (for example America/New_York)")
        }
        let target = try int(box, "box", "target_minutes", default: rules.window.defaultTargetMin)
        guard rules.window.validTargetsMin.contains(target) else {
            throw ConfigError("box.target_minutes", "\(target) is not one of \(rules.window.validTargetsMin.map(String.init).joined(separator: ", "))")
        }
        let undo = try number(box, "box", "undo_seconds", default: rules.undo.defaultS)
        guard rules.undo.choicesS.contains(undo) else {
            throw ConfigError("box.undo_seconds", "\(undo) is not one of \(rules.undo.choicesS.map { String(Int($0)) }.joined(separator: ", "))")
        }
        let ring = try number(box, "box", "ring_seconds", default: rules.alarm.ringS)
        guard (5...600).contains(ring) else { throw ConfigError("box.ring_seconds", "\(ring) must be between 5 and 600") }
        let chip = try string(gpio, "gpio", "chip", default: "auto")

        var buttons: [BoxConfig.Button] = []
        if let raw = root["buttons"] {
            guard let all = raw.table else { throw ConfigError("buttons", "must be a table of buttons ([buttons.NAME])") }
            for name in all.keys.sorted() {
                let key = "buttons.\(name)"
                guard let t = all[name]?.table else { throw ConfigError(key, "must be a table ([\(key)])") }
                try checkKeys(t, key, allowed: Self.buttonKeys)
                guard t["line"] != nil else { throw ConfigError("\(key).line", "is required") }
                let line = try int(t, key, "line", default: 0)
                guard line >= 0 else { throw ConfigError("\(key).line", "\(line) is not a line number") }
                let activeLow = try bool(t, key, "active_low", default: true)
                func intent(_ gesture: String, _ d: String) throws(ConfigError) -> ButtonIntent {
                    let text = try string(t, key, gesture, default: d)
                    guard let i = ButtonIntent(config: text) else {
                        throw ConfigError("\(key).\(gesture)", "\"\(text)\" is not take, snooze, undo_or_status, nothing or a sleep event (\(SleepEventType.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    return i
                }
                let map = GestureMap(single: try intent("single", "take"), double: try intent("double", "snooze"), hold: try intent("hold", "undo_or_status"))
                buttons.append(.init(name: name, line: line, activeLow: activeLow, map: map))
            }
        }
        guard buttons.contains(where: { $0.map.isDoseButton }) else {
            throw ConfigError("buttons", "no button takes doses: one button needs single = \"take\"")
        }

        var wiring: BoxConfig.LEDWiring?
        if let led {
            if led["line"] != nil {
                if led["red"] != nil || led["green"] != nil || led["blue"] != nil {
                    throw ConfigError("led", "give either line (a single LED) or red, green and blue (an RGB LED), not both")
                }
                wiring = .single(line: try int(led, "led", "line", default: 0))
            } else if led["red"] != nil || led["green"] != nil || led["blue"] != nil {
                for c in ["red", "green", "blue"] where led[c] == nil {
                    throw ConfigError("led.\(c)", "is required for an RGB LED (or give led.line for a single LED)")
                }
                wiring = .rgb(red: try int(led, "led", "red", default: 0), green: try int(led, "led", "green", default: 0),
                              blue: try int(led, "led", "blue", default: 0))
            }
        }
        let ledActiveLow = try bool(led, "led", "active_low", default: false)
        let device = try string(audio, "audio", "device", default: "default")
        guard !device.isEmpty else { throw ConfigError("audio.device", "must not be empty") }
        let volume = try number(audio, "audio", "volume", default: 0.8)
        guard (0...1).contains(volume) else { throw ConfigError("audio.volume", "\(volume) must be between 0.0 and 1.0") }

        let config = BoxConfig(timeZone: tz, targetMinutes: target, undoSeconds: undo, ringSeconds: ring, chip: chip, buttons: buttons,
                               led: wiring, ledActiveLow: ledActiveLow, audioDevice: device, volume: volume, sources: sources, path: path)
        // One line, one use: checked here already, without a chip.
        let (buttonLines, ledWiring) = GPIOBackend.lines(config)
        do {
            try validateDistinctLines(buttonLines.map(\.assignment) + (ledWiring?.assignments ?? []))
        } catch {
            let text = "\(error)"
            let key = text.split(separator: ":").first.map(String.init) ?? "gpio"
            throw ConfigError(key, String(text.dropFirst(key.count + 1)).trimmingCharacters(in: .whitespaces))
        }
        return config
    }
}

extension BoxConfig {
    /// Checks the GPIO lines against the chip when one is present. Returns a note on what
    /// could not be checked.
    public func checkHardware() throws(ConfigError) -> String {
        guard let chip = try? GPIOChipLocator.system.locate(chip) else {
            return "GPIO lines not checked: no chip matching \"\(self.chip)\" on this machine"
        }
        try GPIOBackend.check(self, on: chip)
        return "GPIO lines fit \(chip.summary)"
    }
}
