import BoxControl
import BoxDaemon
import BoxHardware
import ConfigFile
import DoseCore
import Foundation
import Logging
import Testing

/// The control protocol: every command survives the wire, unknown fields are ignored, and
/// every bad field is refused with a message naming it.
@Suite struct ProtocolTests {
    static let everyCommand: [Command] = [
        .status, .statusText, .take(confirm: false), .take(confirm: true), .skip(reason: nil), .skip(reason: .sideEffects), .snooze, .undo,
        .extra(confirm: true), .log(.bathroom, note: nil, confirm: false), .log(.wakeFinal, note: "slept well", confirm: true),
        .checkin(CheckInAnswers(sleepQuality: 4, feelRested: .well, grogginess: .none, mentalClarity: 8, mood: .good, notes: "ok"), confirm: true),
        .checkin(CheckInAnswers(), confirm: false), .checkin(CheckInAnswers(flags: [.hallucinations, .fellOutOfBed]), confirm: false), .target(minutes: 180, confirm: true), .config, .doctor,
        .medication(MedicationEntry(medicationID: "adderall_ir", doseValue: 7.5), confirm: false),
        .medication(MedicationEntry(medicationID: "adderall_xr", doseValue: 20_000, doseUnit: "mcg",
                                    takenAt: Date(timeIntervalSince1970: 1_700_000_000.25), notes: "with breakfast"), confirm: true),
        .supply(.refill(doses: 60, notes: "pharmacy")), .supply(.adjust(doses: -2, notes: nil)),
        .forget(from: nil, to: "2026-11-20", confirm: false), .forget(from: "2026-11-01", to: "2026-11-20", confirm: true),
        .testLED(name: "green"), .testSound(name: "status", inMs: nil), .testSound(name: "alarm_critical", inMs: 2000),
        .say(.status), .say(.test),
        .sim(.press(button: "dose", holdMs: 2500)), .sim(.double(button: "snooze")),
        .sim(.edges(button: "dose", [SimEdge(ms: 0, pressed: true), SimEdge(ms: 12, pressed: false), SimEdge(ms: 12, pressed: true)])),
        .sim(.advance(ms: 9_000_000)), .sim(.clockStep(ms: -3_600_000)), .sim(.led), .sim(.sounds(clear: true)),
        .sim(.fault(.logReadonly)), .sim(.fault(.audioFail)), .sim(.fault(.audioOk)),
        .bench(.inject(button: "dose", pressed: true)), .bench(.inject(button: "dose", pressed: false)), .bench(.metrics),
        .watch(after: nil), .watch(after: 0), .watch(after: 41),
        .link(CaregiverLinkReport(state: .up, detail: nil, acked: 0)),
        .link(CaregiverLinkReport(state: .refused, detail: "Connection Refused: not authorised.", acked: 41)),
    ]

    static func decode(_ json: String) -> Result<Command, ProtocolError> { ControlProtocol.decodeCommand(Array(json.utf8)) }

    @Test(arguments: everyCommand)
    func everyCommandRoundTrips(command: Command) throws {
        let line = try ControlProtocol.line(command)
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(!line.dropLast().contains(UInt8(ascii: "\n")), "one frame is one line")
        #expect(try ControlProtocol.decodeCommand(Array(line.dropLast())).get() == command)
    }

    /// What the caregiver bridge's user may send: nothing that records, undoes, skips or sounds.
    @Test func onlyReadingCommandsAreReadOnly() {
        let readOnly = Set(Self.everyCommand.filter(\.isReadOnly).map(\.name))
        #expect(readOnly == ["status", "config", "doctor", "watch", "link"])
    }

