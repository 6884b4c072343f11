import BoxWords
import DoseCore
import Foundation

/// A frame that is not a valid command, with a message that names the field.
public struct ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The wire form: flat and versioned. Keys are camelCase here and snake_case on the wire
/// (`ControlProtocol`'s coders convert). Fields another command uses, and fields this
/// version does not know, are ignored.
extension Command: Codable {
    enum Key: String, CodingKey {
        case v, cmd, text, confirm, reason, event, note, minutes, button, holdMs, edges, ms, clear, checkin, name, pressed, after
        case state, detail, acked
        case medication, dose, unit, takenAt, from, to, change, doses, what, drink, units, at, presleep
    }

    public init(from decoder: any Decoder) throws {
        let f = Fields(container: try decoder.container(keyedBy: Key.self))
        guard let v = try f.int(.v) else {
            throw ProtocolError("v is missing: every frame carries the protocol version (\(ControlProtocol.version))")
        }
        guard v == ControlProtocol.version else {
            throw ProtocolError("unsupported protocol version \(v) (this boxd speaks \(ControlProtocol.version))")
        }
        guard let cmd = try f.string(.cmd) else { throw ProtocolError("cmd is missing") }
        switch cmd {
        case "status": self = try f.bool(.text) ? .statusText : .status
        case "take": self = .take(confirm: try f.bool(.confirm))
        case "skip": self = .skip(reason: try f.oneOf(.reason, SkipReason.self))
        case "snooze": self = .snooze
        case "undo": self = .undo
        case "extra": self = .extra(confirm: try f.bool(.confirm))
        case "log":
            guard let event = try f.oneOf(.event, SleepEventType.self) else { throw f.oneOfProblem(.event, SleepEventType.self) }
            self = .log(event, note: try f.note(.note), confirm: try f.bool(.confirm))
        case "checkin": self = .checkin(try f.checkin(), confirm: try f.bool(.confirm))
        case "target":
            guard let minutes = try f.int(.minutes) else { throw ProtocolError("minutes is missing: target needs minutes") }
            self = .target(minutes: minutes, confirm: try f.bool(.confirm))
        case "med": self = .medication(try f.medication(), confirm: try f.bool(.confirm))
        case "supply":
            let limit = DoseConstants.box.supply.maxChangeDoses
            guard let doses = try f.int(.doses) else { throw ProtocolError("doses is missing: how many doses") }
            switch try f.string(.change) {
            case "refill":
                self = .supply(.refill(doses: try f.check(doses, in: 1...limit, .doses), notes: try f.note(.note)))
            case "adjust":
                guard doses != 0 else { throw ProtocolError("doses must not be 0: an adjustment changes the count") }
                self = .supply(.adjust(doses: try f.check(doses, in: -limit...limit, .doses), notes: try f.note(.note)))
            default: throw ProtocolError("change must be refill or adjust")
            }
        case "drink": self = .drink(try f.drinkChange())
        case "presleep": self = .preSleep(try f.preSleep())
        case "forget":
            guard let to = try f.sessionDate(.to) else { throw ProtocolError("to is missing: the last night to forget (YYYY-MM-DD)") }
            let from = try f.sessionDate(.from)
            if let from, from > to { throw ProtocolError("from (\(from)) is after to (\(to))") }
            self = .forget(from: from, to: to, confirm: try f.bool(.confirm))
        case "config": self = .config
        case "doctor": self = .doctor
        case "test.led": self = .testLED(name: try f.name(among: Array(TestSignals.patterns.keys)))
        case "test.sound":
            let name = try f.name(among: Array(TestSignals.sounds.keys))
            self = .testSound(name: name, inMs: try f.int(.ms).map { try f.check($0, in: Limits.testSoundInMs, .ms, unit: "ms") })
        case "say":
            guard let what = try f.oneOf(.what, SayWhat.self) else { throw f.oneOfProblem(.what, SayWhat.self) }
            self = .say(what)
        case "watch":
            self = .watch(after: try f.int64(.after).map { try f.check($0, in: 0...Int64.max, .after) })
        case "link":
            guard let state = try f.oneOf(.state, CaregiverLinkReport.State.self) else { throw f.oneOfProblem(.state, CaregiverLinkReport.State.self) }
            guard let acked = try f.int64(.acked) else { throw ProtocolError("acked is missing: the bridge's cursor") }
            self = .link(CaregiverLinkReport(state: state, detail: try f.note(.detail),
                                             acked: try f.check(acked, in: 0...Int64.max, .acked)))
        default:
            if cmd.hasPrefix("sim."), let sim = try SimCommand(String(cmd.dropFirst(4)), f) { self = .sim(sim) }
            else if cmd.hasPrefix("bench."), let bench = try BenchCommand(String(cmd.dropFirst(6)), f) { self = .bench(bench) }
            else { throw ProtocolError("unknown command \(cmd)") }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(ControlProtocol.version, forKey: .v)
        try c.encode(name, forKey: .cmd)
        switch self {
        case .status, .snooze, .undo, .config, .doctor: break
        case .statusText: try c.encode(true, forKey: .text)
        case .take(let confirm), .extra(let confirm): try c.encode(confirm, forKey: .confirm)
        case .skip(let reason): try c.encodeIfPresent(reason?.rawValue, forKey: .reason)
        case .log(let event, let note, let confirm):
            try c.encode(event.rawValue, forKey: .event)
            try c.encodeIfPresent(note, forKey: .note)
            try c.encode(confirm, forKey: .confirm)
        case .checkin(let answers, let confirm):
            try c.encode(answers, forKey: .checkin)
            try c.encode(confirm, forKey: .confirm)
        case .target(let minutes, let confirm):
            try c.encode(minutes, forKey: .minutes)
            try c.encode(confirm, forKey: .confirm)
        case .medication(let m, let confirm):
            try c.encode(m.medicationID, forKey: .medication)
            try c.encode(m.doseValue, forKey: .dose)
            try c.encode(m.doseUnit, forKey: .unit)
            try c.encodeIfPresent(m.takenAt?.iso8601, forKey: .takenAt)
            try c.encodeIfPresent(m.notes, forKey: .note)
            try c.encode(confirm, forKey: .confirm)
        case .supply(let change):
            switch change {
            case .refill(let doses, let notes):
                try c.encode("refill", forKey: .change)
                try c.encode(doses, forKey: .doses)
                try c.encodeIfPresent(notes, forKey: .note)
            case .adjust(let doses, let notes):
                try c.encode("adjust", forKey: .change)
                try c.encode(doses, forKey: .doses)
                try c.encodeIfPresent(notes, forKey: .note)
            }
        case .drink(.add(let type, let units, let at)):
            try c.encode("add", forKey: .change)
            try c.encode(type.rawValue, forKey: .drink)
            try c.encodeIfPresent(units, forKey: .units)
            try c.encodeIfPresent(at?.iso8601, forKey: .at)
        case .drink(.undo): try c.encode("undo", forKey: .change)
        case .preSleep(let answers): try c.encode(answers, forKey: .presleep)
        case .forget(let from, let to, let confirm):
            try c.encodeIfPresent(from, forKey: .from)
            try c.encode(to, forKey: .to)
            try c.encode(confirm, forKey: .confirm)
        case .testLED(let name): try c.encode(name, forKey: .name)
        case .testSound(let name, let inMs):
            try c.encode(name, forKey: .name)
            try c.encodeIfPresent(inMs, forKey: .ms)
        case .say(let what): try c.encode(what.rawValue, forKey: .what)
        case .watch(let after): try c.encodeIfPresent(after, forKey: .after)
        case .link(let r):
            try c.encode(r.state.rawValue, forKey: .state)
            try c.encodeIfPresent(r.detail, forKey: .detail)
            try c.encode(r.acked, forKey: .acked)
        case .sim(let s): try s.encode(into: &c)
        case .bench(.inject(let button, let pressed)):
            try c.encode(button, forKey: .button)
            try c.encode(pressed, forKey: .pressed)
        case .bench(.metrics): break
        }
    }
}

extension SimCommand {
    /// nil: not a sim command this version knows.
    init?(_ name: String, _ f: Command.Fields) throws {
        typealias Limits = Command.Limits
        switch name {
        case "press":
            let hold = try f.int(.holdMs) ?? 120
            self = .press(button: try f.button(), holdMs: try f.check(hold, in: Limits.holdMs, .holdMs))
        case "double": self = .double(button: try f.button())
        case "edges":
            guard let text = try f.string(.edges), let edges = SimEdge.parse(text) else { throw ProtocolError(SimEdge.expected) }
            self = .edges(button: try f.button(), edges)
        case "advance":
            guard let ms = try f.int64(.ms) else { throw ProtocolError("ms is missing: how far to advance") }
            self = .advance(ms: try f.check(ms, in: Limits.advanceMs, .ms, unit: "ms (7 days)"))
        case "clock_step":
            guard let ms = try f.int64(.ms) else { throw ProtocolError("ms is missing: how far to step the wall clock") }
            self = .clockStep(ms: try f.check(ms, in: Limits.clockStepMs, .ms, unit: "ms (400 days either way)"))
        case "led": self = .led
        case "sounds": self = .sounds(clear: try f.bool(.clear))
        case "fault":
            guard let fault = try f.oneOf(.name, SimFault.self) else { throw f.oneOfProblem(.name, SimFault.self) }
            self = .fault(fault)
        default: return nil
        }
    }

