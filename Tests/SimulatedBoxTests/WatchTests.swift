import BoxWords
import DoseCore
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `boxctl watch` against the real boxd: a night shows up live, line by line; `--after N`
/// replays exactly what came after N; boxd going away ends the watch with exit 4.
@Suite(.serialized) struct WatchTests {
    /// A running `boxctl watch`, read a line at a time with a deadline (poll(2), no sleeps).
    final class Watcher {
        let process = Process()
        let out: Pipe
        private let reader: LineReader
        /// The output ended (the process closed it: it is exiting).
        var ended: Bool { reader.ended }

        init(_ rig: BoxRig, _ args: [String]) throws {
            out = Pipe()
            reader = LineReader(fd: out.fileHandleForReading.fileDescriptor)
            process.executableURL = BoxRig.boxctl
            process.arguments = ["watch"] + args + ["--socket", rig.socket]
            process.standardOutput = out
            process.standardError = out
            try process.run()
        }

        /// The next line, or nil when none came within `seconds` or the output ended.
        func line(within seconds: Double = 10) -> String? { reader.line(within: seconds) }

        /// The next `count` lines; fails the test if they do not come.
        func lines(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
            (0..<count).compactMap { i in
                let l = line()
                if l == nil { Issue.record("line \(i + 1) of \(count) did not come", sourceLocation: sourceLocation) }
                return l
            }
        }

        /// The exit status of a watch that ends by itself within `seconds`; nil (and the
        /// process killed) if it does not.
        func exitStatus(within seconds: Double = 10) -> Int32? {
            while line(within: seconds) != nil {}
            guard ended else {
                _ = stop()
                return nil
            }
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// The exit status; a watch still running is killed (SIGKILL: the test runner's
        /// children inherit its blocked SIGTERM and SIGINT).
        func stop() -> Int32 {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Drops the "#ID  HH:MM  " prefix, keeping what happened.
    static func what(_ line: String) -> String {
        line.components(separatedBy: "  ").dropFirst(2).joined(separator: "  ")
    }

    static func id(_ line: String) -> Int? { Int(line.split(separator: " ").first?.dropFirst() ?? "") }

    @Test func aNightShowsUpLiveAndAfterReplaysExactlyTheRest() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        let live = try Watcher(rig, [])
        defer { _ = live.stop() }
        #expect(live.line() == "watching boxd's night log after event #0 (Ctrl-C stops)")

        #expect(try rig.boxctl(["take"]).exit == 0)
        let started = live.lines(2)
        #expect(started.map(Self.what) == ["night 2026-11-21 started (target 165 min)", "Dose 1  by boxctl:uid=\(getuid())"])
        #expect(started.first?.contains("22:00") == true, "local time in the box's zone: \(started)")
        #expect(try rig.boxctl(["undo"]).exit == 0)
        let undo = live.lines(1)
        #expect(undo.map(Self.what) == ["undo of Dose 1  by boxctl:uid=\(getuid())"])
        #expect(try rig.boxctl(["take"]).exit == 0)
        _ = try rig.boxctl(["sim", "advance", "160m"])
        #expect(try rig.boxctl(["snooze"]).exit == 0)
        #expect(try rig.boxctl(["take"]).exit == 0)
        #expect(try rig.boxctl(["log", "bathroom", "--note", "woke up"]).exit == 0)
        let night = live.lines(6)
        #expect(night.map(Self.what) == ["Dose 1  by boxctl:uid=\(getuid())",
                                         "alarm rang: window open (gentle)", "alarm rang: pre alarm (standard)", // 150 and 160 min
                                         "snooze 1  by boxctl:uid=\(getuid())", "Dose 2  by boxctl:uid=\(getuid())",
                                         "sleep event bathroom: woke up  by boxctl:uid=\(getuid())"])
        #expect(night.compactMap(Self.id) == night.compactMap(Self.id).sorted() && Set(night.compactMap(Self.id)).count == 6)

        // A second reader that saw up to the first Dose 1 gets exactly what came after it.
        let firstDose = try #require(Self.id(started[1]))
        let replay = try Watcher(rig, ["--after", String(firstDose)])
        defer { _ = replay.stop() }
        #expect(replay.line() == "watching boxd's night log after event #\(firstDose) (Ctrl-C stops)")
        let rest = replay.lines(7)
        #expect(rest.compactMap(Self.id) == (undo + night).compactMap(Self.id), "the same ids, in the same order")
        #expect(rest.map(Self.what) == ["undo of Dose 1  by boxctl:uid=\(getuid())"] + night.map(Self.what))
        #expect(replay.line(within: 0.3) == nil, "nothing more than the log holds")

