import BoxControl
import BoxDaemon
import Foundation
import Testing

/// A small scenario language, so each night reads like a story:
///
///     at 22:00 press dose
///     advance 150m
///     expect sound window_open gentle
///     expect led green pulse
///
/// One statement per line (or separated by `;`), `#` starts a comment; inside double quotes
/// both are text (`expect output "skipped tonight; nothing more to take."`). Statements:
/// `press [BUTTON] [hold MS]`, `double [BUTTON]`, `edges BUTTON SPEC`, `advance DUR`,
/// `at HH:MM STATEMENT`, `clock-step DUR`, `boxctl ARGS…`, `kill`, `down-for DUR` (time
/// passes while boxd is down), `restart`, `remember KEY` (a status key), and the
/// checks `expect exit N | output TEXT | phase P | led COLOR PATTERN | sound NAME [LEVEL] |
/// sounds A B/LEVEL … | silence | status KEY VALUE | fault CODE | no-fault CODE |
/// dose TYPE [FLAG] | doses N TYPE | same KEY | consistent-times | alive`. Sound checks look at the sounds played since
/// the previous sound check (`sound` passes if one of them matches); `led` matches colour and
/// pattern exactly; a sound the player failed to play shows as NAME/failed. A statement with a
/// missing argument fails with its line and what is missing.
struct Scenario {
    let text: String
    let rig: BoxRig
    var last: BoxRig.Result?
    var soundsSeen = 0
    var speechSeen = 0
    var remembered: [String: String] = [:]

    init(_ text: String, rig: BoxRig) {
        self.text = text
        self.rig = rig
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs every statement; the first failing check stops the night with its line number.
    mutating func run(sourceLocation: SourceLocation = #_sourceLocation) throws {
        if !rig.isAlive { try rig.launch() }
        for (line, s) in Self.statements(text) {
            do {
                try step(s)
            } catch {
                Issue.record("line \(line): \(s)\n  \(error)\n--- boxd log (tail) ---\n\(rig.log.suffix(3000))", sourceLocation: sourceLocation)
                throw error
            }
        }
    }

    /// The statements of a scenario with their line numbers: split at line ends and at `;`,
    /// a `#` ends the line's text; neither counts inside double quotes.
    static func statements(_ text: String) -> [(line: Int, text: String)] {
        var out: [(line: Int, text: String)] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var current = "", quoted = false
            func flush() {
                let t = current.trimmingCharacters(in: .whitespaces)
                if !t.isEmpty { out.append((i + 1, t)) }
                current = ""
            }
            for c in raw {
                if c == "\"" { quoted.toggle() }
                if !quoted, c == "#" { break }
                if !quoted, c == ";" { flush(); continue }
                current.append(c)
            }
            flush()
        }
        return out
    }

    /// Word `i` of a statement, or a failure that names what is missing.
    static func arg(_ w: [String], _ i: Int, _ what: String) throws -> String {
        guard i < w.count else { throw Failure(description: "\(w.joined(separator: " ")): missing \(what)") }
        return w[i]
    }

    /// The rest of a statement after `keyword`, spaces kept, one pair of enclosing quotes removed.
    static func rest(of raw: String, after keyword: String) -> String {
        let text = raw.components(separatedBy: keyword + " ").dropFirst().joined(separator: keyword + " ")
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { return String(text.dropFirst().dropLast()) }
        return text
    }

