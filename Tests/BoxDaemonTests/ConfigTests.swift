import BoxDaemon
import ConfigFile
import DoseCore
import Foundation
import Testing

@Suite struct ConfigTests {
    static let good = """
    [box]
    time_zone = "America/New_York"
    target_minutes = 180
    undo_seconds = 7
    ring_seconds = 60

    [gpio]
    chip = "pinctrl-rp1"

    [buttons.dose]
    line = 17
    single = "take"
    double = "snooze"
    hold = "undo_or_status"

    [buttons.events]
    line = 27
    single = "bathroom"
    double = "water"
    hold = "wake_final"

    [led]
    line = 22

    [audio]
    device = "plughw:CARD=Device,DEV=0"
    volume = 0.5
    """

    @Test func theEmbeddedDefaultHasOneDoseButton() throws {
        let c = try BoxConfig.load(path: nil, isolation: .inProcess)
        #expect(c.buttons.map(\.name) == ["dose"])
        #expect(c.buttons[0].map == .doseButton)
        #expect(c.settings().targetMinutes == 165)
        #expect(c.sources["box.target_minutes"] == "default")
    }

    @Test func aFullConfigWithASecondButton() throws {
        let c = try BoxConfig.parse(Self.good, path: "/etc/boxd/boxd.toml")
        #expect(c.timeZone.identifier == "America/New_York")
        #expect(c.settings().targetMinutes == 180)
        #expect(c.settings().undoWindow == .seconds(7))
        #expect(c.buttons.first { $0.name == "events" }?.map == GestureMap(single: .log(.bathroom), double: .log(.water), hold: .log(.wakeFinal)))
        #expect(c.led == .single(line: 22))
        #expect(c.sources["box.target_minutes"] == "/etc/boxd/boxd.toml")
        #expect(c.sources["led.active_low"] == "default")
    }

    /// `[led] class…`: the kernel's LED class devices instead of lines; they claim no line.
    @Test func anLEDOfLEDClassDevices() throws {
        let single = try BoxConfig.parse("[led]\nclass = \"dosetap\"", path: "boxd.toml")
        #expect(single.led == .classSingle(name: "dosetap"))
        #expect(single.lineAssignments.map(\.key) == ["buttons.dose.line"])
        let rgb = try BoxConfig.parse("[led]\nclass_red = \"dosetap-red\"\nclass_green = \"dosetap-green\"\nclass_blue = \"dosetap-blue\"",
                                      path: "boxd.toml")
        #expect(rgb.led == .classRGB(red: "dosetap-red", green: "dosetap-green", blue: "dosetap-blue"))
        #expect(rgb.sources["led.class_green"] == "boxd.toml")
    }

