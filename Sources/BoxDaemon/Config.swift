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
    /// Always one line: a journal line or a terminal line, never a block.
    public var description: String {
        let text = key.isEmpty ? message : "\(key): \(message)"
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
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
        return try parse(try readText(path), path: path, rules: rules)
    }

    /// The file's text, or a plain one-line reason ("is a directory", "no such file",
    /// "permission denied"), never Foundation's error domain text.
    static func readText(_ path: String) throws(ConfigError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigError("", "cannot read config \(path): no such file")
        }
        guard !isDirectory.boolValue else { throw ConfigError("", "cannot read config \(path): is a directory") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigError("", "cannot read config \(path): \(plainReason(error))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError("", "cannot read config \(path): not UTF-8 text")
        }
        return text
    }

    /// A file error in the system's own words (strerror), without NSError's domain and user info.
    static func plainReason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))).lowercased() }
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
        case .fileReadNoPermission: return "permission denied"
        case .fileReadTooLarge: return "too large"
        default: return "cannot be read"
        }
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
        // A section the file leaves out takes the embedded default's values (a file with
        // only [box] still has the default dose button and LED).
        let fallback = path == nil ? nil : try? TOMLTable(string: embeddedDefault)
        var reader = Reader(root: table, origin: path ?? "default", fallback: fallback)
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
///
/// The rules beyond types, each refused with the key named:
/// - `box.undo_seconds`: whole seconds, one of `DoseConstants.box.undo.choicesS` (3, 5, 7, 10).
/// - `box.ring_seconds`: whole seconds, 10 to 600 (`ringSecondsRange`): shorter than 10 s
///   is too short to wake anyone, longer than 10 minutes runs into the next snooze.
/// - `gpio.chip`: not empty ("auto" for the Raspberry Pi header chips).
/// - every line (`buttons.*.line`, `led.*`): 0 to 65535 (`lineRange`: the kernel counts a
///   chip's lines in 16 bits). Whether the line exists on the chip is checked against the chip.
/// - gestures, per slot (`allowedIntents(on:_:)`): a dose is only ever taken by a single press.
///   `single`: take, undo_or_status, a sleep event or nothing; `double`: snooze, a sleep event
///   or nothing; `hold`: undo_or_status, a sleep event or nothing (a hold is also the confirm
///   gesture, so it must never take a dose itself).
/// - `audio.volume`: above 0 and at most 1 (0 would silence the alarms).
/// - A section the file leaves out (`[gpio]`, `[buttons]`, `[led]`, `[audio]`) takes the
///   embedded default's values and shows as "default" in `sources`. A `[led]` section with
///   no line keys means a box without an LED.
struct Reader {
    let root: TOMLTable
    let origin: String
    /// The embedded default, for the sections the file leaves out.
    let fallback: TOMLTable?
    /// Top-level sections taken from `fallback`.
    var defaulted: Set<String> = []
    var sources: [String: String] = [:]

    init(root: TOMLTable, origin: String, fallback: TOMLTable? = nil) {
        self.root = root
        self.origin = origin
        self.fallback = fallback
    }

    static let ringSecondsRange = 10...600
    static let lineRange = 0...65_535
    /// Whether `intent` may sit on `gesture`'s slot; if not, what may (for the message).
    static func allowedIntents(on gesture: String, _ intent: ButtonIntent) -> (ok: Bool, allowed: String) {
        switch gesture {
        case "single": (intent != .snooze, "take, undo_or_status, nothing or a sleep event")
        case "double": (intent != .takeNext && intent != .undoOrStatus,
                        "snooze, nothing or a sleep event (a dose is taken only with a single press)")
        default: (intent != .takeNext && intent != .snooze,
                  "undo_or_status, nothing or a sleep event (a dose is taken only with a single press; a hold confirms)")
        }
    }

    static let known: [String: Set<String>] = [
        "": ["box", "gpio", "buttons", "led", "audio"],
        "box": ["time_zone", "target_minutes", "undo_seconds", "ring_seconds"],
        "gpio": ["chip"],
        "led": ["red", "green", "blue", "line", "active_low"],
        "audio": ["device", "volume"],
    ]
    static let buttonKeys: Set<String> = ["line", "active_low", "single", "double", "hold"]

    /// A top-level value, from the file or, when the file leaves it out, from the default.
    mutating func section(_ key: String) -> TOMLValueConvertible? {
        if let v = root[key] { return v }
        guard let v = fallback?[key] else { return nil }
        defaulted.insert(key)
        return v
    }

    mutating func table(_ key: String) throws(ConfigError) -> TOMLTable? {
        guard let v = section(key) else { return nil }
        guard let t = v.table else { throw ConfigError(key, "must be a table ([\(key)])") }
        return t
    }

    func origin(of key: String) -> String {
        let top = key.split(separator: ".").first.map(String.init) ?? key
        return defaulted.contains(top) ? "default" : origin
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
        sources[key] = origin(of: key)
        return v
    }

