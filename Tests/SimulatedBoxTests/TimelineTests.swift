import Foundation
import Testing

/// Issue 17 item 3 / issue 19 item 6: one timeline across wall-clock steps. Status, history
/// and export agree with each other and with the interval.
@Suite(.serialized) struct TimelineTests {
    struct Views {
        var statusDose1: String, statusDose2: String?
        var historyLine: String
        var exportDose1: String, exportDose2: String?
        var exportSessionDate: String
        var interval: String
    }

    static func views(_ rig: BoxRig) throws -> Views {
        let st = try rig.statusJSON()
        let history = try rig.boxctl(["history"]).out.split(separator: "\n").map(String.init)
        let out = rig.dir.appendingPathComponent("x-\(UUID().uuidString.prefix(6))")
        let r = try rig.boxctl(["export", "--out", out.path])
        guard r.exit == 0 else { throw BoxRig.RigError("export: \(r.err)") }
        func rows(_ file: String) throws -> [[String: String]] {
            let text = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
        }
        let doses = try rows("box-dose-events.csv")
        let analytics = try rows("analytics.csv")
        return Views(statusDose1: st["dose1_at"] as? String ?? "", statusDose2: st["dose2_at"] as? String,
                     historyLine: history.count > 1 ? history[1] : "",
                     exportDose1: doses.first { $0["event_type"] == "dose1" }?["timestamp"] ?? "",
                     exportDose2: doses.first { $0["event_type"] == "dose2" }?["timestamp"],
                     exportSessionDate: doses.first { $0["event_type"] == "dose1" }?["session_date"] ?? "",
                     interval: analytics.last?["Interval"] ?? "")
    }

    static func minutes(_ a: String, _ b: String) -> Double? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let x = f.date(from: a) ?? ISO8601DateFormatter().date(from: a),
              let y = f.date(from: b) ?? ISO8601DateFormatter().date(from: b) else { return nil }
        return y.timeIntervalSince(x) / 60
    }

    /// Step −2 h, Dose 1, step −2 h, advance 150 min, Dose 2 (the issue's sequence).
    @Test func twoStepsBackKeepOneTimeline() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        #expect(try rig.boxctl(["sim", "clock-step", "-2h"]).exit == 0)
        _ = try rig.boxctl(["sim", "press", "dose"])           // Dose 1 at 20:00 on the clock as it read then
        #expect(try rig.boxctl(["sim", "clock-step", "-2h"]).exit == 0)
        _ = try rig.boxctl(["sim", "advance", "150m"])
        _ = try rig.boxctl(["sim", "press", "dose"])            // Dose 2
        let v = try Self.views(rig)
        // Dose 1 is 18:00 local (23:00Z) everywhere: the clock as it reads now.
        #expect(v.exportDose1.hasPrefix("2026-11-21T23:00:00"), "export \(v.exportDose1)")
        #expect(Self.minutes(v.statusDose1, v.exportDose1).map { abs($0) < 0.01 } == true, "status \(v.statusDose1) vs export \(v.exportDose1)")
        #expect(v.historyLine.contains("18:00   20:30"), "history: \(v.historyLine)")
        // 150 min plus the press itself (the double gap before a single commits in the window).
        #expect(Self.minutes(v.exportDose1, v.exportDose2 ?? "").map { abs($0 - 150) < 0.05 } == true, "export \(v.exportDose1) .. \(v.exportDose2 ?? "nil")")
        #expect(v.interval == "150", "interval \(v.interval)")
    }

    /// A Pi without RTC boots at its last shutdown time (13:00), Dose 1, then NTP steps +9 h.
    @Test func aBootAtTheLastShutdownTimeThenNTP() throws {
        let rig = try BoxRig(start: "2026-11-21T13:00:00-05:00")
        defer { rig.cleanup() }
        try rig.launch()
        _ = try rig.boxctl(["sim", "press", "dose"])            // Dose 1 at "13:00": really 22:00
        #expect(try rig.boxctl(["sim", "clock-step", "9h"]).exit == 0)
        let v = try Self.views(rig)
        #expect(v.exportDose1.hasPrefix("2026-11-22T03:00:00"), "export \(v.exportDose1)")
        #expect(Self.minutes(v.statusDose1, v.exportDose1).map { abs($0) < 0.01 } == true)
        #expect(v.historyLine.hasPrefix("2026-11-21  22:00"), "history: \(v.historyLine)")
        #expect(v.exportSessionDate == "2026-11-21", "the night's key follows the corrected start")
        // The window is still measured on the since-boot clock: it opens 150 min after Dose 1.
        _ = try rig.boxctl(["sim", "advance", "150m"])
        #expect(try rig.statusJSON()["phase"] as? String == "active")
        // And a restart keeps the same times.
        #expect(rig.terminate() == 0)
        try rig.launch()
        #expect(try Self.views(rig).exportDose1 == v.exportDose1)
    }
}
