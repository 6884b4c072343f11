import DoseCore
import Foundation
import TOMLKit

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
///   gesture, so it must never take a dose itself). Any slot may log a drink (drink:TYPE) or
///   take the evening's last one back (undo_drink, #33).
/// - `audio.volume`: above 0 and at most 1 (0 would silence the alarms).
/// - `voice.volume`: the same range (the tones' volume when left out); `voice.language`: a
///   voice espeak-ng has (asked of `voices`, when given); `voice.clock`: "12h" or "24h";
///   `voice.stay_in_bed`: a boolean.
/// - `[schedule]` (`scheduleSection`): times of day as "HH:MM"; `prep_time` on the hour, from
///   12:00 to 23:00 (it is also where a night's date rolls over, so it must fall between a
///   morning and its evening); `wake` before it; `missed_checkin_cutoff_hours` 1 to 12.
/// - A section the file leaves out (`[gpio]`, `[buttons]`, `[led]`, `[audio]`) takes the
///   embedded default's values and shows as "default" in `sources`. A `[led]` section with
///   no line keys means a box without an LED.
struct Reader {
    let root: TOMLTable
    let origin: String
    /// The embedded default, for the sections the file leaves out.
    let fallback: TOMLTable?
    /// Who knows which voices exist (boxd asks espeak-ng); nil: the language is not checked.
    let voices: (any VoiceCatalog)?
    /// Top-level sections taken from `fallback`.
    var defaulted: Set<String> = []
    var sources: [String: String] = [:]

    init(root: TOMLTable, origin: String, fallback: TOMLTable? = nil, voices: (any VoiceCatalog)? = nil) {
        self.root = root
        self.origin = origin
        self.fallback = fallback
        self.voices = voices
    }

    static let ringSecondsRange = 10...600
    static let lineRange = 0...65_535
    /// Whether `intent` may sit on `gesture`'s slot; if not, what may (for the message).
    static func allowedIntents(on gesture: String, _ intent: ButtonIntent) -> (ok: Bool, allowed: String) {
        switch gesture {
        case "single": (intent != .snooze, "take, undo_or_status, nothing, a sleep event, drink:TYPE or undo_drink")
        case "double": (intent != .takeNext && intent != .undoOrStatus,
                        "snooze, nothing, a sleep event, drink:TYPE or undo_drink (a dose is taken only with a single press)")
        default: (intent != .takeNext && intent != .snooze,
                  "undo_or_status, nothing, a sleep event, drink:TYPE or undo_drink (a dose is taken only with a single press; a hold confirms)")
        }
    }

