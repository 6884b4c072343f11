import ArgumentParser
import BoxControl
import DoseCore
import Foundation

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Follow the night live: a line per event as boxd records it (Ctrl-C stops).",
        discussion: "Each event has an id (the night log's sequence); --after N shows every event after N first, so a reader that saw N misses nothing. --json prints boxd's frames (one JSON object per line). Exit code 4 when boxd stops or restarts.")
    @Option(help: "Show every event after this id first (0: the whole log). Default: only what happens from now.")
    var after: Int64?
    @OptionGroup var connection: Connection

    func validate() throws {
        if let after, after < 0 { throw ValidationError("--after must be 0 or more") }
    }

    func run() throws {
        let client = ControlClient(path: connection.socket)
        // Local times in the box's time zone when boxd can say which.
        let zone = (try? client.send(.status))?.status.flatMap { TimeZone(identifier: $0.timeZone) } ?? .current
        let encoder = ControlProtocol.encoder()
        var refused: Reply?
        do {
            try client.watch(after: after) { reply in
                if connection.json {
                    emit(String(decoding: (try? encoder.encode(reply)) ?? Data(), as: UTF8.self))
                } else {
                    switch reply {
                    case .watching(let after): emit("watching boxd's night log after event #\(after) (Ctrl-C stops)")
                    case .event(let event): emit(event.text(in: zone))
                    default: break
                    }
                }
                guard reply.ok else {
                    refused = reply
                    return false
                }
                return true
            }
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(Exit.unreachable)
        }
        if let refused {
            if !connection.json { FileHandle.standardError.write(Data("\(refused.message)\n".utf8)) }
            throw ExitCode(Exit(refused))
        }
    }

    /// Written at once, not when a buffer fills: `boxctl watch | tee night.txt` shows each line as it happens.
    func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
