import BoxControl
import BoxDaemon
import Foundation
import Logging
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// #31 item 6: one loop serves every connection, and the server is a service that ends when
/// it is told to. No thread waits on a client, so a slow answer on one connection holds up no
/// other.
@Suite struct ControlLoopTests {
    /// A handler whose `status` waits until the test lets it go; everything else is answered at once.
    final class Gate: Sendable {
        let waiting = Mutex<[CheckedContinuation<Void, Never>]>([])
        let open = Mutex(false)
        let (entered, entering) = AsyncStream<Void>.makeStream()

        func pass() async {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let now = open.withLock { isOpen in
                    if !isOpen { waiting.withLock { $0.append(c) } }
                    return isOpen
                }
                entering.yield()
                if now { c.resume() }
            }
        }

        func release() {
            open.withLock { $0 = true }
            for c in waiting.withLock({ w in defer { w = [] }; return w }) { c.resume() }
        }
    }

    static func server(_ gate: Gate) throws -> (ControlServer, String, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("loop-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("c.sock").path
        let server = ControlServer(path: path, logger: Logger(label: "test")) { command, _ in
            if case .status = command { await gate.pass() }
            return .done(command.name, status: nil)
        }
        try server.start()
        return (server, path, dir)
    }

    static func frame(_ command: Command) throws -> [UInt8] { Array(try ControlProtocol.line(command)) }

    @Test func aSlowAnswerOnOneConnectionHoldsUpNoOther() async throws {
        let gate = Gate()
        let (server, path, dir) = try Self.server(gate)
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: dir)
        }
        let status = try Self.frame(.status)
        async let slow = offPool { ControlSocketTests.raw(path, status, expect: 1) }
        var entered = gate.entered.makeAsyncIterator()
        await entered.next() // the status is being answered, and waits
        let quick = try await offPool { try ControlClient(path: path).send(.config) }
        #expect(quick.ok && quick.message == "config", "answered while the other connection's answer waits")
        gate.release()
        #expect(try await slow.first?.contains("\"status\"") == true)
    }

    @Test func oneConnectionsCommandsAreAnsweredInOrderOneAtATime() async throws {
        let gate = Gate()
        let (server, path, dir) = try Self.server(gate)
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: dir)
        }
        gate.release()
        let frames = try [Command.config, .status, .doctor, .status, .config].flatMap(Self.frame)
        let lines = try await offPool { ControlSocketTests.raw(path, frames, expect: 5) }
        let names = lines.compactMap { try? ControlProtocol.decoder().decode(Reply.self, from: Data($0.utf8)).message }
        #expect(names == ["config", "status", "doctor", "status", "config"])
    }

    @Test func stoppingEndsTheServiceAndClosesItsConnections() async throws {
        let gate = Gate()
        let (server, path, dir) = try Self.server(gate)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fd = try #require(UnixSocket.connectStream(path))
        defer { close(fd) }
        // The connection is served (its frame answered) before the stop.
        let config = try Self.frame(.config)
        _ = UnixSocket.writeAll(fd, config)
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 4096)
        #expect(read(fd, &chunk, chunk.count) > 0)

        async let ran: Void = server.run()
        server.stop()
        try await ran
        #expect(read(fd, &chunk, chunk.count) == 0, "closed by the stop")
        #expect(UnixSocket.connectStream(path) == nil, "the socket is gone")
    }
}
