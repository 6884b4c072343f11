import DoseCore
import Foundation
import Synchronization

/// Simulated buttons: edges are injected (by the control socket's sim commands or the
/// demo's keyboard) instead of read from GPIO.
public final class SimButtons: EdgeSource {
    private let continuation: AsyncStream<ButtonEdge>.Continuation
    private let stream: AsyncStream<ButtonEdge>

    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: ButtonEdge.self)
    }

    public func inject(_ edge: ButtonEdge) { continuation.yield(edge) }
    public func edges() -> AsyncStream<ButtonEdge> { stream }
    public func close() { continuation.finish() }
}

/// A simulated LED: remembers what it shows and every write, for tests and `boxctl sim led`.
public final class SimLED: LEDOutput {
    private let state = Mutex<(current: LEDColor, writes: Int)>((.off, 0))
    public init() {}
    public func write(_ color: LEDColor) throws {
        state.withLock {
            $0.current = color
            $0.writes += 1
        }
    }
    public var current: LEDColor { state.withLock { $0.current } }
    public var writeCount: Int { state.withLock { $0.writes } }
}