        // boxd goes away: both watches end with exit 4.
        _ = rig.terminate()
        #expect(live.line()?.contains("boxd closed the watch") == true)
        #expect(live.exitStatus() == 4)
    }

    /// A fault of the box shows in the feed when it is raised (with what to do) and when it clears.
    @Test func aFaultRaisedAndClearedIsInTheFeed() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        let live = try Watcher(rig, [])
        defer { _ = live.stop() }
        #expect(live.line() == "watching boxd's night log after event #0 (Ctrl-C stops)")
        #expect(try rig.boxctl(["sim", "fault", "audio-fail"]).exit == 0)
        #expect(try rig.boxctl(["sim", "fault", "audio-fail"]).exit == 0) // still failing: nothing new
        #expect(try rig.boxctl(["sim", "fault", "audio-ok"]).exit == 0)
        #expect(try rig.boxctl(["take"]).exit == 0)
        let lines = live.lines(4)
        #expect(lines.map(Self.what) == [
            "FAULT audio_unavailable: \(Written.advice(.audioUnavailable))", "fault cleared: audio_unavailable",
            "night 2026-11-21 started (target 165 min)", "Dose 1  by boxctl:uid=\(getuid())",
        ])
        #expect(lines.compactMap(Self.id) == [1, 2, 3, 4])
    }

    @Test func jsonFramesCarryTheEventsIdsAndAFifthWatcherIsTurnedAway() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        #expect(try rig.boxctl(["take"]).exit == 0)
        let json = try Watcher(rig, ["--after", "0", "--json"])
        defer { _ = json.stop() }
        let frames = try json.lines(3).map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(frames.map { $0["reply"] as? String } == ["watching", "event", "event"])
        let events = frames.dropFirst().compactMap { $0["event"] as? [String: Any] }
        #expect(events.map { $0["kind"] as? String } == ["night_started", "dose1"])
        #expect(events.allSatisfy { $0["id"] is Int && $0["session_id"] is String && $0["session_date"] as? String == "2026-11-21" })

        var others = [json]
        for _ in 1..<4 {
            let w = try Watcher(rig, [])
            _ = w.line()
            others.append(w)
        }
        let fifth = try Watcher(rig, [])
        #expect(fifth.line()?.contains("4 watchers are connected") == true)
        #expect(fifth.exitStatus() == 4)
        // A watcher that leaves frees its place.
        _ = others.removeLast().stop()
        let again = try Watcher(rig, [])
        defer { _ = again.stop() }
        #expect(again.line()?.hasPrefix("watching") == true)
        for w in others.dropFirst() { _ = w.stop() }
        #expect(try rig.boxctl(["status"]).exit == 0, "commands are still served")
    }

    /// A night with no Dose 2, boxd killed mid-night: the escalations reach the feed once
    /// each, at their minute, and the one that fell due while boxd was down on restart.
    @Test func theCaregiverEscalationsOfAMissedNightAreInTheFeedOnceEach() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        try rig.launch()
        var s = Scenario("""
            at 22:00 press dose
            advance 175m          # 00:55: the wake alarm's follow-ups rang out at 00:52
            kill
            down-for 55m          # 01:45 (15 min left) passes while boxd is down
            restart
            advance 15m           # 02:05: the window closed at 02:00
            """, rig: rig)
        try s.run()
        let feed = try Watcher(rig, ["--after", "0"])
        defer { _ = feed.stop() }
        var lines: [String] = []
        while let l = feed.line(within: 30) { // ends at WINDOW CLOSED; a starved machine may take seconds per line
            lines.append(l)
            if l.contains("WINDOW CLOSED") { break }
        }
        let told = lines.filter { $0.contains("UNANSWERED") || $0.contains("MISSING") || $0.contains("WINDOW CLOSED") }
            .map { $0.components(separatedBy: "  ").dropFirst().joined(separator: "  ") }
        #expect(told == ["00:53  ALARM UNANSWERED: no Dose 2 after the last follow-up",
                         "01:50  DOSE 2 MISSING: the window closes in 15 min",
                         "02:00  WINDOW CLOSED WITHOUT DOSE 2"], "\(lines)")
        #expect(lines.filter { $0.contains("alarm rang: main alarm (critical)") }.count == 1)
    }
}