    /// Whole seconds: a TOML integer (or a float with nothing after the point, 60.0).
    mutating func seconds(_ t: TOMLTable?, _ p: String, _ n: String, default d: Int, _ hint: String) throws(ConfigError) -> Int {
        try value(t, p, n, default: d, { v in
            if let i = v.int { return i }
            guard let x = v.double, x.isFinite, x == x.rounded(), abs(x) < 1e9 else { return nil }
            return Int(x)
        }, "a whole number of seconds (\(hint))")
    }

    /// A GPIO line offset that fits a chip.
    mutating func line(_ t: TOMLTable?, _ p: String, _ n: String) throws(ConfigError) -> Int {
        let line = try int(t, p, n, default: 0)
        guard Self.lineRange.contains(line) else {
            throw ConfigError("\(p).\(n)", "\(line) is not a line number (\(Self.lineRange.lowerBound) to \(Self.lineRange.upperBound))")
        }
        return line
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
        let buttonsSection = section("buttons")
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
        let undoChoices = rules.undo.choicesS.map { DoseConstants.number($0) }.joined(separator: ", ")
        let undo = try seconds(box, "box", "undo_seconds", default: Int(rules.undo.defaultS), undoChoices)
        guard rules.undo.choicesS.contains(Double(undo)) else {
            throw ConfigError("box.undo_seconds", "\(undo) is not one of \(undoChoices)")
        }
        let ringRange = Self.ringSecondsRange
        let ring = try seconds(box, "box", "ring_seconds", default: Int(rules.alarm.ringS), "\(ringRange.lowerBound) to \(ringRange.upperBound)")
        guard ringRange.contains(ring) else {
            throw ConfigError("box.ring_seconds", "\(ring) must be between \(ringRange.lowerBound) and \(ringRange.upperBound) seconds")
        }
        let chip = try string(gpio, "gpio", "chip", default: "auto")
        guard !chip.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ConfigError("gpio.chip", "must not be empty (a chip label, name or path, or \"auto\")")
        }

        var buttons: [BoxConfig.Button] = []
        if let raw = buttonsSection {
            guard let all = raw.table else { throw ConfigError("buttons", "must be a table of buttons ([buttons.NAME])") }
            for name in all.keys.sorted() {
                let key = "buttons.\(name)"
                guard let t = all[name]?.table else { throw ConfigError(key, "must be a table ([\(key)])") }
                try checkKeys(t, key, allowed: Self.buttonKeys)
                guard t["line"] != nil else { throw ConfigError("\(key).line", "is required") }
                let line = try line(t, key, "line")
                let activeLow = try bool(t, key, "active_low", default: true)
                func intent(_ gesture: String, _ d: String) throws(ConfigError) -> ButtonIntent {
                    let text = try string(t, key, gesture, default: d)
                    guard let i = ButtonIntent(config: text) else {
                        throw ConfigError("\(key).\(gesture)", "\"\(text)\" is not take, snooze, undo_or_status, nothing or a sleep event (\(SleepEventType.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    let rule = Self.allowedIntents(on: gesture, i)
                    guard rule.ok else {
                        throw ConfigError("\(key).\(gesture)", "\"\(text)\" is not allowed for the \(gesture) gesture; use \(rule.allowed)")
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
                wiring = .single(line: try line(led, "led", "line"))
            } else if led["red"] != nil || led["green"] != nil || led["blue"] != nil {
                for c in ["red", "green", "blue"] where led[c] == nil {
                    throw ConfigError("led.\(c)", "is required for an RGB LED (or give led.line for a single LED)")
                }
                wiring = .rgb(red: try line(led, "led", "red"), green: try line(led, "led", "green"), blue: try line(led, "led", "blue"))
            }
        }
        let ledActiveLow = try bool(led, "led", "active_low", default: false)
        let device = try string(audio, "audio", "device", default: "default")
        guard !device.isEmpty else { throw ConfigError("audio.device", "must not be empty") }
        let volume = try number(audio, "audio", "volume", default: 0.8)
        guard volume > 0, volume <= 1 else {
            throw ConfigError("audio.volume", "\(DoseConstants.number(volume)) must be above 0 and at most 1 (0 would make the alarms silent)")
        }

        let config = BoxConfig(timeZone: tz, targetMinutes: target, undoSeconds: Double(undo), ringSeconds: Double(ring), chip: chip, buttons: buttons,
                               led: wiring, ledActiveLow: ledActiveLow, audioDevice: device, volume: volume, sources: sources, path: path)
        // One line, one use: checked here already, without a chip.
        let (buttonLines, ledWiring) = GPIOBackend.lines(config)
        do {
            try validateDistinctLines(buttonLines.map(\.assignment) + (ledWiring?.assignments ?? []))
        } catch let .lineAlreadyUsed(key, line, usedBy) {
            // A clash with a line the file never named: say where it came from.
            let fromDefault = [key, usedBy].filter { sources[$0] == "default" && path != nil }
            let note = fromDefault.isEmpty ? ""
                : " (\(fromDefault.joined(separator: " and ")) comes from the embedded default; add your own [\(fromDefault[0].split(separator: ".")[0])] section)"
            throw ConfigError(key, "line \(line) is already used by \(usedBy)\(note)")
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
