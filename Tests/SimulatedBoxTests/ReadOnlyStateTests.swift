import BoxWords
import DoseCore
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A directory bind-mounted onto itself, then remounted read-only or writable: a read-only
/// file system as the kernel reports it (EROFS), which `chmod` cannot give root. mount(8)
/// needs root (CI runs the tests as root); elsewhere the tests say why they were skipped.
enum BindMount {
    /// nil when mounts can be made here, else why not.
    static let unavailable: String? = {
        guard getuid() == 0 else { return "needs root: a read-only state directory is a read-only bind mount" }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("mount-probe-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: probe) }
        do {
            try FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
            try readOnly(probe)
            unmount(probe)
            return nil
        } catch {
            return "mount(8) is not permitted here: \(error)"
        }
    }()

    static func mount(_ args: [String]) throws {
        let r = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["mount"] + args)
        guard r.exit == 0 else { throw BoxRig.RigError("mount \(args.joined(separator: " ")): \(r.err)") }
    }

    /// Makes `dir` a read-only mount of itself.
    static func readOnly(_ dir: URL) throws {
        try mount(["--bind", dir.path, dir.path])
        try mount(["-o", "remount,bind,ro", dir.path])
    }

    static func writable(_ dir: URL) throws { try mount(["-o", "remount,bind,rw", dir.path]) }

    static func unmount(_ dir: URL) { _ = try? ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["umount", dir.path]) }
}

/// #29: a read-only state directory at start never stops boxd. The lock is outside it, the
/// rest of the start tolerates it: boxd runs with its socket, LED and alarms, shows the log
/// fault (and doubt when tonight cannot be read), and takes writes once the directory can
/// be written (the log is tried again on the box's timer).
@Suite(.serialized, .enabled(if: BindMount.unavailable == nil, Comment(rawValue: BindMount.unavailable ?? "")))
struct ReadOnlyStateTests {
    /// The state in `state/`, read-only; the socket, boxd's output and the simulated
    /// speaker's WAV beside it, writable (as /run and the sound card are on a box).
    static func rig() throws -> BoxRig {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("hil-ro-\(UUID().uuidString.prefix(8)).wav")
        return try BoxRig(args: ["--audio", "wav:\(wav.path)"], stateSubdirectory: "state")
    }

    static func faults(_ st: [String: Any]) -> [String] {
        (st["faults"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
    }

    /// Nothing in the directory and nothing can be made there: tonight cannot be read, so it
    /// is in doubt; the socket answers, the LED shows it. Once writable, a press is Dose 1.
    @Test func anEmptyReadOnlyStateDirectoryRunsInDoubtThenRecordsOnceWritable() throws {
        let rig = try Self.rig()
        defer { rig.cleanup() }
        try BindMount.readOnly(rig.stateDir)
        var mounted = true
        defer { if mounted { BindMount.unmount(rig.stateDir) } }
        try rig.launch() // before #29: "cannot open …/boxd.lock: Read-only file system", exit 1
        var st = try rig.statusJSON()
        #expect(Self.faults(st).contains("log_unwritable"), "\(Self.faults(st))")
        #expect(st["doubt"] as? String == Written.doubt)
        #expect((st["led"] as? [String: Any])?["color"] as? String == "amber", "\(String(describing: st["led"]))")
        #expect(try rig.boxctl(["take"]).exit == 3, "in doubt a dose needs a confirmation")
        #expect(try FileManager.default.contentsOfDirectory(atPath: rig.stateDir.path).isEmpty)

        try BindMount.writable(rig.stateDir)
        _ = try rig.boxctl(["sim", "advance", "1m"]) // the log is tried again on the box's timer
        st = try rig.statusJSON()
        #expect(!Self.faults(st).contains("log_unwritable") && st["doubt"] is NSNull, "\(Self.faults(st)) \(String(describing: st["doubt"]))")
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        #expect(try rig.statusJSON()["dose1_at"] as? String != nil)
        #expect(rig.terminate() == 0)
        BindMount.unmount(rig.stateDir)
        mounted = false
        #expect(try DamagedLogTests.doseRows(rig, "dose1") == 1)
    }

    /// Dose 1 recorded, then the directory turns read-only and boxd restarts (a remount after
    /// a disk error): tonight is read from the log, the alarms ring on time, the log fault
    /// shows; once writable, what waited is written and Dose 2 by a press is recorded.
    @Test func aNightOnAStateDirectoryThatTurnedReadOnlyStillRingsAndRecordsOnceWritable() throws {
        let rig = try Self.rig()
        defer { rig.cleanup() }
        try rig.launch()
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        #expect(rig.terminate() == 0)
        try BindMount.readOnly(rig.stateDir)
        var mounted = true
        defer { if mounted { BindMount.unmount(rig.stateDir) } }
        try rig.launch()
        var st = try rig.statusJSON()
        #expect(Self.faults(st).contains("log_unwritable"), "\(Self.faults(st))")
        #expect(st["dose1_at"] as? String != nil, "tonight is read from the read-only log")
        _ = try rig.boxctl(["sim", "advance", "150m"])
        let sounds = try rig.boxctl(["sim", "sounds"]).out
        #expect(sounds.contains("window_open gentle") && !sounds.contains("FAILED"), "\(sounds)")
        #expect(try rig.boxctl(["take"]).exit == 6, "Dose 2 cannot be written yet: not acknowledged")

        try BindMount.writable(rig.stateDir)
        _ = try rig.boxctl(["sim", "advance", "1m"])
        st = try rig.statusJSON()
        #expect(!Self.faults(st).contains("log_unwritable"), "\(Self.faults(st))")
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        #expect(try rig.statusJSON()["dose2_at"] as? String != nil)
        let feed = try WatchTests.Watcher(rig, ["--after", "2"])
        defer { _ = feed.stop() }
        #expect(feed.lines(5).dropFirst().map(WatchTests.what) == [
            "FAULT log_unwritable: \(Written.advice(.logUnwritable))", "alarm rang: window open (gentle)",
            "fault cleared: log_unwritable", "Dose 2  by button:dose",
        ])
        #expect(rig.terminate() == 0)
        BindMount.unmount(rig.stateDir)
        mounted = false
        #expect(try DamagedLogTests.doseRows(rig, "dose2") == 1)
    }
}
