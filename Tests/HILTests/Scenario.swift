import BoxControl
import Foundation
import Testing

/// A small scenario language, so each night reads like a story:
///
///     at 22:00 press dose
///     advance 150m
///     expect sound window_open gentle
///     expect led green pulse
///
/// One statement per line (or separated by `;`), `#` starts a comment. Statements:
/// `press [BUTTON] [hold MS]`, `double [BUTTON]`, `edges BUTTON SPEC`, `advance DUR`,
/// `at HH:MM STATEMENT`, `clock-step DUR`, `boxctl ARGS…`, `kill`, `down-for DUR` (time
/// passes while boxd is down), `restart`, `remember KEY` (a status key), and the
/// checks `expect exit N | output TEXT | phase P | led COLOR PATTERN | sound NAME [LEVEL] |
/// sounds A B/LEVEL … | silence | status KEY VALUE | fault CODE | no-fault CODE |
/// dose TYPE [FLAG] | doses N TYPE | same KEY | consistent-times | alive`. Sound checks look at the sounds played since
/// the previous sound check.
struct Scenario {
    let text: String
    let rig: BoxRig
    var last: BoxRig.Result?
    var soundsSeen = 0
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
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, raw) in lines.enumerated() {
            for statement in raw.split(separator: ";") {
                let s = statement.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
                    .trimmingCharacters(in: .whitespaces) ?? ""
                if s.isEmpty { continue }
                do {
                    try step(s)
                } catch {
                    Issue.record("line \(i + 1): \(s)\n  \(error)\n--- boxd log (tail) ---\n\(rig.log.suffix(3000))", sourceLocation: sourceLocation)
                    throw error
                }
            }
        }
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
        switch w[0] {
        case "press":
            var args = ["sim", "press", w.count > 1 && w[1] != "hold" ? w[1] : "dose"]
            if let i = w.firstIndex(of: "hold"), i + 1 < w.count { args += ["--hold-ms", w[i + 1]] }
            try ok(args)
        case "double": try ok(["sim", "double", w.count > 1 ? w[1] : "dose"])
        case "edges": try ok(["sim", "edges", w[1], w[2]])
        case "advance": try ok(["sim", "advance", w[1]])
        case "clock-step": try ok(["sim", "clock-step", w[1]])
        case "at":
            try advance(toLocal: w[1])
            if w.count > 2 { try step(w.dropFirst(2).joined(separator: " ")) }
        case "boxctl": _ = try ctl(Array(w.dropFirst()))
        case "kill": rig.kill9()
        case "restart":
            try rig.launch()
            soundsSeen = 0 // a new process starts a new sound log
        case "down-for":
            // While boxd is down, time passes: move the saved simulated clock (same boot).
            guard !rig.isAlive, let ms = DurationText.parseMilliseconds(w[1]) else { throw Failure(description: "down-for needs a killed box and a duration") }
            let url = rig.dir.appendingPathComponent("sim-clock.json")
            guard var obj = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
                  let mono = obj["mono"] as? Int64, let wall = obj["wall"] as? Double else { throw Failure(description: "no sim clock state") }
            obj["mono"] = mono + ms * 1_000_000
            obj["wall"] = wall + Double(ms) / 1000
            try JSONSerialization.data(withJSONObject: obj).write(to: url)
        case "remember":
            remembered[w[1]] = try statusText(w[1])
        case "expect": try expect(Array(w.dropFirst()), raw: s)
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

    func statusText(_ key: String) throws -> String {
        let v = try rig.statusJSON()[key]
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

    /// Sounds since the last sound check, as "name" or "name/level".
    mutating func newSounds() throws -> [(name: String, level: String?)] {
        let r = try rig.boxctl(["sim", "sounds", "--json"])
        guard let obj = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any],
              let list = obj["sounds"] as? [[String: Any]] else { throw Failure(description: "sim sounds --json: \(r.out)\(r.err)") }
        let all = list.map { ($0["name"] as? String ?? "?", $0["level"] as? String) }
        defer { soundsSeen = all.count }
        return Array(all.dropFirst(soundsSeen))
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
        switch w[0] {
        case "exit":
            guard let code = Int32(w[1]), let last else { throw fail("no boxctl command ran") }
            guard last.exit == code else { throw fail("exit \(last.exit); \(last.err)\(last.out)") }
        case "output":
            // The rest of the line, spaces kept.
            let needle = raw.components(separatedBy: "output ").dropFirst().joined(separator: "output ")
            guard let last, (last.out + last.err).contains(needle) else { throw fail("output was: \(last.map { $0.out + $0.err } ?? "")") }
        case "no-output":
            let needle = raw.components(separatedBy: "no-output ").dropFirst().joined(separator: "no-output ")
            guard let last, !(last.out + last.err).contains(needle) else { throw fail("output was: \(last.map { $0.out + $0.err } ?? "")") }
        case "phase":
            let p = try rig.statusJSON()["phase"] as? String
            guard p == w[1] else { throw fail("phase is \(p ?? "nil")") }
        case "led":
            let r = try rig.boxctl(["sim", "led"])
            let shown = r.out.trimmingCharacters(in: .whitespacesAndNewlines)
            guard shown.hasPrefix("\(w[1]) \(w[2])") else { throw fail("LED shows \(shown)") }
        case "sound":
            let new = try newSounds()
            guard let lastSound = new.last, lastSound.name == w[1], w.count < 3 || lastSound.level == w[2] else {
                throw fail("new sounds: \(new.map { "\($0.name)/\($0.level ?? "-")" })")
            }
        case "sounds":
            let new = try newSounds().map { s in s.level.map { "\(s.name)/\($0)" } ?? s.name }
            let want = Array(w.dropFirst())
            let got = zip(new, want).map { n, x in x.contains("/") ? n : String(n.split(separator: "/").first ?? "") }
            guard new.count == want.count, got == want else { throw fail("new sounds: \(new)") }
        case "silence":
            let new = try newSounds()
            guard new.isEmpty else { throw fail("new sounds: \(new.map(\.name))") }
        case "status":
            let text = try statusText(w[1])
            guard text == w[2] else { throw fail("\(w[1]) is \(text)") }
        case "fault", "no-fault":
            let faults = (try rig.statusJSON()["faults"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            guard faults.contains(w[1]) == (w[0] == "fault") else { throw fail("faults: \(faults)") }
        case "dose":
            let rows = try exportedDoses().filter { $0["event_type"] == w[1] }
            guard !rows.isEmpty else { throw fail("no \(w[1]) in the exported log") }
            if w.count > 2 { guard rows.contains(where: { $0[w[2]] == "true" }) else { throw fail("\(w[1]) rows: \(rows)") } }
        case "doses":
            let n = try exportedDoses().filter { $0["event_type"] == w[2] }.count
            guard n == Int(w[1]) else { throw fail("\(n) \(w[2]) rows") }
        case "same":
            let now = try statusText(w[1])
            guard now == remembered[w[1]] else { throw fail("\(w[1]) was \(remembered[w[1]] ?? "?"), now \(now)") }
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
