@testable import BoxControl
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The client's failures, each a sentence boxctl can print: nobody at the socket, a boxd that
/// closes without answering, an answer that is not a reply.
@Suite struct ControlClientTests {
    /// A one-connection server on a socket in a fresh directory: it reads one line, then
    /// writes `answer` (nil: closes without a word). `readsFirst` false: it answers and closes
    /// at once, as boxd refuses a connection past its bounds; `closed` is signalled then.
    final class OneShotServer: Sendable {
        let path: String
        let listener: Int32
        let closed = DispatchSemaphore(value: 0)

        init(answer: String?, readsFirst: Bool = true) throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            path = dir.appendingPathComponent("s.sock").path
            listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            let bound = UnixSocket.withAddress(path) { bind(listener, $0, $1) }
            guard bound == 0, listen(listener, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
            let fd = listener
            let thread = Thread {
                let c = accept(fd, nil, nil)
                guard c >= 0 else { return }
                var byte: UInt8 = 0
                while readsFirst, read(c, &byte, 1) == 1, byte != UInt8(ascii: "\n") {}
                if let answer { _ = UnixSocket.writeAll(c, Array(answer.utf8)) }
                close(c)
                self.closed.signal()
            }
            thread.start()
        }

        deinit {
            close(listener)
            try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        }
    }

    @Test func nobodyAtTheSocketIsUnreachableAndNamesThePath() {
        let path = "/nonexistent-\(UUID().uuidString.prefix(8))/control.sock"
        #expect {
            try ControlClient(path: path, timeout: .seconds(2)).send(.status)
        } throws: { error in
            guard case .unreachable(let text)? = error as? ControlClient.Failure else { return false }
            return text.contains(path) && text.contains("No such file or directory")
        }
    }

    /// boxd past its bounds says busy and closes before the command is written: the write
    /// fails, and the client still reads what boxd said.
    @Test func aBusyAnswerBeforeTheCommandIsWrittenIsStillRead() throws {
        let busy = String(decoding: try ControlProtocol.line(Reply.busy("boxd is busy: 16 connections are open")), as: UTF8.self)
        let server = try OneShotServer(answer: busy, readsFirst: false)
        let fd = try ControlClient(path: server.path).connect(sending: .take(confirm: false)) { _ in server.closed.wait() }
        defer { close(fd) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        let reply = try ControlProtocol.decoder().decode(Reply.self, from: Data(line))
        #expect(reply.replyClass == .busy && reply.message.contains("busy"))
    }

    @Test func aBoxdThatClosesWithoutAnAnswerIsUnreachable() throws {
        let server = try OneShotServer(answer: nil)
        #expect {
            try ControlClient(path: server.path, timeout: .seconds(5)).send(.status)
        } throws: { error in
            guard case .unreachable(let text)? = error as? ControlClient.Failure else { return false }
            return text == "boxd did not answer (connection closed)"
        }
    }

    @Test func anAnswerThatIsNotAReplyIsABadReply() throws {
        let server = try OneShotServer(answer: "HTTP/1.1 400 Bad Request\n")
        #expect {
            try ControlClient(path: server.path, timeout: .seconds(5)).send(.status)
        } throws: { error in
            guard case .badReply(let text)? = error as? ControlClient.Failure else { return false }
            return text.hasPrefix("boxd's reply could not be read")
        }
    }

    @Test func aReplyIsDecoded() throws {
        let server = try OneShotServer(answer: #"{"v":1,"ok":true,"code":"200_OK","message":"ok","exit":0}"# + "\n")
        let reply = try ControlClient(path: server.path, timeout: .seconds(5)).send(.status)
        #expect(reply.ok)
        #expect(reply.message == "ok")
    }

    @Test(arguments: [("150m", 9_000_000), ("1h5m", 3_900_000), ("-30s", -30_000), ("500ms", 500), ("1d", 86_400_000)] as [(String, Int64)])
    func durationsAsPeopleTypeThem(text: String, ms: Int64) {
        #expect(DurationText.parseMilliseconds(text) == ms)
    }

    @Test(arguments: ["", "m", "5x", "1.5h", "--5m"])
    func notADuration(text: String) {
        #expect(DurationText.parseMilliseconds(text) == nil)
    }
}