    static let known: [String: Set<String>] = [
        "": ["box", "gpio", "buttons", "led", "audio", "voice", "schedule", "evening", "mqtt"],
        "box": ["time_zone", "target_minutes", "undo_seconds", "ring_seconds"],
        "gpio": ["chip"],
        "led": ["red", "green", "blue", "line", "active_low", "class", "class_red", "class_green", "class_blue"],
        "audio": ["device", "volume"],
        "voice": ["enabled", "volume", "language", "clock", "stay_in_bed"],
        "schedule": ["sleep_start", "wake", "prep_time", "missed_checkin_cutoff_hours"],
        "evening": ["sensitivity", "hydration_reminders"],
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
            let shown = k.isEmpty ? "\"\"" : k // an empty quoted key still names itself
            throw ConfigError(prefix.isEmpty ? shown : "\(prefix).\(shown)", "unknown key (expected one of \(allowed.sorted().joined(separator: ", ")))")
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
    /// `P.volume`: above 0 and at most 1 (default 0.8); `why` ends the refusal's text.
    mutating func volume(_ t: TOMLTable?, _ p: String, unless why: String) throws(ConfigError) -> Double {
        let volume = try number(t, p, "volume", default: 0.8)
        guard volume > 0, volume <= 1 else { throw ConfigError("\(p).volume", "\(DoseConstants.number(volume)) must be above 0 and at most 1 (\(why))") }
        return volume
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
                        throw ConfigError("\(key).\(gesture)", "\"\(text)\" is not take, snooze, undo_or_status, nothing, a sleep event (\(SleepEventType.allCases.map(\.rawValue).joined(separator: ", "))), drink:TYPE (\(DrinkType.allCases.map(\.rawValue).joined(separator: ", "))) or undo_drink")
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

        let (wiring, ledActiveLow) = try ledSection(led)
        let device = try string(audio, "audio", "device", default: "default")
        guard !device.isEmpty else { throw ConfigError("audio.device", "must not be empty") }
        let volume = try volume(audio, "audio", unless: "0 would make the alarms silent")

        let caregiverLink = try mqtt()
        let voice = try voiceSection()
        let schedule = try scheduleSection(rules.session)
        let evening = try eveningSection()
        var config = BoxConfig(timeZone: tz, targetMinutes: target, undoSeconds: Double(undo), ringSeconds: Double(ring), chip: chip, buttons: buttons,
                               led: wiring, ledActiveLow: ledActiveLow, audioDevice: device, volume: volume, caregiverLink: caregiverLink,
                               voice: voice, sources: sources, path: path)
        config.schedule = schedule
        config.evening = evening
        // One line, one use: checked here already, without a chip (the chip's own range is
        // checked where the chip is, in boxd). The later key is named.
        var owners: [Int: String] = [:]
        for (key, line) in config.lineAssignments {
            if let usedBy = owners[line] {
                // A clash with a line the file never named: say where it came from.
                let fromDefault = [key, usedBy].filter { sources[$0] == "default" && path != nil }
                let note = fromDefault.isEmpty ? ""
                    : " (\(fromDefault.joined(separator: " and ")) comes from the embedded default; add your own [\(fromDefault[0].split(separator: ".")[0])] section)"
                throw ConfigError(key, "line \(line) is already used by \(usedBy)\(note)")
            }
            owners[line] = key
        }
        return config
    }
}

extension Reader {
    /// `[voice]`, each key refused with its name; the language is asked of espeak-ng itself.
    mutating func voiceSection() throws(ConfigError) -> VoiceConfig {
        let t = try table("voice")
        if let t { try checkKeys(t, "voice", allowed: Self.known["voice"]!) }
        var v = VoiceConfig()
        v.enabled = try bool(t, "voice", "enabled", default: true)
        if t?["volume"] != nil {
            v.volume = try volume(t, "voice", unless: "or voice.enabled = false")
        } else {
            sources["voice.volume"] = "default, as audio.volume" // config show shows the tones' volume for it
        }
        let clock = try string(t, "voice", "clock", default: "12h")
        guard let style = ClockStyle(rawValue: clock) else { throw ConfigError("voice.clock", "\"\(clock)\" must be \"12h\" or \"24h\"") }
        v.clock = style
        v.language = try string(t, "voice", "language", default: "en")
        v.stayInBed = try bool(t, "voice", "stay_in_bed", default: true)
        // A name espeak-ng does not know is the file's mistake; espeak-ng itself missing is
        // not: boxd starts, its alarms ring, and the voice's failure is logged when it speaks.
        if v.enabled, voices?.hasVoice(v.language) == false {
            throw ConfigError("voice.language", "espeak-ng has no voice named \"\(v.language)\" (espeak-ng --voices lists them)")
        }
        return v
    }
}

extension Reader {
    static let prepHours = 12...23
    static let cutoffHours = 1.0...12.0

    /// `[schedule]` (#32, SSOT 3.0's user settings), defaults from constants.json.
    mutating func scheduleSection(_ d: DoseConstants.Session) throws(ConfigError) -> DoseConstants.Session {
        let t = try table("schedule")
        if let t { try checkKeys(t, "schedule", allowed: Self.known["schedule"]!) }
        func time(_ name: String, _ def: ClockTime) throws(ConfigError) -> ClockTime {
            let text = try string(t, "schedule", name, default: def.description)
            guard let c = ClockTime(text) else { throw ConfigError("schedule.\(name)", "\"\(text)\" must be a time of day such as 07:00 (HH:MM, 24-hour)") }
            return c
        }
        var s = d
        s.sleepStart = try time("sleep_start", d.sleepStart)
        s.wakeTime = try time("wake", d.wakeTime)
        s.prepTime = try time("prep_time", d.prepTime)
        guard s.prepTime.minute == 0, Self.prepHours.contains(s.prepTime.hour) else {
            throw ConfigError("schedule.prep_time", "\(s.prepTime) must be on the hour, from \(Self.prepHours.lowerBound):00 to \(Self.prepHours.upperBound):00 (a night's date rolls over there)")
        }
        s.rolloverHour = s.prepTime.hour
        guard s.wakeTime.hour * 60 + s.wakeTime.minute < s.prepTime.hour * 60 else {
            throw ConfigError("schedule.wake", "\(s.wakeTime) must come before prep_time (\(s.prepTime))")
        }
        s.missedCheckinCutoffH = try number(t, "schedule", "missed_checkin_cutoff_hours", default: d.missedCheckinCutoffH)
        guard Self.cutoffHours.contains(s.missedCheckinCutoffH) else {
            throw ConfigError("schedule.missed_checkin_cutoff_hours",
                              "\(DoseConstants.number(s.missedCheckinCutoffH)) must be from \(DoseConstants.number(Self.cutoffHours.lowerBound)) to \(DoseConstants.number(Self.cutoffHours.upperBound)) hours after the wake time")
        }
        return s
    }
}
