import BoxControl
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The real boxd binary in sim mode (`--hardware sim --clock sim:…`) in a temporary state
/// directory, driven only through its public interfaces: the boxctl binary and the
/// control socket. Readiness comes from boxd's own sd_notify READY=1, not from sleeping.
final class BoxRig: @unchecked Sendable {
    let dir: URL
    /// The state directory: `dir`, or a directory inside it (one a test may mount read-only
    /// while the socket and boxd's output stay in `dir`).
    let stateDir: URL
    let socket: String
    let start: String
    let extraArgs: [String]
    let environment: [String: String]
    private(set) var process: Process?
    private(set) var stderrURL: URL

    static let buildDir: URL = {
        // The test binary lives in .build/<triple>/debug next to boxd and boxctl.
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        if dir.lastPathComponent == "MacOS" { dir = dir.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }
        return dir
    }()

    static var boxd: URL { buildDir.appendingPathComponent("boxd") }
    static var boxctl: URL { buildDir.appendingPathComponent("boxctl") }

    init(start: String = "2026-11-21T22:00:00-05:00", args: [String] = [], environment: [String: String] = [:],
         stateSubdirectory: String? = nil) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hil-\(UUID().uuidString.prefix(8))")
        self.dir = dir
        stateDir = stateSubdirectory.map { dir.appendingPathComponent($0) } ?? dir
        try FileManager.default.createDirectory(at: stateDir, withIntermediateDirectories: true)
        socket = dir.appendingPathComponent("control.sock").path
        stderrURL = dir.appendingPathComponent("boxd.log")
        self.start = start
        extraArgs = args
        self.environment = environment
        guard FileManager.default.isExecutableFile(atPath: Self.boxd.path), FileManager.default.isExecutableFile(atPath: Self.boxctl.path) else {
            throw RigError("boxd/boxctl are not built next to the tests in \(Self.buildDir.path); run swift build --build-tests first")
        }
    }

    struct RigError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// Starts boxd and returns once it said READY=1.
    func launch() throws {
        let notifyPath = dir.appendingPathComponent("notify-\(UUID().uuidString.prefix(6)).sock").path
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer {
            close(fd)
            unlink(notifyPath)
        }
        guard UnixSocket.withAddress(notifyPath, { bind(fd, $0, $1) }) == 0 else { throw RigError("cannot bind the notify socket") }
        var tv = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))

        let p = Process()
        p.executableURL = Self.boxd
        let clock = extraArgs.contains("--clock") ? [] : ["--clock", "sim:\(start)"]
        let hardware = extraArgs.contains("--hardware") ? [] : ["--hardware", "sim"]
        p.arguments = hardware + clock + ["--state-dir", stateDir.path, "--socket", socket] + extraArgs
        var env = ProcessInfo.processInfo.environment
        env["NOTIFY_SOCKET"] = notifyPath
        env.removeValue(forKey: "WATCHDOG_USEC")
        for (k, v) in environment { env[k] = v }
        p.environment = env
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: stderrURL)
        err.seekToEndOfFile()
        p.standardError = err
        p.standardOutput = err
        try p.run()
        process = p
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else {
                throw RigError("boxd did not report READY=1 within 20 s; its log:\n\(log)")
            }
            if String(decoding: buf[0..<n], as: UTF8.self).contains("READY=1") { return }
        }
    }

    var log: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// SIGKILL: no chance to clean up, as in a crash or a power cut.
    func kill9() {
        guard let p = process else { return }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        process = nil
    }

    func terminate() -> Int32? {
        guard let p = process else { return nil }
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        process = nil
        return p.terminationStatus
    }

    var isAlive: Bool { process?.isRunning ?? false }

    struct Result {
        var exit: Int32
        var out: String
        var err: String
    }

    /// Runs the boxctl binary against this box.
    @discardableResult
    func boxctl(_ args: [String]) throws -> Result {
        let r = try ChildProcess.run(Self.boxctl, args + ["--socket", socket, "--state-dir", stateDir.path])
        return Result(exit: r.exit, out: r.out, err: r.err)
    }

    func statusJSON() throws -> [String: Any] {
        let r = try boxctl(["status", "--json"])
        guard let obj = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any] else {
            throw RigError("status --json did not print an object: \(r.out) \(r.err)")
        }
        return obj
    }

    func cleanup() {
        kill9()
        try? FileManager.default.removeItem(at: dir)
    }
}
