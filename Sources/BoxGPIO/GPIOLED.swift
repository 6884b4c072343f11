import BoxHardware
import DoseCore
import Foundation

/// How the LED of `[led]` is wired.
public enum LEDWiring: Sendable, Hashable {
    /// One RGB LED on three lines (`red`, `green`, `blue`).
    case rgb(red: Int, green: Int, blue: Int)
    /// One single-colour LED on one line (`line`): lit for any colour but `.off`.
    case single(line: Int)

    /// The config keys and lines, for the line checks and their messages.
    public var assignments: [LineAssignment] {
        switch self {
        case .rgb(let red, let green, let blue):
            [LineAssignment(key: "led.red", line: red),
             LineAssignment(key: "led.green", line: green),
             LineAssignment(key: "led.blue", line: blue)]
        case .single(let line):
            [LineAssignment(key: "led.line", line: line)]
        }
    }
}

/// One output line and the physical level to drive it to.
public struct LineLevel: Sendable, Hashable {
    public var key: String
    public var line: Int
    public var value: Int32
    public init(key: String, line: Int, value: Int32) {
        self.key = key
        self.line = line
        self.value = value
    }
}

/// The physical level of every LED line for a colour. `activeLow` is for LEDs whose common
/// pin goes to 3.3 V (common-anode RGB): a line then lights its die by going low.
public func ledLineLevels(for color: LEDColor, wiring: LEDWiring, activeLow: Bool) -> [LineLevel] {
    func level(_ lit: Bool) -> Int32 { lit != activeLow ? 1 : 0 }
    switch wiring {
    case .rgb(let red, let green, let blue):
        let dies = RGBLevels(color)
        return [LineLevel(key: "led.red", line: red, value: level(dies.red)),
                LineLevel(key: "led.green", line: green, value: level(dies.green)),
                LineLevel(key: "led.blue", line: blue, value: level(dies.blue))]
    case .single(let line):
        return [LineLevel(key: "led.line", line: line, value: level(color != .off))]
    }
}

/// The LED, through libgpiod: each line an output, consumer "boxd" (with libgpiod 2, one
/// request whose lines change together, so a colour never shows half-written), requested dark
/// (level 0 when active-high, 1 when active-low, so a common-anode LED does not flash white
/// at start). `close()` turns it off before releasing the lines: a released line's level is
/// undefined, and in practice it often stays where it was.
public final class GPIOLED: LEDOutput {
    public let chip: ChipInfo
    public let wiring: LEDWiring
    public let activeLow: Bool
    private let session: any GPIOChipSession
    private let current: Locked<LEDColor?>

    public convenience init(chip spec: String, wiring: LEDWiring, activeLow: Bool = false, consumer: String = "boxd") throws(GPIOError) {
        try self.init(locator: .system, chip: spec, wiring: wiring, activeLow: activeLow, consumer: consumer)
    }

    public convenience init(chip: ChipInfo, wiring: LEDWiring, activeLow: Bool = false, consumer: String = "boxd") throws(GPIOError) {
        try self.init(driver: systemDriver(), chip: chip, wiring: wiring, activeLow: activeLow, consumer: consumer)
    }

    convenience init(locator: GPIOChipLocator, chip spec: String, wiring: LEDWiring, activeLow: Bool, consumer: String = "boxd") throws(GPIOError) {
        let chip = try locator.locate(spec)
        try self.init(driver: locator.driver, chip: chip, wiring: wiring, activeLow: activeLow, consumer: consumer)
    }

    init(driver: any GPIODriver, chip: ChipInfo, wiring: LEDWiring, activeLow: Bool, consumer: String = "boxd") throws(GPIOError) {
        try validateLines(wiring.assignments, chip: chip)
        let session = try driver.open(chip)
        do {
            try session.requestOutputs(ledLineLevels(for: .off, wiring: wiring, activeLow: activeLow), consumer: consumer)
        } catch {
            session.close()
            throw error
        }
        self.chip = chip
        self.wiring = wiring
        self.activeLow = activeLow
        self.session = session
        self.current = Locked(.off)
    }

    deinit {
        close()
    }

    /// The colour last written, or nil once closed.
    public var color: LEDColor? {
        current.withLock { $0 }
    }

    public func write(_ color: LEDColor) throws(GPIOError) {
        // Under the lock so two writers cannot interleave their lines into a mixed colour.
        try current.withLock { (current: inout LEDColor?) throws(GPIOError) in
            guard current != nil else { throw .closed }
            try session.setValues(ledLineLevels(for: color, wiring: wiring, activeLow: activeLow))
            current = color
        }
    }

    /// Turns the LED off and releases the lines. Idempotent.
    public func close() {
        current.withLock { current in
            guard current != nil else { return }
            // Best effort: the lines are released either way.
            try? session.setValues(ledLineLevels(for: .off, wiring: wiring, activeLow: activeLow))
            session.close()
            current = nil
        }
    }
}