    func encode(into c: inout KeyedEncodingContainer<Command.Key>) throws {
        switch self {
        case .press(let button, let holdMs):
            try c.encode(button, forKey: .button)
            try c.encode(holdMs, forKey: .holdMs)
        case .double(let button): try c.encode(button, forKey: .button)
        case .edges(let button, let edges):
            try c.encode(button, forKey: .button)
            try c.encode(SimEdge.text(edges), forKey: .edges)
        case .advance(let ms), .clockStep(let ms): try c.encode(ms, forKey: .ms)
        case .led: break
        case .sounds(let clear): try c.encode(clear, forKey: .clear)
        case .fault(let fault): try c.encode(fault.rawValue, forKey: .name)
        }
    }
}

extension BenchCommand {
    init?(_ name: String, _ f: Command.Fields) throws {
        switch name {
        case "inject":
            guard let pressed = try f.optionalBool(.pressed) else { throw ProtocolError("pressed is missing: true (down) or false (up)") }
            self = .inject(button: try f.button(), pressed: pressed)
        case "metrics": self = .metrics
        default: return nil
        }
    }
}

extension Command {
    /// Reads one field at a time and turns every problem into a message naming it.
    struct Fields {
        let container: KeyedDecodingContainer<Key>

        /// The field's name on the wire.
        static func wire(_ key: Key) -> String { ControlProtocol.snakeCase(key.rawValue) }