    @Test func theWireKeepsItsSpellingAndNamespaces() throws {
        func json(_ c: Command) throws -> String { String(decoding: try ControlProtocol.encoder().encode(c), as: UTF8.self) }
        #expect(try json(.take(confirm: true)) == #"{"cmd":"take","confirm":true,"v":1}"#)
        #expect(try json(.sim(.press(button: "dose", holdMs: 120))) == #"{"button":"dose","cmd":"sim.press","hold_ms":120,"v":1}"#)
        #expect(try json(.bench(.inject(button: "dose", pressed: true))) == #"{"button":"dose","cmd":"bench.inject","pressed":true,"v":1}"#)
        let names = Self.everyCommand.map(\.name)
        #expect(names.filter { $0.contains(".") }.allSatisfy { ["sim.", "bench.", "test."].contains(where: $0.hasPrefix) })
        #expect(Self.everyCommand.filter(\.needsSimulation).allSatisfy { $0.name.hasPrefix("sim.") || $0.name.hasPrefix("bench.") })
    }

    /// The check-in's narcolepsy flags (#32) by their column names, in the seed's order; a frame
    /// from a boxctl before them has none.
    @Test func checkInFlagsOnTheWire() throws {
        let answers = CheckInAnswers(sleepQuality: 2, flags: [.confusionOnWaking, .sleepParalysis])
        let text = String(decoding: try ControlProtocol.encoder().encode(Command.checkin(answers, confirm: false)), as: UTF8.self)
        #expect(text.contains(#""flags":["had_sleep_paralysis","had_confusion_on_waking"]"#))
        #expect(try Self.decode(text).get() == .checkin(answers, confirm: false))
        let old = #"{"v":1,"cmd":"checkin","checkin":{"sleep_quality":3,"feel_rested":"moderate","grogginess":"mild","mental_clarity":5,"mood":"neutral"}}"#
        #expect(try Self.decode(old).get() == .checkin(CheckInAnswers(), confirm: false))
        let bad = old.replacingOccurrences(of: #""mood":"neutral""#, with: #""mood":"neutral","flags":["had_cataplexy"]"#)
        #expect(throws: ProtocolError.self) { try Self.decode(bad).get() }
    }

    /// A caregiver bridge reads these frames: the spelling is part of the contract.
    @Test func watchFramesKeepTheirSpelling() throws {
        func json(_ r: Reply) throws -> String { String(decoding: try ControlProtocol.encoder().encode(r), as: UTF8.self) }
        #expect(String(decoding: try ControlProtocol.encoder().encode(Command.watch(after: 7)), as: UTF8.self) == #"{"after":7,"cmd":"watch","v":1}"#)
        #expect(try json(.watching(after: 7)) == #"{"after":7,"exit":0,"message":"ok","ok":true,"reply":"watching","v":1}"#)
        let event = FeedEvent(id: 8, kind: .undo, at: "2026-11-24T01:00:00.000Z", sessionID: "s", sessionDate: "2026-11-23",
                              subject: "e1", source: "boxctl:uid=1000", eventType: "snooze")
        #expect(try json(.event(event)) == #"{"event":{"at":"2026-11-24T01:00:00.000Z","event_type":"snooze","id":8,"kind":"undo","#
            + #""session_date":"2026-11-23","session_id":"s","source":"boxctl:uid=1000","subject":"e1"},"exit":0,"message":"ok","ok":true,"reply":"event","v":1}"#)
        #expect(event.text(in: TimeZone(identifier: "UTC")!) == "#8  01:00  undo of the snooze  by boxctl:uid=1000")
        let link = Command.link(CaregiverLinkReport(state: .down, detail: "Connection refused", acked: 12))
        #expect(String(decoding: try ControlProtocol.encoder().encode(link), as: UTF8.self)
            == #"{"acked":12,"cmd":"link","detail":"Connection refused","state":"down","v":1}"#)
        #expect(throws: ProtocolError("state must be one of up, down, refused")) {
            try Self.decode(#"{"v":1,"cmd":"link","state":"sideways","acked":1}"#).get()
        }
        #expect(throws: ProtocolError("acked is missing: the bridge's cursor")) { try Self.decode(#"{"v":1,"cmd":"link","state":"up"}"#).get() }
    }

    @Test func unknownFieldsAndOtherCommandsFieldsAreIgnored() throws {
        let frame = #"{"v":1,"cmd":"take","confirm":true,"colour":"blue","hold_ms":"not a number","future":{"a":[1,2]}}"#
        #expect(try Self.decode(frame).get() == .take(confirm: true))
        #expect(try Self.decode(#"{"v":1,"cmd":"sim.press"}"#).get() == .sim(.press(button: "dose", holdMs: 120)))
        #expect(try Self.decode(#"{"v":1,"cmd":"extra"}"#).get() == .extra(confirm: false), "an absent confirm is no confirm")
    }

    static let events = SleepEventType.allCases.map(\.rawValue).joined(separator: ", ")
    static let patterns = TestSignals.patterns.keys.sorted().joined(separator: ", ")
    static let bigNote = String(repeating: "x", count: ControlProtocol.maxNoteBytes + 1)

    @Test(arguments: [
        (#"{"v":1,"cmd":"frobnicate"}"#, "unknown command frobnicate"),
        (#"{"v":1,"cmd":"sim.frobnicate"}"#, "unknown command sim.frobnicate"),
        (#"{"v":2,"cmd":"status"}"#, "unsupported protocol version 2 (this boxd speaks 1)"),
        (#"{"cmd":"status"}"#, "v is missing: every frame carries the protocol version (1)"),
        (#"{"v":"1","cmd":"status"}"#, "v must be a whole number"),
        (#"{"v":1}"#, "cmd is missing"),
        ("[1,2]", "malformed request: expected one JSON object with v and cmd per line"),
        ("not json", "malformed request: expected one JSON object with v and cmd per line"),
        (" \t", "empty frame"),
        (#"{"v":1,"cmd":"take","confirm":"yes"}"#, "confirm must be true or false"),
        (#"{"v":1,"cmd":"skip","reason":"bored"}"#, "reason must be one of drowsy, side_effects, other"),
        (#"{"v":1,"cmd":"log"}"#, "event must be one of " + ProtocolTests.events),
        (#"{"v":1,"cmd":"log","event":"bathroom","note":"\#(ProtocolTests.bigNote)"}"#, "note is 8193 bytes; a note may have at most 8192 bytes"),
        (#"{"v":1,"cmd":"checkin"}"#, "checkin is missing: checkin needs the answers"),
        (#"{"v":1,"cmd":"checkin","checkin":{"sleep_quality":9,"feel_rested":"well","grogginess":"mild","mental_clarity":5,"mood":"good"}}"#,
         "checkin.sleep_quality must be 1 to 5"),
        (#"{"v":1,"cmd":"checkin","checkin":{"sleep_quality":3,"feel_rested":"well","grogginess":"mild","mental_clarity":0,"mood":"good"}}"#,
         "checkin.mental_clarity must be 1 to 10"),
        (#"{"v":1,"cmd":"checkin","checkin":{"sleep_quality":3,"feel_rested":"well","grogginess":"mild","mental_clarity":5}}"#,
         "checkin.mood is missing"),
        (#"{"v":1,"cmd":"target"}"#, "minutes is missing: target needs minutes"),
        (#"{"v":1,"cmd":"supply","change":"refill"}"#, "doses is missing: how many doses"),
        (#"{"v":1,"cmd":"supply","change":"refill","doses":0}"#, "doses must be 1 to 1000"),
        (#"{"v":1,"cmd":"supply","change":"adjust","doses":0}"#, "doses must not be 0: an adjustment changes the count"),
        (#"{"v":1,"cmd":"supply","change":"steal","doses":3}"#, "change must be refill or adjust"),
        (#"{"v":1,"cmd":"forget"}"#, "to is missing: the last night to forget (YYYY-MM-DD)"),
        (#"{"v":1,"cmd":"forget","to":"2026-02-30"}"#, "to must be a date such as 2026-11-21"),
        (#"{"v":1,"cmd":"forget","from":"yesterday","to":"2026-02-20"}"#, "from must be a date such as 2026-11-21"),
        (#"{"v":1,"cmd":"forget","from":"2026-02-21","to":"2026-02-20"}"#, "from (2026-02-21) is after to (2026-02-20)"),
        (#"{"v":1,"cmd":"med","medication":"ritalin","dose":10}"#, "medication must be one of adderall_ir, adderall_xr"),
        (#"{"v":1,"cmd":"med","medication":"adderall_ir"}"#, "dose is missing: how much was taken"),
        (#"{"v":1,"cmd":"med","medication":"adderall_ir","dose":0}"#, "dose must be positive"),
        (#"{"v":1,"cmd":"med","medication":"adderall_ir","dose":-5}"#, "dose must be positive"),
        (#"{"v":1,"cmd":"med","medication":"adderall_ir","dose":1e-10}"#,
         "dose must be from 1.25 to 60 mg, the range of a real dose of Adderall"),
        (#"{"v":1,"cmd":"med","medication":"adderall_ir","dose":61}"#, "dose must be from 1.25 to 60 mg, the range of a real dose of Adderall"),
        (#"{"v":1,"cmd":"med","medication":"adderall_ir","dose":90000,"unit":"mcg"}"#, "dose must be from 1.25 to 60 mg (1250 to 60000 mcg), the range of a real dose of Adderall"),
        (#"{"v":1,"cmd":"med","medication":"adderall_ir","dose":"ten"}"#, "dose must be a number"),
        (#"{"v":1,"cmd":"med","medication":"adderall_ir","dose":10,"unit":"pills"}"#, "unit must be one of mg, mcg, g"),
        (#"{"v":1,"cmd":"med","medication":"adderall_ir","dose":10,"unit":"ml"}"#, "unit must be one of mg, mcg, g"),
        (#"{"v":1,"cmd":"med","medication":"adderall_ir","dose":10,"taken_at":"yesterday"}"#,
         "taken_at must be an ISO 8601 time such as 2026-11-21T08:00:00Z"),
        (#"{"v":1,"cmd":"test.led","name":"disco"}"#, "name must be one of " + ProtocolTests.patterns),
        (#"{"v":1,"cmd":"test.sound","name":"status","ms":0}"#, "ms must be 1 to 600000 ms"),
        (#"{"v":1,"cmd":"say"}"#, "what must be one of status, test"),
        (#"{"v":1,"cmd":"say","what":"poem"}"#, "what must be one of status, test"),
        (#"{"v":1,"cmd":"sim.press","hold_ms":0}"#, "hold_ms must be 1 to 60000"),
        (#"{"v":1,"cmd":"sim.press","hold_ms":2.5}"#, "hold_ms must be a whole number"),
        (#"{"v":1,"cmd":"sim.edges","edges":"0:down,5:sideways"}"#, SimEdge.expected),
        (#"{"v":1,"cmd":"sim.edges","edges":"10:down,5:up"}"#, SimEdge.expected),
        (#"{"v":1,"cmd":"sim.edges"}"#, SimEdge.expected),
        (#"{"v":1,"cmd":"sim.advance"}"#, "ms is missing: how far to advance"),
        (#"{"v":1,"cmd":"sim.advance","ms":-1}"#, "ms must be 0 to 604800000 ms (7 days)"),
        (#"{"v":1,"cmd":"sim.clock_step","ms":-9223372036854775808}"#, "ms must be -34560000000 to 34560000000 ms (400 days either way)"),
        (#"{"v":1,"cmd":"sim.fault","name":"meltdown"}"#, "name must be one of log-readonly, audio-fail, audio-ok"),
        (#"{"v":1,"cmd":"bench.inject","button":"dose"}"#, "pressed is missing: true (down) or false (up)"),
        (#"{"v":1,"cmd":"watch","after":-1}"#, "after must be 0 to 9223372036854775807"),
        (#"{"v":1,"cmd":"watch","after":"yesterday"}"#, "after must be a whole number"),
    ])
    func eachBadFieldIsNamed(frame: String, message: String) {
        switch Self.decode(frame) {
        case .success(let c): Issue.record("decoded \(c) from \(frame)")
        case .failure(let e): #expect(e.message == message)
        }
    }

    @Test func repliesRoundTripWithTheirFlatFields() throws {
        let status = StatusReport(state: BoxState.rebuilt(settings: BoxSettings(timeZone: TimeZone(identifier: "UTC")!), records: []),
                                  now: Moment(wall: Date(timeIntervalSince1970: 1_800_000_000), boot: "b", monoNanos: 1),
                                  source: "boxd", health: .init(buttons: .simulated, audio: .fault("no card"), log: .recovered, clock: .notSynced))
        let replies: [Reply] = [
            .done("Dose 1 recorded.", status: status), .done("ok", status: nil),
            .refused(code: "409_ALREADY_TAKEN", message: "This dose was already taken at 22:00.", status: status),
            .failed(code: "507_NOT_RECORDED", message: "Not recorded", status: nil), .usage("hold_ms must be 1 to 60000"),
            .usage("no button named x", code: "404_UNKNOWN_BUTTON"), .busy("boxd is busy"), .status(status),
            .config([ConfigEntry(key: "clock", value: "sim", source: "command line")]), .led(LEDReport(color: "green", pattern: "pulse")),
            .sounds([SoundReport(offsetMs: 5, name: "success", level: nil)]), .metrics(["press_to_led_ms": [1.5, 2], "single_commit_ms": []]),
            .watching(after: 41), .text("Night 2026-11-23: waiting for Dose 1\nLED: off"),
            .event(FeedEvent(id: 42, kind: .dose2, at: "2026-11-24T03:10:00.250Z", sessionID: "s1", sessionDate: "2026-11-23",
                             subject: "d2", source: "button:dose", isLate: true)),
            .event(FeedEvent(id: 43, kind: .nightClosed, at: "2026-11-24T09:00:00.000Z", sessionID: "s1", sessionDate: "2026-11-23",
                             reason: "checkin", terminalState: "completed")),
        ]
        for reply in replies {
            let data = try ControlProtocol.encoder().encode(reply)
            #expect(try ControlProtocol.decoder().decode(Reply.self, from: data) == reply)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["v"] as? Int == 1 && object["ok"] as? Bool == reply.ok && object["message"] as? String == reply.message)
            #expect(object["exit"] as? Int == Int(reply.replyClass.rawValue))
        }
        #expect(Reply.busy("x").replyClass == .busy && Reply.busy("x").code == "503_BUSY")
    }

    @Test func healthIsStructuredInJSONAndWordedAsBeforeInText() throws {
        let health = StatusReport.Health(buttons: .fault("gpiochip0: no such chip"), audio: .ok, log: .recovered, clock: .notSynced)
        let json = String(decoding: try ControlProtocol.encoder().encode(health), as: UTF8.self)
        #expect(json == #"{"audio":{"detail":null,"state":"ok"},"buttons":{"detail":"gpiochip0: no such chip","state":"fault"},"#
            + #""clock":{"detail":null,"state":"not_synced"},"log":{"detail":null,"state":"recovered"}}"#)
        #expect(try ControlProtocol.decoder().decode(StatusReport.Health.self, from: Data(json.utf8)) == health)
        let status = StatusReport(state: BoxState.rebuilt(settings: BoxSettings(timeZone: .current), records: []),
                                  now: KernelClock.now(), source: "boxd", health: health)
        #expect(status.text().contains("Health: buttons FAULT (gpiochip0: no such chip), audio ok, log recovered, clock not synced"))
        let simulated = StatusReport.Health(buttons: .simulated, audio: .fault("x"), log: .fault("y"), clock: .synced)
        #expect([simulated.buttons.text, simulated.audio.text, simulated.log.text, simulated.clock.text, DeviceHealth.stuck.text]
            == ["SIMULATED", "FAULT (x)", "FAULT (y)", "synced", "stuck"])
    }

    @Test func boxdsOwnFilesKeepTheirSchema() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // settings.json as boxd wrote it before (with the zone it no longer keeps there).
        try Data(#"{"targetMinutes":180,"timeZone":"Europe/Berlin"}"#.utf8).write(to: dir.appendingPathComponent("settings.json"))
        let settings = SettingsStore(directory: dir)
        #expect(settings.load() == .init(targetMinutes: 180))
        try settings.save(targetMinutes: 195)
        #expect(settings.load()?.targetMinutes == 195)
        // sim-clock.json: written by the clock, read back by the next boxd through the same schema.
        let clock = SimClock(start: Date(timeIntervalSince1970: 1_800_000_000), stateFile: SimClockFile(directory: dir).url)
        clock.advance(by: .seconds(90))
        let reading = try #require(SimClockFile(directory: dir).load())
        #expect(reading.moment == clock.now())
        #expect(LocalTime.hhmm(Date(timeIntervalSince1970: 1_800_000_000), in: TimeZone(identifier: "UTC")!) == "08:00")
    }
}

/// A box with real hardware refuses the sim and bench commands.
@Suite struct SimulationOnlyTests {
    /// Buttons that are not simulated (a chip that sends nothing).
    struct NoButtons: EdgeSource {
        func start(_ sink: ButtonSink) { sink.finish() }
        func wake(at deadline: Duration?) {}
        func close() {}
    }

    /// An LED that is not simulated.
    struct DarkLED: LEDOutput {
        func write(_ color: LEDColor) throws {}
    }

    static func engine(clock: any BoxClock, simulatedButtons: Bool) throws -> Engine {
        let config = try BoxConfig.load(path: nil, isolation: .inProcess)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("real-\(UUID().uuidString.prefix(8))")
        let audio = WavSink(clock: { .zero })
        let hardware = simulatedButtons
            ? try SimulatedBoard(config: config).hardware(audio: audio, animate: false)
            : Engine.Hardware(led: LEDPlayer(output: DarkLED(), animate: false), audio: audio, edges: NoButtons())
        return Engine(state: BoxState.rebuilt(settings: config.settings(), records: []), log: nil, stateDirectory: dir, clock: clock,
                      hardware: hardware, config: config, logger: Logger(label: "test"))
    }

    @Test func realHardwareRefusesSimAndBenchCommands() async throws {
        let engine = try Self.engine(clock: RealClock(), simulatedButtons: false)
        await engine.start()
        for command in ProtocolTests.everyCommand where command.needsSimulation {
            let r = await engine.handle(command, uid: 1000)
            #expect(r.replyClass == .refused && r.code == "403_NOT_SIMULATED", "\(command.name): \(r)")
        }
        #expect(await engine.handle(.status, uid: 1000).ok)
        await engine.shutdown()
    }

    @Test func simulatedButtonsOnTheRealClockTakeBenchButNotSimCommands() async throws {
        let engine = try Self.engine(clock: RealClock(), simulatedButtons: true)
        await engine.start()
        #expect(await engine.handle(.bench(.metrics), uid: 1000).metrics != nil)
        #expect(await engine.handle(.bench(.inject(button: "dose", pressed: true)), uid: 1000).ok)
        #expect(await engine.handle(.bench(.inject(button: "nope", pressed: true)), uid: 1000).code == "404_UNKNOWN_BUTTON")
        let sim = await engine.handle(.sim(.advance(ms: 1000)), uid: 1000)
        #expect(sim.code == "403_NOT_SIMULATED" && sim.message.contains("--clock sim"))
        await engine.shutdown() // the injected press's timers
    }
}
