import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a child's output a line at a time, each wait bounded by a deadline (poll(2)), so a
/// test waits for what it expects and never sleeps.
public final class LineReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// The output ended (the writer closed it).
    public private(set) var ended = false

    public init(fd: Int32) { self.fd = fd }

    /// The next line, or nil when none came within `seconds` or the output ended.
    public func line(within seconds: Double = 10) -> String? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffer.removeSubrange(...nl) }
                return String(decoding: buffer[..<nl], as: UTF8.self)
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero, !ended else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&p, 1, max(ms, 1)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 {
                ended = true
                return nil
            }
            buffer += chunk[0..<n]
        }
    }
}
