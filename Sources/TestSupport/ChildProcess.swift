import Foundation

/// A finished child process: its exit status and what it printed. For tests that run the
/// built binaries, a broker's tools or openssl.
public struct ChildProcess: Sendable {
    public var exit: Int32
    public var out: String
    public var err: String

    /// Runs `executable` with exactly `arguments` and waits for it, both pipes read to the end.
    public static func run(_ executable: URL, _ arguments: [String]) throws -> ChildProcess {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return ChildProcess(exit: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }
}