    @Test(arguments: [
        ("[box]\ntime_zone = \"Mars/Base\"", "box.time_zone: \"Mars/Base\" is not an IANA time zone name (for example America/New_York)"),
        ("[box]\ntarget_minutes = 200", "box.target_minutes: 200 is not one of 165, 180, 195, 210, 225"),
        ("[box]\nundo_seconds = 4", "box.undo_seconds: 4 is not one of 3, 5, 7, 10"),
        ("[box]\nundo_seconds = 5.5", "box.undo_seconds: must be a whole number of seconds (3, 5, 7, 10)"),
        ("[box]\nring_seconds = 5.5", "box.ring_seconds: must be a whole number of seconds (10 to 600)"),
        ("[box]\nring_seconds = 60.7", "box.ring_seconds: must be a whole number of seconds (10 to 600)"),
        ("[box]\nring_seconds = 9", "box.ring_seconds: 9 must be between 10 and 600 seconds"),
        ("[box]\nring_seconds = 601", "box.ring_seconds: 601 must be between 10 and 600 seconds"),
        ("[gpio]\nchip = \"\"", "gpio.chip: must not be empty"),
        ("[buttons.dose]\nline = 4294967297", "buttons.dose.line: 4294967297 is not a line number (0 to 65535)"),
        ("[buttons.dose]\nline = 17\n[led]\nline = -2", "led.line: -2 is not a line number (0 to 65535)"),
        ("[buttons.dose]\nline = 17\ndouble = \"take\"", "buttons.dose.double: \"take\" is not allowed for the double gesture; use snooze, nothing, a sleep event, drink:TYPE or undo_drink"),
        ("[buttons.dose]\nline = 17\nhold = \"take\"", "buttons.dose.hold: \"take\" is not allowed for the hold gesture; use undo_or_status, nothing, a sleep event, drink:TYPE or undo_drink"),
        ("[buttons.dose]\nline = 17\nsingle = \"snooze\"", "buttons.dose.single: \"snooze\" is not allowed for the single gesture; use take, undo_or_status, nothing, a sleep event, drink:TYPE or undo_drink"),
        ("[buttons.dose]\nline = 17\ndouble = \"undo_or_status\"", "buttons.dose.double: \"undo_or_status\" is not allowed"),
        ("[buttons.dose]\nline = 17\nhold = \"snooze\"", "buttons.dose.hold: \"snooze\" is not allowed"),
        ("[audio]\nvolume = 0", "audio.volume: 0 must be above 0 and at most 1 (0 would make the alarms silent)"),
        ("[led]\nline = 17", "led.line: line 17 is already used by buttons.dose.line (buttons.dose.line comes from the embedded default; add your own [buttons] section)"),
        ("[box]\ntarget_minutes = \"165\"", "box.target_minutes: must be an integer"),
        ("[box]\ntarget_minute = 165", "box.target_minute: unknown key (expected one of ring_seconds, target_minutes, time_zone, undo_seconds)"),
        ("[buttons.dose]\nline = -1", "buttons.dose.line: -1 is not a line number"),
        ("[buttons.dose]\nsingle = \"take\"", "buttons.dose.line: is required"),
        ("[buttons.dose]\nline = 17\nsingle = \"jump\"", "buttons.dose.single: \"jump\" is not take, snooze, undo_or_status, nothing, a sleep event (bathroom, water, snack, in_bed, lights_out, wake_final, wake_temp, anxiety, dream, heart_racing, noise, temperature, pain, nap_start, nap_end)"),
        ("[buttons.events]\nline = 27\nsingle = \"bathroom\"", "buttons: no button takes doses: one button needs single = \"take\""),
        ("[buttons.dose]\nline = 17\n[led]\nred = 1\ngreen = 2", "led.blue: is required for an RGB LED (or give led.line for a single LED)"),
        ("[buttons.dose]\nline = 17\n[audio]\nvolume = 1.5", "audio.volume: 1.5 must be above 0 and at most 1"),
        ("[buttons.dose\nline = 17", "TOML syntax error"),
        ("[buttons.dose]\nline = 17\n[led]\nline = 17", "led.line: line 17 is already used by buttons.dose.line"),
        ("[led]\nclass = \"dosetap\"\nline = 22", "led: give GPIO lines (line) or LED class devices (class), not both"),
        ("[led]\nclass = \"dosetap\"\nclass_red = \"dosetap-red\"", "led: give either class (a single LED) or class_red, class_green and class_blue (an RGB LED), not both"),
        ("[led]\nclass_red = \"dosetap-red\"\nclass_green = \"dosetap-green\"", "led.class_blue: is required for an RGB LED of LED class devices (or give led.class for a single LED)"),
        ("[led]\nclass = \"led0\"", "led.class: \"led0\" is not one of dosetap, dosetap-red, dosetap-green, dosetap-blue: the packaged unit lets boxd write only to these LEDs"),
        ("[led]\nclass = \"dosetap/../led0\"", "led.class: \"dosetap/../led0\" is not one of dosetap,"),
        ("[led]\nclass = \"dosetap-led\"", "led.class: \"dosetap-led\" is not one of dosetap,"),
        ("[led]\nclass_red = \"dosetap\"\nclass_green = \"dosetap\"\nclass_blue = \"dosetap-blue\"", "led: class_red, class_green and class_blue must name three devices, not dosetap, dosetap and dosetap-blue"),
        ("[led]\nclass = 7", "led.class: must be a string"),
        ("[led]\nclass = \"dosetap\"\nactive_low = true", "led.active_low: is for LEDs on GPIO lines; an LED class device's polarity is set where it is defined"),
        // An empty quoted key still names itself (the fuzz target's rule: a key or the file, always).
        ("\"\" = 1", "\"\": unknown key (expected one of audio, box, buttons, evening, gpio, led, mqtt, schedule, voice)"),
        ("[box]\n\"\" = 1", "box.\"\": unknown key"),
        ("[mqtt]\nenabled = true\nhost = \"hub\"\npassword = \"hunter2\"", "mqtt.password: a password never goes in boxd.toml (every boxd user can read it): put it in a file only the bridge can read and name that file with mqtt.password_file, or use a systemd credential"),
        ("[mqtt]\nenabled = true", "mqtt.host: is required when mqtt.enabled = true"),
        ("[mqtt]\nenabled = true\nhost = \"hub\"\nport = 70000", "mqtt.port: 70000 is not a port (1 to 65535)"),
        ("[mqtt]\nenabled = false\nport = \"1883\"", "mqtt.port: must be an integer"),
        ("[mqtt]\nenabled = true\nhost = \"hub\"\ntls_ca = \"/etc/ca.crt\"\ntls_cert = \"/etc/c.crt\"", "mqtt.tls_key: a client certificate needs both mqtt.tls_cert and mqtt.tls_key"),
        ("[mqtt]\nenabled = true\nhost = \"hub\"\ntls_cert = \"/etc/c.crt\"\ntls_key = \"/etc/c.key\"", "mqtt.tls_ca: is required with a client certificate"),
        ("[mqtt]\nenabled = true\nhost = \"hub\"\ntls_ca = \"ca.crt\"", "mqtt.tls_ca: \"ca.crt\" must be an absolute path"),
        ("[mqtt]\nenabled = true\nhost = \"hub\"\nbase_topic = \"dosetap/#\"", "mqtt.base_topic: \"dosetap/#\" may hold only letters, digits, _ and - (and / between levels)"),
        ("[mqtt]\nenabled = true\nhost = \"hub\"\nbox_id = \"bed/room\"", "mqtt.box_id: \"bed/room\" may hold only letters, digits, _ and -"),
        ("[mqtt]\nenabled = true\nhost = \"hub\"\nkeepalive_seconds = 2", "mqtt.keepalive_seconds: 2 must be between 5 and 3600 seconds"),
        ("[voice]\nlanguage = \"klingon\"", "voice.language: espeak-ng has no voice named \"klingon\" (espeak-ng --voices lists them)"),
        ("[voice]\nclock = \"am/pm\"", "voice.clock: \"am/pm\" must be \"12h\" or \"24h\""),
        ("[voice]\nvolume = 0", "voice.volume: 0 must be above 0 and at most 1 (or voice.enabled = false)"),
        ("[voice]\nenabled = \"yes\"", "voice.enabled: must be true or false"),
        ("[voice]\nspeed = 2", "voice.speed: unknown key (expected one of clock, enabled, language, stay_in_bed, volume)"),
        ("[schedule]\nwake = \"7am\"", "schedule.wake: \"7am\" must be a time of day such as 07:00 (HH:MM, 24-hour)"),
        ("[schedule]\nwake = \"24:00\"", "schedule.wake: \"24:00\" must be a time of day"),
        ("[schedule]\nprep_time = \"17:30\"", "schedule.prep_time: 17:30 must be on the hour, from 12:00 to 23:00 (a night's date rolls over there)"),
        ("[schedule]\nprep_time = \"02:00\"", "schedule.prep_time: 02:00 must be on the hour, from 12:00 to 23:00"),
        ("[schedule]\nwake = \"19:00\"", "schedule.wake: 19:00 must come before prep_time (18:00)"),
        ("[schedule]\nmissed_checkin_cutoff_hours = 0", "schedule.missed_checkin_cutoff_hours: 0 must be from 1 to 12 hours after the wake time"),
        ("[schedule]\nmissed_checkin_cutoff_hours = \"4\"", "schedule.missed_checkin_cutoff_hours: must be a number"),
        ("[schedule]\nbedtime = \"22:00\"", "schedule.bedtime: unknown key (expected one of missed_checkin_cutoff_hours, prep_time, sleep_start, wake)"),
        ("[mqtt]\nenable = true", "mqtt.enable: unknown key (expected one of base_topic, box_id, discovery_prefix, enabled, host, keepalive_seconds, password_file, port, tls_ca, tls_cert, tls_key, username)"),
    ])
    func badConfigsNameTheKey(toml: String, message: String) {
        do {
            _ = try BoxConfig.parse(toml, path: "boxd.toml", voices: EspeakVoices())
            Issue.record("accepted: \(toml)")
        } catch {
            #expect(error.description.contains(message), "got: \(error.description)")
        }
    }

