import BoxWords
import DoseCore
import Foundation
import TestSupport
import Testing

/// #29, through the real boxd and boxctl: with the speaker failed, `boxctl watch` (and so the
/// caregiver bridge behind the same feed) says each alarm could not sound, at its minute, and
/// never that it rang.
@Suite(.serialized) struct SilentAlarmTests {
    @Test func watchSaysTheAlarmCouldNotSoundAndNeverRang() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        let live = try WatchTests.Watcher(rig, [])
        defer { _ = live.stop() }
        #expect(live.line() == "watching boxd's night log after event #0 (Ctrl-C stops)")
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        #expect(try rig.boxctl(["sim", "fault", "audio-fail"]).exit == 0)
        #expect(try rig.boxctl(["sim", "advance", "175m"]).exit == 0)
        var lines: [String] = []
        while let l = live.line(within: 30) { // ends at UNANSWERED; long only when the machine is starved
            lines.append(l)
            if l.contains("UNANSWERED") { break }
        }
        let told = lines.map { $0.components(separatedBy: "  ").dropFirst().joined(separator: "  ") }
        #expect(!told.contains { $0.contains("rang") }, "\(told)")
        let silent = "the box cannot wake them (speaker failed)"
        #expect(told.filter { $0.contains("COULD NOT SOUND") } == [
            "00:30  ALARM COULD NOT SOUND: window open (gentle): \(silent)",
            "00:40  ALARM COULD NOT SOUND: pre alarm (standard): \(silent)",
            "00:45  ALARM COULD NOT SOUND: main alarm (critical): \(silent)",
            "00:47  ALARM COULD NOT SOUND: follow up (critical): \(silent)",
            "00:49  ALARM COULD NOT SOUND: follow up (critical): \(silent)",
            "00:51  ALARM COULD NOT SOUND: follow up (critical): \(silent)",
        ], "\(told)")
        #expect(told.last == "00:53  ALARM UNANSWERED: no Dose 2 after the last follow-up", "\(told)")
        // What the patient's side shows agrees: none of them was heard.
        let sounds = try rig.boxctl(["sim", "sounds"]).out
        #expect(sounds.contains("main_alarm") && sounds.contains("FAILED"), "\(sounds)")
        // The feed's JSON (what boxd-mqtt publishes as event_type) names the kind.
        let json = try WatchTests.Watcher(rig, ["--after", "0", "--json"])
        defer { _ = json.stop() }
        var kinds: [String] = []
        while let l = json.line(within: 30), let o = try? JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any] {
            if let e = o["event"] as? [String: Any], let k = e["kind"] as? String { kinds.append(k) }
            if kinds.contains("alarm_unanswered") { break }
        }
        #expect(kinds.filter { $0 == "alarm_silent" }.count == 6 && !kinds.contains("alarm_rang"), "\(kinds)")
    }

    /// The full-disk case: the simulated speaker's WAV on a small tmpfs filled after Dose 1.
    /// Nothing knew the speaker was broken until boxd played the window-open chime and the
    /// write failed: no "rang" is written for it, the feed says at once that it could not
    /// sound, then the fault.
    @Test(.enabled(if: BindMount.unavailable == nil, Comment(rawValue: BindMount.unavailable ?? "")))
    func anAlarmThatFailsAsItPlaysOnAFullDiskIsNeverCalledRang() throws {
        let disk = FileManager.default.temporaryDirectory.appendingPathComponent("hil-full-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: disk) }
        try BindMount.mount(["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk.path])
        defer { BindMount.unmount(disk) }
        let rig = try BoxRig(args: ["--audio", "wav:\(disk.path)/sounds.wav"])
        defer { rig.cleanup() }
        try rig.launch()
        #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
        _ = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["dd", "if=/dev/zero", "of=\(disk.path)/fill", "bs=4k"]) // until ENOSPC
        #expect(!ReadOnlyStateTests.faults(try rig.statusJSON()).contains("audio_unavailable"), "nothing knows yet")
        #expect(try rig.boxctl(["sim", "advance", "150m"]).exit == 0)
        let feed = try WatchTests.Watcher(rig, ["--after", "2"])
        defer { _ = feed.stop() }
        let told = feed.lines(3).dropFirst().map(WatchTests.what)
        #expect(told == ["ALARM COULD NOT SOUND: window open (gentle): the box cannot wake them (speaker failed)",
                         "FAULT audio_unavailable: \(Written.advice(.audioUnavailable))"], "\(told)")
        #expect(feed.line(within: 0.5).map { !$0.contains("rang") } ?? true)
        #expect(rig.log.contains("could not sound"), "boxd's journal says why")
    }
}
