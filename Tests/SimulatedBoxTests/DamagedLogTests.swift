import Foundation
import Testing

/// Issue 17 item 1, through the binaries: a damaged night log never leads to a new Dose 1
/// from one press. After the restart both doses are known, or the box is in doubt.
@Suite(.serialized) struct DamagedLogTests {
    /// Dose 1, Dose 2 at 170 min, a clean stop; then `damage` is done to the file.
    static func nightThenDamage(_ damage: (URL) throws -> Void) throws -> BoxRig {
        let rig = try BoxRig()
        try rig.launch()
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        _ = try rig.boxctl(["sim", "advance", "170m"])
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        #expect(rig.terminate() == 0)
        try damage(rig.dir.appendingPathComponent("nightlog.sqlite"))
        try rig.launch()
        return rig
    }

    static func doseRows(_ rig: BoxRig, _ type: String) throws -> Int {
        let out = rig.dir.appendingPathComponent("export-\(UUID().uuidString.prefix(6))")
        let r = try rig.boxctl(["export", "--out", out.path])
        guard r.exit == 0 else { throw BoxRig.RigError("export failed: \(r.err)") }
        let text = try String(contentsOf: out.appendingPathComponent("box-dose-events.csv"), encoding: .utf8)
        return text.split(separator: "\n").filter { $0.contains(",\(type),") }.count
    }

    /// The issue's reproduction: one 4 KB page (page 14) overwritten.
    @Test func anOverwrittenPageNeverLeadsToANewDose1() throws {
        let rig = try Self.nightThenDamage { file in
            var bytes = try Data(contentsOf: file)
            let page = 14, size = 4096
            #expect(bytes.count >= page * size)
            bytes.replaceSubrange((page - 1) * size..<page * size, with: Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
            try bytes.write(to: file)
        }
        defer { rig.cleanup() }
        try Self.expectNoUnconfirmedDose(rig)
    }

    /// The file truncated to half its size.
    @Test func aHalfTruncatedLogNeverLeadsToANewDose1() throws {
        let rig = try Self.nightThenDamage { file in
            let bytes = try Data(contentsOf: file)
            try bytes.prefix(bytes.count / 2).write(to: file)
        }
        defer { rig.cleanup() }
        try Self.expectNoUnconfirmedDose(rig)
    }

    static func expectNoUnconfirmedDose(_ rig: BoxRig) throws {
        let st = try rig.statusJSON()
        let faults = (st["faults"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(faults.contains("log_recovered"), "\(faults)")
        let doubt = st["doubt"] as? String
        let phase = st["phase"] as? String
        let dose1Before = try doseRows(rig, "dose1")
        print("damaged log: after the restart phase \(phase ?? "nil"), \(doubt == nil ? "certain" : "in doubt"), \(dose1Before) Dose 1 row(s)")
        if doubt == nil {
            // Certain: both doses are back and the night is done.
            #expect(phase == "completed", "phase \(phase ?? "nil") without doubt")
            #expect(dose1Before == 1)
            #expect(try doseRows(rig, "dose2") == 1)
        } else {
            #expect(doubt?.hasPrefix("I could not read tonight's record") == true)
            #expect((st["led"] as? [String: Any])?["pattern"] as? String == "doubt")
            let take = try rig.boxctl(["take"])
            #expect(take.exit == 3, "\(take.out)\(take.err)")
            #expect(take.out.contains("do not take more") || take.err.contains("do not take more"))
        }
        // One press: never a new Dose 1.
        _ = try rig.boxctl(["sim", "press", "dose"])
        #expect(try doseRows(rig, "dose1") == dose1Before, "a single press recorded a Dose 1")
        // A restart keeps the doubt (or the certainty).
        #expect(rig.terminate() == 0)
        try rig.launch()
        #expect((try rig.statusJSON()["doubt"] as? String) == doubt)
        _ = try rig.boxctl(["sim", "press", "dose"])
        #expect(try doseRows(rig, "dose1") == dose1Before)
    }
}