        func value<T: Decodable>(_ key: Key, _ type: T.Type, _ what: String) throws -> T? {
            do { return try container.decodeIfPresent(T.self, forKey: key) } catch {
                throw ProtocolError("\(Self.wire(key)) must be \(what)")
            }
        }
        func int(_ key: Key) throws -> Int? { try value(key, Int.self, "a whole number") }
        func int64(_ key: Key) throws -> Int64? { try value(key, Int64.self, "a whole number") }
        func string(_ key: Key) throws -> String? { try value(key, String.self, "a string") }
        func optionalBool(_ key: Key) throws -> Bool? { try value(key, Bool.self, "true or false") }
        /// Absent is false: a confirmation must be asked for.
        func bool(_ key: Key) throws -> Bool { try optionalBool(key) ?? false }
        func button() throws -> String { try string(.button) ?? "dose" }

        func check<T: Comparable>(_ n: T, in range: ClosedRange<T>, _ key: Key, unit: String = "") throws -> T {
            guard range.contains(n) else {
                throw ProtocolError("\(Self.wire(key)) must be \(range.lowerBound) to \(range.upperBound)\(unit.isEmpty ? "" : " " + unit)")
            }
            return n
        }

        func oneOf<E: RawRepresentable & CaseIterable>(_ key: Key, _ type: E.Type) throws -> E? where E.RawValue == String {
            guard let text = try string(key) else { return nil }
            guard let e = E(rawValue: text) else { throw oneOfProblem(key, type) }
            return e
        }
        func oneOfProblem<E: RawRepresentable & CaseIterable>(_ key: Key, _ type: E.Type) -> ProtocolError where E.RawValue == String {
            ProtocolError("\(Self.wire(key)) must be one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
        }

        func name(among names: [String]) throws -> String {
            guard let name = try string(.name), names.contains(name) else {
                throw ProtocolError("name must be one of \(names.sorted().joined(separator: ", "))")
            }
            return name
        }

        func note(_ key: Key) throws -> String? {
            let note = try string(key)
            if let problem = ControlProtocol.noteProblem(note, option: Self.wire(key)) { throw ProtocolError(problem) }
            return note
        }

        /// A medication entry: a known medication, a known unit, a dose in the range a
        /// prescription can have (`MedicationLog.doseProblem`), an ISO 8601 time if any. Whether
        /// that time is too far ahead or back is boxd's to judge (its clock).
        func medication() throws -> MedicationEntry {
            let known = MedicationType.known.map(\.id)
            guard let id = try string(.medication), known.contains(id) else {
                throw ProtocolError("medication must be one of \(known.joined(separator: ", "))")
            }
            guard let dose = try value(.dose, Double.self, "a number") else { throw ProtocolError("dose is missing: how much was taken") }
            let unit = try string(.unit) ?? "mg"
            guard MedicationLog.units.contains(unit) else {
                throw ProtocolError("unit must be one of \(MedicationLog.units.joined(separator: ", "))")
            }
            if let problem = MedicationLog.doseProblem(dose, unit: unit) { throw ProtocolError("dose \(Written.doseProblem(problem))") }
            var takenAt: Date?
            if let text = try string(.takenAt) {
                guard let date = Date(iso8601: text) else { throw ProtocolError("taken_at must be an ISO 8601 time such as 2026-11-21T08:00:00Z") }
                takenAt = date
            }
            return MedicationEntry(medicationID: id, doseValue: dose, doseUnit: unit, takenAt: takenAt, notes: try note(.note))
        }

        /// A drink: a known type, units from 0 to `pacing.max_units_per_drink` if given, an ISO
        /// 8601 time if any (how far back is boxd's to judge: its clock).
        func drinkChange() throws -> DrinkChange {
            switch try string(.change) {
            case "undo": return .undo
            case "add":
                guard let type = try oneOf(.drink, DrinkType.self) else { throw oneOfProblem(.drink, DrinkType.self) }
                let units = try value(.units, Double.self, "a number").map {
                    try check($0, in: 0...DoseConstants.box.pacing.maxUnitsPerDrink, .units)
                }
                var at: Date?
                if let text = try string(.at) {
                    guard let date = Date(iso8601: text) else { throw ProtocolError("at must be an ISO 8601 time such as 2026-11-21T20:00:00Z") }
                    at = date
                }
                return .add(type, units: units, at: at)
            default: throw ProtocolError("change must be add or undo")
            }
        }

        /// The pre-sleep answers: at least one, each in its range (`PreSleepAnswers.problem`).
        func preSleep() throws -> PreSleepAnswers {
            let answers: PreSleepAnswers?
            do { answers = try container.decodeIfPresent(PreSleepAnswers.self, forKey: .presleep) } catch let error as DecodingError {
                throw ProtocolError(ControlProtocol.describe(error))
            }
            guard let answers, !answers.isEmpty else { throw ProtocolError("presleep is missing: at least one answer") }
            if let problem = answers.problem() { throw ProtocolError("presleep.\(problem)") }
            if let problem = ControlProtocol.noteProblem(answers.notes, option: "presleep.notes") { throw ProtocolError(problem) }
            return answers
        }

        func sessionDate(_ key: Key) throws -> String? {
            guard let text = try string(key) else { return nil }
            guard SessionDate.date(text) != nil else { throw ProtocolError("\(Self.wire(key)) must be a date such as 2026-11-21") }
            return text
        }

        func checkin() throws -> CheckInAnswers {
            let answers: CheckInAnswers?
            do { answers = try container.decodeIfPresent(CheckInAnswers.self, forKey: .checkin) } catch let error as DecodingError {
                throw ProtocolError(ControlProtocol.describe(error))
            }
            guard let answers else { throw ProtocolError("checkin is missing: checkin needs the answers") }
            guard CheckInAnswers.qualityRange.contains(answers.sleepQuality) else {
                throw ProtocolError("checkin.sleep_quality must be \(CheckInAnswers.qualityRange.lowerBound) to \(CheckInAnswers.qualityRange.upperBound)")
            }
            guard CheckInAnswers.clarityRange.contains(answers.mentalClarity) else {
                throw ProtocolError("checkin.mental_clarity must be \(CheckInAnswers.clarityRange.lowerBound) to \(CheckInAnswers.clarityRange.upperBound)")
            }
            if let problem = ControlProtocol.noteProblem(answers.notes, option: "checkin.notes") { throw ProtocolError(problem) }
            return answers
        }
    }
}
