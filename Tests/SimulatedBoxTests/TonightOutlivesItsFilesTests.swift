import Foundation
import Testing

/// Issue 29 through the real binaries, as a new user would meet it: one plain press never
/// records a new Dose 1 minutes after a real dose, whatever happened to the log's files.
@Suite(.serialized) struct TonightOutlivesItsFilesTests {
    static func file(_ rig: BoxRig, _ name: String) -> URL { rig.dir.appendingPathComponent(name) }

    static func faults(_ status: [String: Any]) -> [String] {
        (status["faults"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    /// The dose events in the export, as (type, restored) in order.
    static func doses(_ rig: BoxRig) throws -> [(type: String, restored: Bool)] {
        let out = rig.dir.appendingPathComponent("export-\(UUID().uuidString.prefix(6))")
        let r = try rig.boxctl(["export", "--out", out.path])
        guard r.exit == 0 else { throw BoxRig.RigError("export failed: \(r.err)") }
        let text = try String(contentsOf: out.appendingPathComponent("box-dose-events.csv"), encoding: .utf8)
        // CSV lines end in CRLF (one Character in Swift): split on newlines, not on "\n".
        return text.split(whereSeparator: \.isNewline).dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return (String(fields[1]), fields.last == "witness")
        }
    }

    /// Defect 1: two nights opened and closed by sleep events and check-ins after Dose 2,
    /// then a restart. The guard against a new Dose 1 within 240 minutes of the last dose
    /// reads the whole log, so the press is refused with a confirmation asked.
    @Test func theLastDoseIsKnownAfterARestartHoweverManyNightsWereOpened() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        try rig.boxctl(["sim", "advance", "170m"])
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        try rig.boxctl(["sim", "advance", "1m"])
        for step in [["checkin", "--quality", "3"], ["log", "bathroom"], ["checkin", "--quality", "3"], ["log", "water"]] {
            let r = try rig.boxctl(step)
            #expect(r.exit == 0, "\(step): \(r.out)\(r.err)")
        }
        let before = try rig.boxctl(["take"])
        #expect(before.exit == 3 && (before.out + before.err).contains("The last dose was taken"), "\(before.out)\(before.err)")
        rig.kill9()
        try rig.launch()
        let after = try rig.boxctl(["take"])
        #expect(after.exit == 3 && (after.out + after.err).contains("The last dose was taken"), "\(after.out)\(after.err)")
        try rig.boxctl(["sim", "press", "dose"])
        try rig.boxctl(["sim", "advance", "20s"])
        #expect(try Self.doses(rig).map(\.type) == ["dose1", "dose2"], "a plain press after the restart recorded a dose")
    }

    /// Dose 1, 30 minutes (and `then`), a crash (SIGKILL); then `damage` is done to the files
    /// while boxd is down.
    static func dose1ThenCrash(then: [String]? = nil, _ damage: (String) throws -> Void) throws -> (rig: BoxRig, kept: [String: Data]) {
        let rig = try BoxRig()
        try rig.launch()
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        try rig.boxctl(["sim", "advance", "30m"])
        if let then { #expect(try rig.boxctl(then).exit == 0) }
        rig.kill9()
        let log = file(rig, "nightlog.sqlite").path
        try damage(log)
        var kept: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm"] { kept[suffix] = FileManager.default.contents(atPath: log + suffix) }
        try rig.launch()
        return (rig, kept)
    }

    static func removeWAL(_ log: String) throws {
        try FileManager.default.removeItem(atPath: log + "-wal")
        try FileManager.default.removeItem(atPath: log + "-shm")
    }

    /// One plain press, and the dose events are still `expected`.
    static func aPressRecordsNothing(_ rig: BoxRig, expected: [(String, Bool)]) throws {
        try rig.boxctl(["sim", "press", "dose"])
        try rig.boxctl(["sim", "advance", "20s"])
        let doses = try doses(rig)
        #expect(doses.map(\.type) == expected.map(\.0) && doses.map(\.restored) == expected.map(\.1), "\(doses)")
    }

    /// Defect 2 as written: the -wal and -shm removed after the crash. The checkpoint after
    /// each dose put Dose 1 in the main file, so nothing was lost: Dose 1 is known and a press
    /// records nothing.
    @Test func aLostWALLosesNoDose() throws {
        let (rig, _) = try Self.dose1ThenCrash { log in
            let main = try Data(contentsOf: URL(fileURLWithPath: log))
            #expect(main.count > 4096 * 4, "the main file holds \(main.count) bytes: nothing was checkpointed")
            try Self.removeWAL(log)
        }
        defer { rig.cleanup() }
        let st = try rig.statusJSON()
        #expect(st["phase"] as? String == "beforeWindow", "tonight's Dose 1 is not known: \(st["phase"] ?? "nil")")
        #expect(!Self.faults(st).contains("log_lost_records"), "\(Self.faults(st))")
        try Self.aPressRecordsNothing(rig, expected: [("dose1", false)])
    }

    /// The -wal lost after the crash held a later commit (a bathroom trip): the log is behind
    /// its witness, so tonight is in doubt; Dose 1, checkpointed, is still known.
    @Test func aLostWALWithALaterRecordPutsTonightInDoubt() throws {
        let (rig, kept) = try Self.dose1ThenCrash(then: ["log", "bathroom"]) { try Self.removeWAL($0) }
        defer { rig.cleanup() }
        let st = try Self.expectLostRecords(rig, kept: kept)
        #expect(st["phase"] as? String == "beforeWindow", "tonight's Dose 1 is not known: \(st["phase"] ?? "nil")")
        try Self.aPressRecordsNothing(rig, expected: [("dose1", false)])
    }

    /// Defect 2's other form: the main file emptied (or replaced). The box is in doubt, names
    /// the lost records, keeps the files exactly as found, and knows tonight's Dose 1 from the
    /// witness: a press records nothing.
    @Test func anEmptiedLogStartsInDoubtWithTonightsDose1Restored() throws {
        let (rig, kept) = try Self.dose1ThenCrash { try Data().write(to: URL(fileURLWithPath: $0)) }
        defer { rig.cleanup() }
        let st = try Self.expectLostRecords(rig, kept: kept)
        #expect(st["phase"] as? String == "beforeWindow", "tonight's Dose 1 is not known: \(st["phase"] ?? "nil")")
        let logHealth = (st["health"] as? [String: Any])?["log"] as? [String: Any]
        #expect((logHealth?["detail"] as? String)?.contains("Dose 1 at") == true, "\(String(describing: logHealth))")
        #expect(rig.log.contains("the witness restored: Dose 1 at"), "\(rig.log)")
        // doctor says why too.
        let doctor = try rig.boxctl(["doctor"])
        #expect(doctor.exit == 1 && doctor.out.contains("FAIL  tonight's record: in doubt")
                && doctor.out.contains("FAIL  night log (boxd): FAULT (the night log lost records"), "\(doctor.out)")
        try Self.aPressRecordsNothing(rig, expected: [("dose1", true)])
        // A restart keeps the doubt.
        #expect(rig.terminate() == 0)
        try rig.launch()
        #expect(try rig.statusJSON()["doubt"] as? String != nil)
    }

    /// In doubt with the fault, the LED saying so, and the files kept byte for byte.
    static func expectLostRecords(_ rig: BoxRig, kept: [String: Data]) throws -> [String: Any] {
        let st = try rig.statusJSON()
        #expect(faults(st).contains("log_lost_records"), "\(faults(st))")
        #expect(st["doubt"] as? String != nil, "not in doubt: \(st)")
        #expect((st["led"] as? [String: Any])?["pattern"] as? String == "doubt")
        let aside = try FileManager.default.contentsOfDirectory(atPath: rig.dir.path).filter { $0.hasPrefix("nightlog.sqlite.behind-") }
        let main = try #require(aside.first { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, "\(aside)")
        // (A -wal that was gone is there empty: SQLite's read-only check makes one.)
        for suffix in ["", "-wal"] {
            #expect(FileManager.default.contents(atPath: file(rig, main + suffix).path) ?? Data() == kept[suffix] ?? Data(), "\(main + suffix) changed")
        }
        return st
    }

    /// A log restored from an older copy (taken after Dose 1, before Dose 2): Dose 2 comes back
    /// from the witness, the night reads completed, and a press records no new dose.
    @Test func anOlderCopyOfTheLogIsCaughtAndDose2Restored() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        try rig.boxctl(["sim", "advance", "1m"])
        #expect(rig.terminate() == 0)
        let log = Self.file(rig, "nightlog.sqlite").path
        let older = try Data(contentsOf: URL(fileURLWithPath: log))
        try rig.launch()
        try rig.boxctl(["sim", "advance", "169m"])
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        try rig.boxctl(["sim", "advance", "1m"])
        #expect(rig.terminate() == 0)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: log + suffix) }
        try older.write(to: URL(fileURLWithPath: log))
        try rig.launch()
        let st = try rig.statusJSON()
        #expect(Self.faults(st).contains("log_lost_records"), "\(Self.faults(st))")
        #expect(st["doubt"] as? String != nil)
        #expect(st["phase"] as? String == "completed", "\(st["phase"] ?? "nil")")
        try rig.boxctl(["sim", "press", "dose"])
        try rig.boxctl(["sim", "advance", "20s"])
        let doses = try Self.doses(rig)
        #expect(doses.map(\.type) == ["dose1", "dose2"], "\(doses)")
        #expect(doses.map(\.restored) == [false, true])
    }

