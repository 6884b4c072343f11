import Foundation

// The seam between the GPIO logic and libgpiod. Everything above it (chip lookup, line
// checks, the reader thread, edge decoding, colour mixing) runs in the tests against a
// fake; LibgpiodDriver is the only code that touches the C library.

/// Pull resistor for a button line. A button to ground needs a pull-up (pressed = low); a
/// button to 3.3 V needs a pull-down (pressed = high).
public enum GPIOBias: String, Sendable, Hashable {
    case pullUp = "pull-up"
    case pullDown = "pull-down"
    /// Leave the pin as it is: for buttons with their own external resistor.
    case asIs = "as-is"
}

/// libgpiod's event type values (GPIOD_LINE_EVENT_RISING_EDGE / _FALLING_EDGE in v1.6).
/// Mirrored here so the decoding can be tested without the C header.
public enum GPIOEventType {
    public static let risingEdge: Int32 = 1
    public static let fallingEdge: Int32 = 2
}

/// One event as gpiod_line_event_read_fd_multiple returns it.
struct GPIORawEvent: Sendable {
    var type: Int32
    var ts: timespec
}

/// An errno from a driver call that the caller must inspect (EAGAIN, EINTR).
struct DriverErrno: Error, Sendable {
    var code: Int32
}

protocol GPIODriver: Sendable {
    /// Every chip that can be opened, in chip-number order.
    func chips() -> [ChipInfo]
    func open(_ chip: ChipInfo) throws(GPIOError) -> any GPIOChipSession
}

/// One open chip and the lines requested through it. Released by `close()`.
protocol GPIOChipSession: AnyObject, Sendable {
    var chip: ChipInfo { get }
    /// Requests `line` as an input with both-edge events and the given bias, and returns
    /// the event file descriptor, set non-blocking. The descriptor stays owned by the
    /// session: never close it yourself.
    func requestEdges(line: Int, bias: GPIOBias, consumer: String, key: String) throws(GPIOError) -> Int32
    /// Reads up to `max` pending events from an event descriptor; EAGAIN when none.
    func readEvents(fd: Int32, max: Int) throws(DriverErrno) -> [GPIORawEvent]
    /// Requests `line` as an output at `initial` (the physical level, 0 or 1).
    func requestOutput(line: Int, initial: Int32, consumer: String, key: String) throws(GPIOError)
    /// Sets an output line to a physical level.
    func setValue(line: Int, _ value: Int32, key: String) throws(GPIOError)
    /// Releases every line and closes the chip. Idempotent.
    func close()
}

/// A value behind a lock, for state shared with the reader thread.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `value` goes through `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
