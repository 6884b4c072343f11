import Foundation

// The seam between the GPIO logic and libgpiod. Everything above it (chip lookup, line
// checks, the reader thread, edge decoding, colour mixing) runs in the tests against a
// fake; LibgpiodDriver (libgpiod 1.6) or LibgpiodV2Driver (libgpiod 2), whichever the build
// chose, is the only code that touches the C library.

/// Pull resistor for a button line. A button to ground needs a pull-up (pressed = low); a
/// button to 3.3 V needs a pull-down (pressed = high).
public enum GPIOBias: String, Sendable, Hashable {
    case pullUp = "pull-up"
    case pullDown = "pull-down"
    /// Leave the pin as it is: for buttons with their own external resistor.
    case asIs = "as-is"
}

/// The event type values of both libgpiod APIs: GPIOD_LINE_EVENT_RISING_EDGE / _FALLING_EDGE
/// in 1.6, GPIOD_EDGE_EVENT_RISING_EDGE / _FALLING_EDGE in 2.x (the same 1 and 2). Mirrored
/// here so the decoding can be tested without the C header.
public enum GPIOEventType {
    public static let risingEdge: Int32 = 1
    public static let fallingEdge: Int32 = 2
}

/// One edge event as the driver read it, on the line's chip offset.
struct GPIORawEvent: Sendable {
    var line: Int
    var type: Int32
    /// CLOCK_MONOTONIC.
    var ts: timespec
}

/// An errno from a driver call that the caller must inspect (EAGAIN, EINTR).
struct DriverErrno: Error, Sendable {
    var code: Int32
}

/// One input line to request with both-edge events; `key` names it in errors.
struct EdgeLine: Sendable, Hashable {
    var line: Int
    var bias: GPIOBias
    var key: String
}

protocol GPIODriver: Sendable {
    /// Every chip that can be opened, in chip-number order.
    func chips() -> [ChipInfo]
    func open(_ chip: ChipInfo) throws(GPIOError) -> any GPIOChipSession
}

/// One open chip and the lines requested through it. Released by `close()`. A session is
/// used for one purpose: the buttons' inputs or the LED's outputs, each requested once.
protocol GPIOChipSession: AnyObject, Sendable {
    var chip: ChipInfo { get }
    /// Requests `lines` as inputs with both-edge events, each with its bias, and returns
    /// each line's event descriptor (in the order of `lines`), set non-blocking. Lines may
    /// share a descriptor: libgpiod 1.6 gives each line its own, libgpiod 2 requests them
    /// together and delivers all their events, in kernel order, through one. A refusal
    /// names the line refused. The descriptors stay owned by the session: never close them.
    func requestEdges(_ lines: [EdgeLine], consumer: String) throws(GPIOError) -> [Int32]
    /// Reads up to `max` pending events from an event descriptor; EAGAIN when none.
    func readEvents(fd: Int32, max: Int) throws(DriverErrno) -> [GPIORawEvent]
    /// Requests `lines` as outputs, each at its `value` (the physical level, 0 or 1).
    func requestOutputs(_ lines: [LineLevel], consumer: String) throws(GPIOError)
    /// Sets output lines to physical levels; libgpiod 2 sets them in one call.
    func setValues(_ lines: [LineLevel]) throws(GPIOError)
    /// Releases every line and closes the chip. Idempotent.
    func close()
}

/// The libgpiod API this build talks to, chosen when the package was built from the
/// installed libgpiod's pkg-config version (see Package.swift).
public enum LibgpiodAPI: String, Sendable {
    case v1
    case v2

    #if GPIOD_V2
    public static let built: LibgpiodAPI = .v2
    #else
    public static let built: LibgpiodAPI = .v1
    #endif
}

/// The real driver of this build.
func systemDriver() -> any GPIODriver {
    #if GPIOD_V2
    LibgpiodV2Driver()
    #else
    LibgpiodDriver()
    #endif
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
