import BoxControl
import BoxDaemon
import Foundation
import Logging
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The control socket under abuse: garbage, oversized and half-sent frames get an error
/// (or a closed connection) and the server keeps answering.
/// Blocking socket I/O runs on its own thread, so it never holds a thread of the
/// concurrency pool that the server's handler needs.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { cont in
        Thread.detachNewThread { cont.resume(with: Result { try work() }) }
    }
}

@Suite struct ControlSocketTests {
    static func withServer(_ body: @escaping @Sendable (String) throws -> Void) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sock-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("c.sock").path
        let server = ControlServer(path: path, logger: Logger(label: "test")) { command, uid in
            .done("\(command.name) from uid \(uid)", status: nil)
        }
        try server.start()
        defer { server.stop() }
        try await offPool { try body(path) }
    }

    /// Sends raw bytes and returns every reply line until the server closes or `expect` lines arrived.
    static func raw(_ path: String, _ bytes: [UInt8], expect lines: Int) -> [String] {
        guard let fd = UnixSocket.connectStream(path) else { return [] }
        defer { close(fd) }
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        _ = UnixSocket.writeAll(fd, bytes)
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while out.filter({ $0 == 10 }).count < lines {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func aValidRequestIsAnsweredWithThePeersUID() async throws {
        try await Self.withServer { path in
            let r = try ControlClient(path: path).send(.status)
            #expect(r.ok)
            #expect(r.message == "status from uid \(getuid())")
        }
    }

    @Test func garbageFramesGetErrorRepliesAndTheConnectionGoesOn() async throws {
        try await Self.withServer { path in
            let frames = ["not json", "{}", "[1,2]", "{\"v\":99,\"cmd\":\"status\"}", "{\"v\":1}", "\u{0}\u{1}\u{2}", "   ",
                          "{\"v\":1,\"cmd\":\"status\"}"]
            let lines = Self.raw(path, Array((frames.joined(separator: "\n") + "\n").utf8), expect: frames.count)
            #expect(lines.count == frames.count)
            let replies = lines.compactMap { try? ControlProtocol.decoder().decode(Reply.self, from: Data($0.utf8)) }
            #expect(replies.count == frames.count)
            #expect(replies.dropLast().allSatisfy { !$0.ok && $0.replyClass == .usage })
            #expect(replies.last?.ok == true)
            #expect(replies[3].message.contains("unsupported protocol version 99"))
        }
    }

    @Test func anOversizedFrameIsRefusedAndTheServerStillAnswers() async throws {
        try await Self.withServer { path in
            let big = [UInt8](repeating: UInt8(ascii: "x"), count: ControlProtocol.maxFrameBytes * 3)
            let lines = Self.raw(path, big, expect: 1)
            #expect(lines.first?.contains("frame too large") == true)
            let after = try ControlClient(path: path).send(.status)
            #expect(after.ok)
        }
    }

    @Test func aHalfSentFrameDoesNotHurt() async throws {
        try await Self.withServer { path in
            let lines = Self.raw(path, Array("{\"v\":1,\"cmd\":\"sta".utf8), expect: 0)
            #expect(lines.isEmpty)
            let after = try ControlClient(path: path).send(.status)
            #expect(after.ok)
        }
    }

    /// Seeded: a failure names its seed, and `DOSETAP_FRAMES_SEED=N` runs those frames again.
    @Test func tenThousandRandomFramesThenStatusStillAnswers() async throws {
        let seed = ProcessInfo.processInfo.environment["DOSETAP_FRAMES_SEED"].flatMap(UInt64.init) ?? 0xF2A3E5
        try await Self.withServer { path in
            var rng = SplitMix64(seed: seed)
            var bytes: [UInt8] = []
            for i in 0..<10_000 {
                let len = Int.random(in: 0...200, using: &rng)
                bytes += (0..<len).map { _ in UInt8.random(in: 0...255, using: &rng) }.map { $0 == 10 ? 32 : $0 }
                bytes.append(10)
                if i % 1000 == 999 {
                    _ = Self.raw(path, bytes, expect: 1000)
                    bytes.removeAll()
                }
            }
            let after = try ControlClient(path: path).send(.status)
            #expect(after.ok, "frames of seed \(seed)")
        }
    }

    @Test func anAbsentDaemonIsUnreachable() {
        #expect(throws: ControlClient.Failure.self) { try ControlClient(path: "/nonexistent/boxd.sock").send(.status) }
    }

    @Test(arguments: [("150m", 9_000_000), ("30s", 30_000), ("1h5m", 3_900_000), ("-1h", -3_600_000), ("+1d", 86_400_000), ("250ms", 250)])
    func durations(text: String, ms: Int64) {
        #expect(DurationText.parseMilliseconds(text) == ms)
    }

    @Test(arguments: ["", "5", "1x", "m", "--1h"])
    func badDurations(text: String) {
        #expect(DurationText.parseMilliseconds(text) == nil)
    }
}
