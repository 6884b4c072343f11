import DoseCore
import Foundation
import Testing
@testable import NightLog
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A writer process killed with SIGKILL right after `append` returned loses nothing.
///
/// The child is `NightLogBench crash-writer DIR N TAG` (built with the package, next to the
/// test binary). It appends record i, then prints "committed i". The test kills it at a
/// random moment, then checks that every index it printed is in the log, that what is in
/// the log is a gap-free prefix (each append all or nothing, in order), and that the file
/// opens without any recovery. Just before each kill, a read-only open in this process
/// reads the log the live writer process holds open, and must see what it printed. What this proves: nothing is held back in user space once
/// `append` returns. (Power loss is covered by `synchronous = FULL`, which a kill cannot test.)
@Suite struct CrashTests {
    static let iterations = 50

    /// The NightLogBench executable: $NIGHTLOG_BENCH, else next to the running test binary
    /// (SwiftPM puts all products of a build in one directory).
    static func benchBinary() -> URL? {
        var candidates: [URL] = []
        if let env = ProcessInfo.processInfo.environment["NIGHTLOG_BENCH"] { candidates.append(URL(fileURLWithPath: env)) }
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        // On macOS the test binary sits inside X.xctest/Contents/MacOS.
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent("NightLogBench"))
            dir = dir.deletingLastPathComponent()
        }
        if let main = Bundle.main.executableURL?.deletingLastPathComponent() {
            candidates.append(main.appendingPathComponent("NightLogBench"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    struct Run {
        var committed: [Int]
        /// How many commits had been printed when the live read happened (0: no live read).
        var committedBeforeLiveRead: Int
        var seenLive: Set<Int>
        var exitedOnItsOwn: Bool
        var stderr: String
    }

    /// Starts the writer, lets it report `killAfter` commits, SIGKILLs it, and returns every
    /// "committed i" it managed to print (including lines still in the pipe).
    static func runAndKill(_ binary: URL, dir: URL, tag: String, killAfter: Int) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["crash-writer", dir.path, "1000000", tag]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()

        let fd = out.fileHandleForReading.fileDescriptor
        var pending: [UInt8] = []
        var committed: [Int] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        func readSome() -> Bool {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            guard n > 0 else { return false }
            pending += chunk[0..<n]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if line.hasPrefix("committed "), let i = Int(line.dropFirst(10)) { committed.append(i) }
            }
            return true
        }
        while committed.count < killAfter, readSome() {}
        // While the writer process is alive and writing: a read-only open sees its commits.
        var seenLive: Set<Int>?
        let countAtLiveRead = committed.count
        if !committed.isEmpty, FileManager.default.fileExists(atPath: dir.appendingPathComponent(NightLog.fileName).path) {
            seenLive = try storedIndices(NightLog.openReadOnly(stateDirectory: dir), tag: tag)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        while readSome() {} // lines printed before the kill landed count too
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Run(committed: committed, committedBeforeLiveRead: seenLive == nil ? 0 : countAtLiveRead,
                   seenLive: seenLive ?? [], exitedOnItsOwn: process.terminationReason == .exit, stderr: stderr)
    }

    /// The indices of the crash-writer records of run `tag` in the log.
    static func storedIndices(_ log: NightLog, tag: String) throws -> Set<Int> {
        Set((try log.records(sessionID: "session-\(tag)")?.records ?? []).compactMap { record -> Int? in
            switch record {
            case .sleepEvent(let e): Int(e.id.dropFirst(tag.count + 1))
            case .dose(let d): Int(d.id.dropFirst(tag.count + 1))
            default: nil
            }
        })
    }

    @Test func killedWriterLosesNothingThatWasCommitted() throws {
        guard let binary = Self.benchBinary() else {
            Issue.record("""
                NightLogBench is not built next to the test binary (\(CommandLine.arguments.first ?? "?")). \
                Build everything first: swift build --build-tests (or set NIGHTLOG_BENCH to its path).
                """)
            return
        }
        try withTempDir { dir throws in
            var rng = SystemRandomNumberGenerator()
            var totalCommitted = 0
            for iteration in 0..<Self.iterations {
                let tag = "it\(iteration)"
                // Sometimes kill before the first commit, mostly somewhere in the first few dozen.
                let killAfter = iteration % 10 == 0 ? 0 : Int.random(in: 1...25, using: &rng)
                let run = try Self.runAndKill(binary, dir: dir, tag: tag, killAfter: killAfter)
                #expect(!run.exitedOnItsOwn, "the writer exited by itself: \(run.stderr)")
                #expect(run.committed == Array(0..<run.committed.count), "out-of-order output: \(run.committed)")
                guard !run.exitedOnItsOwn else { return }

                // The log as the CLI would see it right after the crash.
                // (Killed before its first open created the file: nothing to find, nothing promised.)
                let file = dir.appendingPathComponent(NightLog.fileName)
                if !FileManager.default.fileExists(atPath: file.path) {
                    #expect(run.committed.isEmpty)
                    continue
                }
                let stored = try Self.storedIndices(NightLog.openReadOnly(stateDirectory: dir), tag: tag)
                #expect(Set(0..<run.committedBeforeLiveRead).isSubset(of: run.seenLive),
                        "iteration \(iteration): a reader in another process missed commits of the live writer")
                let lost = run.committed.filter { !stored.contains($0) }
                #expect(lost.isEmpty, "iteration \(iteration): printed 'committed' but missing after SIGKILL: \(lost)")
                #expect(stored == Set(0..<stored.count), "iteration \(iteration): not a gap-free prefix: \(stored.sorted())")
                #expect(stored.count >= run.committed.count)
                totalCommitted += run.committed.count
            }

            // After fifty kills the file is healthy: no recovery on a normal open.
            let log = try NightLog.open(stateDirectory: dir)
            #expect(log.fault == nil)
            #expect(totalCommitted > Self.iterations) // the test really exercised commits
        }
    }
}