    static func words(_ s: String) -> [String] {
        var out: [String] = []
        var current = ""
        var quoted = false
        for c in s {
            if c == "\"" { quoted.toggle(); continue }
            if c == " " && !quoted {
                if !current.isEmpty { out.append(current); current = "" }
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    mutating func ctl(_ args: [String]) throws -> BoxRig.Result {
        let r = try rig.boxctl(args)
        last = r
        return r
    }

    mutating func ok(_ args: [String]) throws {
        let r = try ctl(args)
        guard r.exit == 0 else { throw Failure(description: "boxctl \(args.joined(separator: " ")) exited \(r.exit): \(r.err)\(r.out)") }
    }

    mutating func step(_ s: String) throws {
        let w = Self.words(s)
        switch w.first ?? "" {
        case "press":
            var args = ["sim", "press", w.count > 1 && w[1] != "hold" ? w[1] : "dose"]
            if let i = w.firstIndex(of: "hold"), i + 1 < w.count { args += ["--hold-ms", w[i + 1]] }
            try ok(args)
        case "double": try ok(["sim", "double", w.count > 1 ? w[1] : "dose"])
        case "edges": try ok(["sim", "edges", try Self.arg(w, 1, "BUTTON"), try Self.arg(w, 2, "SPEC")])
        case "advance": try ok(["sim", "advance", try Self.arg(w, 1, "DURATION")])
        case "clock-step": try ok(["sim", "clock-step", try Self.arg(w, 1, "DURATION")])
        case "at":
            try advance(toLocal: try Self.arg(w, 1, "HH:MM"))
            if w.count > 2 { try step(w.dropFirst(2).joined(separator: " ")) }
        case "boxctl": _ = try ctl(Array(w.dropFirst()))
        case "kill": rig.kill9()
        case "restart":
            try rig.launch()
            soundsSeen = 0 // a new process starts a new sound log
            speechSeen = 0
        case "down-for":
            // While boxd is down, time passes: move the saved simulated clock (same boot).
            guard !rig.isAlive, let ms = DurationText.parseMilliseconds(try Self.arg(w, 1, "DURATION")) else { throw Failure(description: "down-for needs a killed box and a duration") }
            let file = SimClockFile(directory: rig.dir)
            guard var r = file.load() else { throw Failure(description: "no sim clock state") }
            r.mono += ms * 1_000_000
            r.wall = r.wall.addingTimeInterval(Double(ms) / 1000)
            try file.save(r)
        case "remember":
            let key = try Self.arg(w, 1, "KEY")
            remembered[key] = try statusText(key)
        case "expect": try expect(Array(w.dropFirst()), raw: s)
        case "": throw Failure(description: "an empty statement")
        default: throw Failure(description: "unknown statement \(w[0])")
        }
    }

    mutating func advance(toLocal hhmm: String) throws {
        let st = try rig.statusJSON()
        guard let nowText = st["now"] as? String, let now = Self.iso(nowText), let zone = (st["time_zone"] as? String).flatMap(TimeZone.init(identifier:)) else {
            throw Failure(description: "status has no now/time_zone")
        }
        let parts = hhmm.split(separator: ":").compactMap { Int($0) }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        guard parts.count == 2, let target = cal.nextDate(after: now.addingTimeInterval(-0.001), matching: DateComponents(hour: parts[0], minute: parts[1], second: 0), matchingPolicy: .nextTime) else {
            throw Failure(description: "bad time \(hhmm)")
        }
        let ms = Int64((target.timeIntervalSince(now) * 1000).rounded())
        if ms > 0 { try ok(["sim", "advance", "\(ms)ms"]) }
    }

    /// A status key's value as text; `a.b` reads key b of the object a.
    func statusText(_ key: String) throws -> String {
        var v: Any? = try rig.statusJSON()
        for part in key.split(separator: ".") { v = (v as? [String: Any])?[String(part)] }
        if v == nil || v is NSNull { return "null" }
        if let s = v as? String { return s }
        if let d = v as? [String: Any], let data = try? JSONSerialization.data(withJSONObject: d, options: .sortedKeys) {
            return String(decoding: data, as: UTF8.self)
        }
        return "\(v!)"
    }

    static func iso(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }

    /// Sounds since the last sound check. One the player failed to play has the level "failed".
    /// A sentence said is not a sound here: `expect said` reads those.
    mutating func newSounds() throws -> [(name: String, level: String?)] {
        try newEntries(&soundsSeen).filter { $0["name"] as? String != "speech" }
            .map { ($0["name"] as? String ?? "?", $0["failed"] as? Bool == true ? "failed" : $0["level"] as? String) }
    }

    /// Sentences said since the last `expect said`.
    mutating func newSpeech() throws -> [String] {
        try newEntries(&speechSeen).compactMap { $0["name"] as? String == "speech" ? $0["text"] as? String : nil }
    }

    func newEntries(_ seen: inout Int) throws -> [[String: Any]] {
        let r = try rig.boxctl(["sim", "sounds", "--json"])
        guard let obj = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any],
              let list = obj["sounds"] as? [[String: Any]] else { throw Failure(description: "sim sounds --json: \(r.out)\(r.err)") }
        defer { seen = list.count }
        return Array(list.dropFirst(seen))
    }

    func exportedDoses() throws -> [[String: String]] {
        let out = rig.dir.appendingPathComponent("export-\(UUID().uuidString.prefix(6))")
        let r = try rig.boxctl(["export", "--out", out.path])
        guard r.exit == 0 else { throw Failure(description: "export failed: \(r.err)") }
        let text = try String(contentsOf: out.appendingPathComponent("box-dose-events.csv"), encoding: .utf8)
        let rows = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = rows.first else { return [] }
        return rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    mutating func expect(_ w: [String], raw: String) throws {
        func fail(_ m: String) -> Failure { Failure(description: "expected \(w.joined(separator: " ")): \(m)") }
        func arg(_ i: Int, _ what: String) throws -> String { try Self.arg(["expect"] + w, i + 1, what) }
        switch w.first ?? "" {
        case "exit":
            guard let code = Int32(try arg(1, "N")), let last else { throw fail("no boxctl command ran") }
            guard last.exit == code else { throw fail("exit \(last.exit); \(last.err)\(last.out)") }
        case "output":
            let needle = Self.rest(of: raw, after: "output")
            guard let last, (last.out + last.err).contains(needle) else { throw fail("output was: \(last.map { $0.out + $0.err } ?? "")") }
        case "no-output":
            let needle = Self.rest(of: raw, after: "no-output")
            guard let last, !(last.out + last.err).contains(needle) else { throw fail("output was: \(last.map { $0.out + $0.err } ?? "")") }
        case "phase":
            let p = try rig.statusJSON()["phase"] as? String
            guard p == (try arg(1, "PHASE")) else { throw fail("phase is \(p ?? "nil")") }
        case "led":
            let color = try arg(1, "COLOR"), pattern = try arg(2, "PATTERN")
            let r = try rig.boxctl(["sim", "led"])
            let shown = Self.words(r.out.trimmingCharacters(in: .whitespacesAndNewlines))
            guard shown.count >= 2, shown[0] == color, shown[1] == pattern else {
                throw fail("LED shows \(shown.joined(separator: " "))")
            }
        case "sound":
            let name = try arg(1, "NAME")
            let new = try newSounds()
            // A sound that failed to play matches only `expect sound NAME failed`.
            guard new.contains(where: { $0.name == name && (w.count < 3 ? $0.level != "failed" : $0.level == w[2]) }) else {
                throw fail("new sounds: \(new.map { "\($0.name)/\($0.level ?? "-")" })")
            }
        case "sounds":
            let new = try newSounds().map { s in s.level.map { "\(s.name)/\($0)" } ?? s.name }
            let want = Array(w.dropFirst())
            let got = zip(new, want).map { n, x in x.contains("/") || n.hasSuffix("/failed") ? n : String(n.split(separator: "/").first ?? "") }
            guard new.count == want.count, got == want else { throw fail("new sounds: \(new)") }
        case "said":
            let needle = Self.rest(of: raw, after: "said")
            let new = try newSpeech()
            guard new.contains(where: { $0.contains(needle) }) else { throw fail("said: \(new)") }
        case "silence":
            let new = try newSounds()
            guard new.isEmpty else { throw fail("new sounds: \(new.map(\.name))") }
        case "status":
            let key = try arg(1, "KEY"), value = try arg(2, "VALUE")
            let text = try statusText(key)
            guard text == value else { throw fail("\(key) is \(text)") }
        case "fault", "no-fault":
            let code = try arg(1, "CODE")
            let faults = (try rig.statusJSON()["faults"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            guard faults.contains(code) == (w[0] == "fault") else { throw fail("faults: \(faults)") }
        case "dose":
            let type = try arg(1, "TYPE")
            let rows = try exportedDoses().filter { $0["event_type"] == type }
            guard !rows.isEmpty else { throw fail("no \(type) in the exported log") }
            if w.count > 2 { guard rows.contains(where: { $0[w[2]] == "true" }) else { throw fail("\(type) rows: \(rows)") } }
        case "doses":
            let count = try arg(1, "N"), type = try arg(2, "TYPE")
            let n = try exportedDoses().filter { $0["event_type"] == type }.count
            guard n == Int(count) else { throw fail("\(n) \(type) rows") }
        case "same":
            let key = try arg(1, "KEY")
            let now = try statusText(key)
            guard now == remembered[key] else { throw fail("\(key) was \(remembered[key] ?? "?"), now \(now)") }
        case "consistent-times":
            // Every wall time in status is Dose 1 plus the rule's minutes, on the clock as it reads now.
            let st = try rig.statusJSON()
            func date(_ k: String) throws -> Date {
                guard let t = st[k] as? String, let d = Self.iso(t) else { throw fail("no \(k)") }
                return d
            }
            let d1 = try date("dose1_at")
            let opens = try date("window_opens_at").timeIntervalSince(d1), closes = try date("window_closes_at").timeIntervalSince(d1)
            guard abs(opens - 150 * 60) < 0.002, abs(closes - 240 * 60) < 0.002 else { throw fail("opens +\(opens / 60) min, closes +\(closes / 60) min") }
            guard let nowText = st["now"] as? String, let now = Self.iso(nowText), now >= d1 else { throw fail("now before Dose 1") }
        case "alive":
            guard rig.isAlive else { throw fail("boxd is not running") }
        default:
            throw Failure(description: "unknown check \(w[0])")
        }
    }
}

/// Runs one night on a fresh box.
func night(_ text: String, args: [String] = [], environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let rig = try BoxRig(args: args, environment: environment)
    defer { rig.cleanup() }
    var s = Scenario(text, rig: rig)
    try s.run(sourceLocation: sourceLocation)
}
