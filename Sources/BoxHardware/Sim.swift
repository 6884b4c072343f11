import DoseCore
import Foundation
import Synchronization

/// Simulated buttons: an edge source like GPIO, fed by the control socket's sim and bench
/// commands and the demo's keyboard instead of a chip. Edges go through the same stream and
/// the same pump into the engine as a kernel's edges do; only their origin differs.
public final class SimButtons: EdgeSource {
    private let continuation: AsyncStream<ButtonEdge>.Continuation
    private let stream: AsyncStream<ButtonEdge>
    /// Each button's wiring (`active_low`), to turn "down"/"up" into the line's edge.
    private let activeLow: [String: Bool]
    private let yielded = Mutex(0)

    public enum Failure: Error, Sendable, Equatable {
        case unknownButton(String)
    }

    /// `buttons`: each configured button's name and whether it is active low.
    public init(buttons: [String: Bool] = ["dose": true]) {
        activeLow = buttons
        (stream, continuation) = AsyncStream.makeStream(of: ButtonEdge.self)
    }

    public var buttonNames: [String] { activeLow.keys.sorted() }

    /// The button goes down (`pressed`) or up at `at` on the edge clock. Returns how many
    /// edges the source has yielded, this one included, so the caller can wait for the
    /// engine to have handled it; nil once the source is closed (nothing was delivered).
    @discardableResult
    public func set(_ button: String, pressed: Bool, at: Duration) throws(Failure) -> Int? {
        guard let low = activeLow[button] else { throw .unknownButton(button) }
        let edge = ButtonEdge(button: button, edge: RawEdge(.init(pressed: pressed, activeLow: low), at: at))
        // Counted before it is yielded: the engine may handle it at once (see `edgesYielded`).
        let n = yielded.withLock { n -> Int in
            n += 1
            return n
        }
        if case .terminated = continuation.yield(edge) {
            yielded.withLock { $0 -= 1 }
            return nil
        }
        return n
    }

    public func edges() -> AsyncStream<ButtonEdge> { stream }
    public func close() { continuation.finish() }
    public var edgesYielded: Int? { yielded.withLock { $0 } }
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
