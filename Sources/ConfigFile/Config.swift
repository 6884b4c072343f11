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
        /// LED class devices (/sys/class/leds/NAME) whose `pattern` trigger the kernel runs.
        case classRGB(red: String, green: String, blue: String)
        case classSingle(name: String)
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
    /// `[mqtt]`, when the caregiver link is on (the bridge's; boxd only checks it).
    public var caregiverLink: CaregiverLinkConfig?
    /// `[voice]` (#15): spoken status and warnings, through the tones' player.
    public var voice = VoiceConfig()
    /// `[schedule]` (#32): the person's sleep start, wake, prep time and missed check-in cut-off.
    public var schedule: DoseConstants.Session = DoseConstants.box.session
    /// `[evening]` (#33): Take Care's sensitivity and water checks (seed 002's user settings).
    public var evening = EveningConfig()
    /// Where each value came from, by key: "default" or the file's path. Every key of
    /// `entries` has one; a key the file does not set is never put down to the file.
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

    [voice]
    enabled = true
    language = "en"
    clock = "12h"
    """

    /// Loads `path`, or the embedded default when `path` is nil. boxd passes `.boxd`: a
    /// file's text is parsed in a child process first (see `TOMLIsolation`); and its voices.
    /// `meanwhile`: see `TOMLIsolation.vet`.
    public static func load(path: String?, isolation: TOMLIsolation, rules: DoseConstants = .box,
                            voices: (any VoiceCatalog)? = nil, meanwhile: () -> Void = {}) throws(ConfigError) -> BoxConfig {
        guard let path else {
            return try parse(embeddedDefault, path: nil, isolation: .inProcess, rules: rules, voices: voices, meanwhile: meanwhile)
        }
        return try parse(try readText(path), path: path, isolation: isolation, rules: rules, voices: voices, meanwhile: meanwhile)
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

    /// `text` as a config: the known shapes that stop toml++ refused with line and column
    /// (`TOMLPrecheck`), then any other that would stop it refused by a child that dies in
    /// boxd's place (`isolation`), then the parse and every rule (`Reader`). `.inProcess` is for
    /// text that cannot stop the parser (the embedded default) and for tests.
    public static func parse(_ text: String, path: String?, isolation: TOMLIsolation = .inProcess,
                             rules: DoseConstants = .box, voices: (any VoiceCatalog)? = nil,
                             meanwhile: () -> Void = {}) throws(ConfigError) -> BoxConfig {
        do {
            try TOMLPrecheck.check(text)
        } catch {
            throw ConfigError("", "\(path ?? "config"): TOML syntax error at line \(error.line), column \(error.column): \(error.message)")
        }
        // The voice asked in the child (or its note) is not asked again here: see `vet`.
        let vouched = try isolation.vet(text, path: path, voices: voices, meanwhile: meanwhile)
        var config = try parsePrechecked(text, path: path, rules: rules, voices: vouched ? nil : voices)
        config.voice.languageVouched = vouched
        return config
    }

    /// What follows the precheck: toml++ and the rules. The isolation child runs exactly this.
    static func parsePrechecked(_ text: String, path: String?, rules: DoseConstants = .box,
                                voices: (any VoiceCatalog)? = nil) throws(ConfigError) -> BoxConfig {
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
        var reader = Reader(root: table, origin: path ?? "default", fallback: fallback, voices: voices)
        return try reader.config(rules: rules, path: path)
    }

    /// The dose rules' settings this config asks for, with `[schedule]`'s times in the rules.
    public func settings(rules: DoseConstants = .box) -> BoxSettings {
        var rules = rules
        rules.session = schedule
        return BoxSettings(rules: rules, targetMinutes: targetMinutes, undoWindow: .seconds(undoSeconds), ringTime: .seconds(ringSeconds),
                    timeZone: timeZone, buttons: Dictionary(uniqueKeysWithValues: buttons.map { ($0.name, $0.map) }),
                    voice: VoiceSettings(enabled: voice.enabled, clock: voice.clock, stayInBed: voice.stayInBed))
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
        case .classRGB(let r, let g, let b)?: out += [("led.class_red", r), ("led.class_green", g), ("led.class_blue", b)]
        case .classSingle(let name)?: out.append(("led.class", name))
        case nil: break
        }
        out += [("led.active_low", String(ledActiveLow)), ("audio.device", audioDevice), ("audio.volume", format(volume))]
        out += [("voice.enabled", String(voice.enabled)), ("voice.volume", format(voice.volume ?? volume)),
                ("voice.language", voice.language), ("voice.clock", voice.clock.rawValue),
                ("voice.stay_in_bed", String(voice.stayInBed))]
        out += [("schedule.sleep_start", schedule.sleepStart.description), ("schedule.wake", schedule.wakeTime.description),
                ("schedule.prep_time", schedule.prepTime.description),
                ("schedule.missed_checkin_cutoff_hours", format(schedule.missedCheckinCutoffH))]
        out += [("evening.sensitivity", evening.sensitivity.rawValue), ("evening.hydration_reminders", String(evening.hydrationReminders))]
        if let m = caregiverLink {
            out += [("mqtt.enabled", "true"), ("mqtt.host", m.host), ("mqtt.port", String(m.port))]
            out += [("mqtt.tls_ca", m.tlsCA), ("mqtt.tls_cert", m.tlsCert), ("mqtt.tls_key", m.tlsKey), ("mqtt.username", m.username),
                    ("mqtt.password_file", m.passwordFile)].compactMap { k, v in v.map { (k, $0) } }
            out += [("mqtt.base_topic", m.baseTopic), ("mqtt.box_id", m.boxID), ("mqtt.keepalive_seconds", String(m.keepaliveSeconds)),
                    ("mqtt.discovery_prefix", m.discoveryPrefix)]
        } else {
            out.append(("mqtt.enabled", "false"))
        }
        return out
    }

    func format(_ d: Double) -> String { DoseConstants.number(d) }

    /// Where `key`'s value came from, for `boxctl config show`: a key the reader did not note
    /// is a default, not the file's (`voice.volume` was put down to a file that set no voice key).
    public func source(of key: String) -> String { sources[key] ?? "default" }
}

/// `[voice]`: whether the box speaks, how loud (the tones' volume unless set), in which
/// espeak-ng voice, and how it says a time of day.
public struct VoiceConfig: Sendable, Hashable {
    public var enabled = true
    public var volume: Double?
    public var language = "en"
    public var clock = ClockStyle.twelveHour
    /// The stay-in-bed reminder after each dose (the seeds' safety protocol).
    public var stayInBed = true
    /// Not from the file: espeak-ng knew `language` when the config's vetting child asked it
    /// (`TOMLIsolation.vet`), so boxd loads espeak-ng when it first speaks, not at its start.
    public var languageVouched = false

    public init() {}
}

/// Which espeak-ng voices exist: boxd asks espeak-ng; a reader given none leaves
/// `voice.language` unchecked (the bridge, which never speaks).
public protocol VoiceCatalog: Sendable {
    /// Whether `language` names a voice; nil when it cannot be told (espeak-ng missing:
    /// then boxd starts, and the voice's failure is logged when it speaks).
    func hasVoice(_ language: String) -> Bool?
}

extension BoxConfig {
    /// Every GPIO line the config claims, by its key, in config order: the buttons', then
    /// the LED's.
    public var lineAssignments: [(key: String, line: Int)] {
        var out = buttons.map { (key: "buttons.\($0.name).line", line: $0.line) }
        switch led {
        case .rgb(let r, let g, let b)?: out += [("led.red", r), ("led.green", g), ("led.blue", b)]
        case .single(let l)?: out.append(("led.line", l))
        case .classRGB?, .classSingle?, nil: break
        }
        return out
    }
}
