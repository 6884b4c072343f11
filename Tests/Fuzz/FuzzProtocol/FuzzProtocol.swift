// libFuzzer target: the control protocol's decoder, one frame (one line, without its newline).
// Built and run by scripts/fuzz; see Tests/Fuzz/README.md. libFuzzer supplies main.
import BoxControl
import Foundation

/// Fails the run: libFuzzer reports the trap as a crash and saves the input.
func fail(_ what: String, _ frame: [UInt8]) -> Never {
    fatalError("FuzzProtocol: \(what)\n--- frame ---\n\(String(decoding: frame, as: UTF8.self))\n---")
}

// The typed protocol: `ControlProtocol.decodeCommand(_:) -> Result<Command, ProtocolError>`, as
// ControlServer reads a frame.

/// A command back to its frame, as ControlClient sends it.
func encode(_ command: Command) throws -> [UInt8] {
    Array(try ControlProtocol.encoder().encode(command))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let frame = Array(UnsafeBufferPointer(start: data, count: size))
    switch ControlProtocol.decodeCommand(frame) {
    case .failure(let error):
        if error.message.isEmpty { fail("a ProtocolError with an empty message", frame) }
    case .success(let command):
        // Round trip: what was accepted encodes, and the encoding decodes to the same command.
        let encoded: [UInt8]
        do { encoded = try encode(command) } catch { fail("accepted \(command) but cannot encode it: \(error)", frame) }
        switch ControlProtocol.decodeCommand(encoded) {
        case .failure(let error):
            fail("\(command) encodes to a frame it refuses: \(error.message)", encoded)
        case .success(let again):
            // By structure, so Command needs no Equatable; the re-encoding must be stable too.
            if String(reflecting: again) != String(reflecting: command) {
                fail("round trip changed \(command) into \(again)", frame)
            }
            if let twice = try? encode(again), twice != encoded { fail("encoding \(command) is not stable", frame) }
        }
    }
    return 0
}