    /// Found by fuzzing (Tests/Fuzz): toml++ inside TOMLKit aborted the whole process on a table
    /// header that does not start with a key and on a `}` where an array's value should be (boxd
    /// died at start instead of naming the line), and a NUL silently cut the file short. All are
    /// syntax errors with their line and column (TOMLPrecheck).
    @Test(arguments: [
        ("[\u{1D}", "line 1, column 2: a table name must start with a letter, a digit, _, - or a quote, not U+001D"),
        ("[box]\n[=]\n", "line 2, column 2: a table name must start with a letter, a digit, _, - or a quote, not '='"),
        ("[#box]", "line 1, column 2: a table name must start with a letter, a digit, _, - or a quote, not '#'"),
        ("[[[a]]]", "line 1, column 3: a table name must start with a letter, a digit, _, - or a quote, not '['"),
        ("[ \t\u{E9}t\u{E9}]", "line 1, column 4: a table name must start with a letter, a digit, _, - or a quote, not '\u{E9}'"),
        ("[buttons.dose]\nline = 17\n[\n", "line 3, column 2: a table header needs a name before the end of the line"),
        ("[box]\r\n[[\r\n", "line 2, column 3: a table header needs a name before the end of the line"),
        ("[box]\ntarget_minutes = 180\n\u{0}garbage", "line 3, column 1: control character U+0000"),
        ("[audio]\ndevice = \"a\u{7F}\"", "line 2, column 12: control character U+007F"),
        ("[box] # \u{1}", "line 1, column 9: control character U+0001"),
        ("x = [}", "line 1, column 6: expected a value or ']' in an array, saw '}'"),
        ("[box]\nring_seconds = 1979-05-27Te:32:00Z", "line 2, column 16: a date"),
        ("[box]\nring_seconds = 00:01:00", "line 2, column 18: ':' outside a string"),
        ("[box]\nring_seconds = 1979-05-27 7#", "line 2, column 16: a date: boxd.toml takes no dates or times"),
        ("x = [9758-08-0e 7]", "line 1, column 6: a date"),
        ("e= 35-------= 3]]", "line 1, column 4: a date"),
        ("g= 36!)----g= 6]", "line 1, column 4: a date"),
        ("\u{FEFF}[  \n", "line 1, column 4: a table header needs a name"),
        ("[audio]\ndevice = [\"a\",\n  # c\n  }]", "line 4, column 3: expected a value or ']' in an array, saw '}'"),
    ])
    func malformedHeadersAndControlCharactersAreSyntaxErrors(toml: String, message: String) {
        do {
            _ = try BoxConfig.parse(toml, path: "boxd.toml")
            Issue.record("accepted: \(toml.debugDescription)")
        } catch {
            #expect(error.key == "")
            #expect(error.description.hasPrefix("boxd.toml: TOML syntax error at \(message)"), "got: \(error.description)")
        }
    }