    /// The witness itself gone while the log is fine: a fault of its own, rebuilt from the log,
    /// nothing in doubt.
    @Test func aMissingWitnessIsAFaultAndIsRebuilt() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        #expect(rig.terminate() == 0)
        let witness = Self.file(rig, "nightlog.witness")
        #expect(FileManager.default.fileExists(atPath: witness.path))
        try FileManager.default.removeItem(at: witness)
        try rig.launch()
        let st = try rig.statusJSON()
        #expect(Self.faults(st).contains("witness_rebuilt"), "\(Self.faults(st))")
        #expect(!Self.faults(st).contains("log_lost_records"))
        #expect(st["doubt"] as? String == nil)
        #expect(FileManager.default.fileExists(atPath: witness.path))
        // And a witness that is damaged (one byte changed) is caught by its checksum.
        #expect(rig.terminate() == 0)
        var bytes = try Data(contentsOf: witness)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: witness)
        try rig.launch()
        #expect(Self.faults(try rig.statusJSON()).contains("witness_rebuilt"))
        #expect(rig.log.contains("was damaged"), "\(rig.log)")
    }
}

extension TonightOutlivesItsFilesTests {
    /// The -wal and -shm deleted while boxd runs: the next `boxctl take` is recorded (the log is
    /// reopened, every commit kept), not refused with a log that status calls ok.
    @Test func aWALDeletedUnderBoxdDoesNotRefuseTheNextDose() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        try rig.boxctl(["log", "bathroom"])
        let log = Self.file(rig, "nightlog.sqlite").path
        try Self.removeWAL(log)
        let take = try rig.boxctl(["take"])
        #expect(take.exit == 0, "\(take.exit) \(take.out) \(take.err)")
        let st = try rig.statusJSON()
        #expect(st["dose1_at"] as? String != nil)
        #expect(Self.faults(st).isEmpty, "\(Self.faults(st))")
        rig.kill9()
        try rig.launch()
        #expect(try rig.statusJSON()["dose1_at"] as? String != nil, "Dose 1 lost after the restart")
    }
}
