import Foundation
import Testing

/// #34, "a quiet process": boxd runs Swift concurrency on its own threads and timer
/// (QuietRuntime), so libdispatch's global pool never starts. Its first worker starts a monitor
/// that wakes the process every second for as long as it lives: on a quiet night that was more
/// than half of boxd's wake-ups. A `Task.sleep` or a `DispatchQueue.global()` that creeps back
/// into boxd starts that pool, and names a thread after its queue.
@Suite struct QuietProcessTests {
    /// The names of boxd's threads (/proc/PID/task/*/comm).
    static func threadNames(_ pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { tid in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    @Test func aNightOnTheRealClockNeverStartsLibdispatchsPool() throws {
        let rig = try BoxRig(args: ["--clock", "real", "--audio", "wav"])
        defer { rig.cleanup() }
        try rig.launch()
        // Dose 1 (its alarms and the LED's pattern armed on boxd's timer), the status the
        // bedside asks for, and a sentence said and waited for (the voice's blocking wait).
        #expect(try rig.boxctl(["take"]).exit == 0)
        #expect(try rig.boxctl(["status"]).exit == 0)
        let said = try rig.boxctl(["test", "voice"])
        #expect(said.exit == 0, "\(said.out)\(said.err)")
        let pid = try #require(rig.process?.processIdentifier)
        let names = Self.threadNames(pid)
        #expect(names.contains("boxd-timer") && names.contains("boxd-pool"), "\(names)")
        // libdispatch names a worker of its global pool after the queue ("com.apple.root.default-qos",
        // cut to the kernel's 15 characters); its manager thread (".overcommit", for signal sources)
        // starts no monitor.
        let workers = names.filter { $0.contains("qos") && !$0.contains("overcommit") }
        #expect(workers.isEmpty, "libdispatch's pool started in boxd: \(names)")
    }

    /// Once ready, boxd keeps every thread on one CPU, those made later too (the speaker's):
    /// a hand-over between its threads wakes no other CPU. The voice's synthesis, the heaviest
    /// work, runs on every CPU the process had, so that it never starves the LED's blink. On a
    /// machine of one CPU this holds trivially; CI's have two or more.
    @Test func everyThreadButTheVoiceRunsOnOneCPU() throws {
        let rig = try BoxRig(args: ["--clock", "real", "--audio", "wav"])
        defer { rig.cleanup() }
        try rig.launch()
        #expect(try rig.boxctl(["take"]).exit == 0)
        let said = try rig.boxctl(["test", "voice"])
        #expect(said.exit == 0, "\(said.out)\(said.err)")
        let pid = try #require(rig.process?.processIdentifier)
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        let threads = tasks.compactMap { tid -> (name: String, cpus: String)? in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8)) ?? ""
            func field(_ key: String) -> String? {
                status.split(separator: "\n").first { $0.hasPrefix(key + ":") }
                    .map { $0.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces) }
            }
            guard let name = field("Name"), let cpus = field("Cpus_allowed_list") else { return nil }
            return (name, cpus)
        }
        #expect(tasks.count >= 3 && threads.count == tasks.count, "\(tasks) \(threads)")
        let pinned = threads.filter { $0.name != "boxd-voice" }.map(\.cpus)
        #expect(Set(pinned).count == 1, "\(threads)")
        #expect(pinned.allSatisfy { Int($0) != nil }, "one CPU each: \(threads)")
        let voice = threads.filter { $0.name == "boxd-voice" }.map(\.cpus)
        let all = ProcessInfo.processInfo.activeProcessorCount
        #expect(voice.count == 1, "\(threads)")
        #expect(all < 2 || voice.allSatisfy { Int($0) == nil }, "the voice on every CPU: \(threads)")
    }
}