    /// What looks like a header or a control character inside strings and comments is left to TOML.
    @Test func thePrecheckLeavesValidTOMLAlone() throws {
        let c = try BoxConfig.parse(#"""
        [audio] # a comment with "quotes", ''' and [=brackets]
        device = """
        [=not a header \"""
        [#nor this"""
        volume = 5e-1
        [ box ]
        'time_zone' = 'America/New_York' # a literal key
        [gpio]
        chip = "a\\\"[b\t"
        """#, path: "boxd.toml")
        #expect(c.audioDevice == "[=not a header \"\"\"\n[#nor this")
        #expect(c.timeZone.identifier == "America/New_York")
        #expect(c.chip == "a\\\"[b\t")
    }

    /// The caregiver link is off unless asked for; when on, every value is there with its defaults.
    @Test func theMQTTSectionIsOffByDefaultAndReadWhenEnabled() throws {
        #expect(try BoxConfig.parse(Self.good, path: "boxd.toml").caregiverLink == nil)
        let off = try BoxConfig.parse(Self.good + "\n[mqtt]\nhost = \"hub.local\"\n", path: "boxd.toml")
        #expect(off.caregiverLink == nil && off.entries.contains { $0.key == "mqtt.enabled" && $0.value == "false" })
        let on = try BoxConfig.parse(Self.good + """

            [mqtt]
            enabled = true
            host = "hub.local"
            tls_ca = "/etc/boxd/mqtt-ca.crt"
            username = "dosetap"
            password_file = "/etc/boxd/mqtt-password"
            box_id = "bedroom"
            """, path: "boxd.toml")
        let link = try #require(on.caregiverLink)
        #expect(link == CaregiverLinkConfig(host: "hub.local", port: 8883, tlsCA: "/etc/boxd/mqtt-ca.crt", tlsCert: nil, tlsKey: nil,
                                            username: "dosetap", passwordFile: "/etc/boxd/mqtt-password", baseTopic: "dosetap",
                                            boxID: "bedroom", keepaliveSeconds: 30, discoveryPrefix: "homeassistant"))
        #expect(on.sources["mqtt.host"] == "boxd.toml" && on.sources["mqtt.port"] == "default")
        #expect(!on.entries.contains { $0.key.contains("password") && $0.key != "mqtt.password_file" })
    }

    /// Issue 29: `tls_ca = "/nonexistent/ca.crt"` passed --check-config, and boxd-mqtt said only
    /// libmosquitto's "Invalid function arguments provided. (3)". The key and the cause, now.
    @Test func aTLSFileThatIsNotThereNamesItsKey() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ca = dir.appendingPathComponent("ca.crt").path
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: URL(fileURLWithPath: ca))
        func link(ca: String, cert: String? = nil) throws -> CaregiverLinkConfig {
            let files = "tls_ca = \"\(ca)\"\n" + (cert.map { "tls_cert = \"\($0)\"\ntls_key = \"\($0)\"\n" } ?? "")
            return try #require(try BoxConfig.parse("[mqtt]\nenabled = true\nhost = \"hub\"\n" + files, path: "boxd.toml").caregiverLink)
        }
        for mustRead in [false, true] {
            #expect(throws: ConfigError("mqtt.tls_ca", "cannot read /nonexistent/ca.crt: no such file")) {
                try link(ca: "/nonexistent/ca.crt").checkTLSFiles(mustRead: mustRead)
            }
            #expect(throws: ConfigError("mqtt.tls_cert", "cannot read \(dir.path)/no.crt: no such file")) {
                try link(ca: ca, cert: dir.path + "/no.crt").checkTLSFiles(mustRead: mustRead)
            }
            #expect(throws: ConfigError("mqtt.tls_ca", "cannot read \(dir.path): is a directory")) {
                try link(ca: dir.path).checkTLSFiles(mustRead: mustRead)
            }
            try link(ca: ca, cert: ca).checkTLSFiles(mustRead: mustRead)
        }
        #expect(ConfigError("mqtt.tls_ca", "cannot read /nonexistent/ca.crt: no such file").description
                == "mqtt.tls_ca: cannot read /nonexistent/ca.crt: no such file")
    }

    /// A file only the bridge may read: boxd-mqtt says so; boxd (which never reads it) lets it be.
    @Test(.enabled(if: getuid() != 0, "root reads any file")) func aTLSFileTheBridgeMayNotReadNamesItsKey() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ca = dir.appendingPathComponent("ca.crt").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: ca))
        chmod(ca, 0)
        let link = try #require(try BoxConfig.parse("[mqtt]\nenabled = true\nhost = \"hub\"\ntls_ca = \"\(ca)\"\n", path: "boxd.toml").caregiverLink)
        try link.checkTLSFiles(mustRead: false)
        #expect(throws: ConfigError("mqtt.tls_ca", "cannot read \(ca): permission denied")) { try link.checkTLSFiles(mustRead: true) }
    }

    @Test func aMissingFileIsAClearError() {
        #expect(throws: ConfigError.self) { try BoxConfig.load(path: "/nonexistent/boxd.toml", isolation: .inProcess) }
        #expect(throws: ConfigError("", "cannot read config /nonexistent/boxd.toml: no such file")) { try BoxConfig.load(path: "/nonexistent/boxd.toml", isolation: .inProcess) }
    }

    @Test func aDirectoryIsAPlainOneLineError() throws {
        let dir = FileManager.default.temporaryDirectory.path
        do {
            _ = try BoxConfig.load(path: dir, isolation: .inProcess)
            Issue.record("a directory was read as a config")
        } catch {
            #expect(error.description == "cannot read config \(dir): is a directory")
        }
    }

    @Test func errorsAreOneLine() {
        #expect(ConfigError("a.b", "two\nlines").description == "a.b: two lines")
    }

    /// A file that leaves sections out gets the embedded default's sections, marked "default".
    @Test func omittedSectionsComeFromTheEmbeddedDefault() throws {
        let c = try BoxConfig.parse("[box]\ntarget_minutes = 180\n", path: "/etc/boxd/boxd.toml")
        let d = try BoxConfig.load(path: nil, isolation: .inProcess)
        #expect(c.targetMinutes == 180)
        #expect(c.sources["box.target_minutes"] == "/etc/boxd/boxd.toml")
        #expect(c.buttons == d.buttons)
        #expect(c.led == d.led)
        #expect(c.chip == d.chip && c.audioDevice == d.audioDevice && c.volume == d.volume)
        for key in ["buttons.dose.line", "buttons.dose.single", "led.red", "gpio.chip", "audio.volume", "box.undo_seconds"] {
            #expect(c.sources[key] == "default", "\(key)")
        }
        // A section that is there is the file's own: [led] without lines is a box without an LED.
        let noLED = try BoxConfig.parse("[led]\nactive_low = true\n", path: "boxd.toml")
        #expect(noLED.led == nil)
        #expect(noLED.buttons.map(\.name) == ["dose"])
        // Only the sections left out: a file's own [buttons] replaces the default button.
        let own = try BoxConfig.parse("[buttons.main]\nline = 5\n", path: "boxd.toml")
        #expect(own.buttons.map(\.name) == ["main"])
    }

    /// #15's [voice]: on by default at the tones' volume, 12-hour English; each key settable,
    /// and the core is told what it needs (on or off, 12 or 24 h).
    @Test func theVoiceSection() throws {
        let d = try BoxConfig.parse("[audio]\nvolume = 0.5\n", path: "boxd.toml")
        #expect(d.voice == VoiceConfig() && d.settings().voice == VoiceSettings(enabled: true, clock: .twelveHour))
        #expect(d.entries.contains { $0.key == "voice.volume" && $0.value == "0.5" })
        let c = try BoxConfig.parse("[voice]\nlanguage = \"de\"\nclock = \"24h\"\nvolume = 0.3\n", path: "boxd.toml")
        #expect(c.voice.language == "de" && c.voice.volume == 0.3 && c.settings().voice.clock == .twentyFourHour)
        let off = try BoxConfig.parse("[voice]\nenabled = false\nlanguage = \"klingon\"\n", path: "boxd.toml")
        #expect(off.settings().voice.enabled == false, "off is off, whatever the language")
        let bed = try BoxConfig.parse("[voice]\nstay_in_bed = false\n", path: "boxd.toml")
        #expect(d.settings().voice.stayInBed && !bed.settings().voice.stayInBed)
        #expect(bed.entries.contains { $0.key == "voice.stay_in_bed" && $0.value == "false" })
        #expect(throws: (any Error).self) { try BoxConfig.parse("[voice]\nstay_in_bed = 1\n", path: "boxd.toml") }
    }

    /// #32's [schedule]: constants.json's times unless set; set, they are the rules the core
    /// runs on (the morning's hold, the missed check-in cut-off, the rollover and date).
    @Test func theScheduleSection() throws {
        let d = try BoxConfig.parse("[box]\ntarget_minutes = 165\n", path: "boxd.toml")
        #expect(d.settings().rules.session == DoseConstants.box.session)
        #expect(d.entries.filter { $0.key.hasPrefix("schedule.") }.map { "\($0.key)=\($0.value)" }
            == ["schedule.sleep_start=21:00", "schedule.wake=07:00", "schedule.prep_time=18:00", "schedule.missed_checkin_cutoff_hours=4"])
        let c = try BoxConfig.parse("[schedule]\nsleep_start = \"22:30\"\nwake = \"05:45\"\nprep_time = \"16:00\"\nmissed_checkin_cutoff_hours = 2.5\n",
                                    path: "boxd.toml")
        let s = c.settings().rules.session
        #expect(s.sleepStart == ClockTime(hour: 22, minute: 30) && s.wakeTime == ClockTime(hour: 5, minute: 45))
        #expect(s.prepTime == ClockTime(hour: 16, minute: 0) && s.rolloverHour == 16 && s.missedCheckinCutoffH == 2.5)
        #expect(c.sources["schedule.wake"] == "boxd.toml" && d.sources["schedule.wake"] == "default")
        // The core runs on them: a night begun at 22:00 has its morning from 05:45.
        var state = BoxState(settings: c.settings())
        let start = Moment(wall: Date(timeIntervalSince1970: 1_795_316_400), boot: "b", monoNanos: 0) // 22:00 New York
        state.settings.timeZone = TimeZone(identifier: "America/New_York")!
        for (action, minutes) in [(Action.takeDose(confirmed: false), 0.0), (.takeDose(confirmed: false), 165)] {
            state = DoseReducer.reduce(state, action, Context(now: start.advanced(by: .minutes(minutes)), source: .cli(uid: 0), ids: ["\(minutes)"])).state
        }
        #expect(!state.isMorning(at: start.advanced(by: .minutes(464))), "05:44")
        #expect(state.isMorning(at: start.advanced(by: .minutes(465))), "05:45")
    }

    @Test func wholeSecondsMayBeWrittenAsFloats() throws {
        let c = try BoxConfig.parse("[box]\nring_seconds = 90.0\nundo_seconds = 7\n", path: "boxd.toml")
        #expect(c.ringSeconds == 90 && c.undoSeconds == 7)
        #expect(c.entries.contains { $0.key == "box.ring_seconds" && $0.value == "90" })
    }

    @Test func theGestureRulesAllowEverySensibleMap() throws {
        let c = try BoxConfig.parse("""
        [buttons.dose]
        line = 17
        single = "take"
        double = "nothing"
        hold = "bathroom"
        [buttons.events]
        line = 27
        single = "undo_or_status"
        double = "snooze"
        hold = "nothing"
        """, path: "boxd.toml")
        #expect(c.buttons.count == 2)
    }

    @Test func theExampleConfigsInHardwareParse() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("hardware")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.filter { $0.hasSuffix(".toml") } ?? []
        #expect(files.count >= 2, "hardware/ should hold example configs for the Pi 4 and the Pi 5")
        for f in files {
            let c = try BoxConfig.load(path: dir.appendingPathComponent(f).path, isolation: .inProcess)
            #expect(c.buttons.contains { $0.map.isDoseButton }, "\(f)")
        }
    }
}

/// `[evening]` (#33): the coach's sensitivity and water checks, checked like every key.
@Suite struct EveningConfigTests {
    @Test func theDefaultsAndAChoice() throws {
        #expect(try BoxConfig.parse(BoxConfig.embeddedDefault, path: nil).evening == EveningConfig())
        let strict = try BoxConfig.parse(BoxConfig.embeddedDefault + "\n[evening]\nsensitivity = \"strict\"\nhydration_reminders = false\n", path: "boxd.toml")
        #expect(strict.evening == EveningConfig(sensitivity: .strict, hydrationReminders: false))
        #expect(strict.entries.contains { $0.key == "evening.sensitivity" && $0.value == "strict" })
    }

    @Test(arguments: [
        ("[evening]\nsensitivity = \"lax\"", "evening.sensitivity: \"lax\" is not relaxed, balanced, strict"),
        ("[evening]\nhydration_reminders = \"yes\"", "evening.hydration_reminders"),
        ("[evening]\nbac = 0.5", "evening.bac"),
    ])
    func badEveningKeysAreNamed(toml: String, message: String) {
        #expect(throws: ConfigError.self) { try BoxConfig.parse(toml, path: "boxd.toml") }
        do { _ = try BoxConfig.parse(toml, path: "boxd.toml") } catch { #expect("\(error)".contains(message), "\(error)") }
    }
}
