import Foundation

/// One reading of the box's clocks, taken together by the shell and passed into the core.
///
/// `wall` is for display, session dates and export. Elapsed time within one boot comes
/// from the monotonic reading (CLOCK_BOOTTIME nanoseconds, which keep counting through
/// suspend), so a wall-clock step such as NTP correcting a Pi with no RTC never moves
/// the dose window.
public struct Moment: Hashable, Sendable, CustomStringConvertible {
    public var wall: Date
    /// The kernel's boot id (/proc/sys/kernel/random/boot_id); monotonic readings compare only within one boot.
    public var boot: String
    /// CLOCK_BOOTTIME in nanoseconds.
    public var monoNanos: Int64

    public init(wall: Date, boot: String, monoNanos: Int64) {
        self.wall = wall
        self.boot = boot
        self.monoNanos = monoNanos
    }

    /// Time from `earlier` to `self`. Within one boot this is monotonic time; across a
    /// reboot the wall clock is the only thing that spans the gap.
    public func elapsed(since earlier: Moment) -> Duration {
        if boot == earlier.boot {
            return .nanoseconds(monoNanos - earlier.monoNanos)
        }
        return .seconds(wall.timeIntervalSince(earlier.wall))
    }

    /// The same clocks `d` later (both move together).
    public func advanced(by d: Duration) -> Moment {
        Moment(wall: wall.addingTimeInterval(d.seconds), boot: boot, monoNanos: monoNanos + d.nanoseconds)
    }

    public var description: String {
        "\(wall.iso8601)@\(boot.prefix(8))+\(monoNanos)ns"
    }
}

extension Duration {
    /// Whole and fractional seconds as a Double (display and wall-clock arithmetic only).
    public var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }

    public var nanoseconds: Int64 {
        let c = components
        return c.seconds * 1_000_000_000 + c.attoseconds / 1_000_000_000
    }

    public static func minutes(_ m: Double) -> Duration { .milliseconds(Int64((m * 60_000).rounded())) }

    public var minutes: Double { seconds / 60 }
}

extension Date {
    /// The formats, made once (#34): made at every call, a date cost 0.78 instead of 0.29 µs to
    /// write and 1.0 instead of 0.73 µs to read. The first made in a process costs ~1.5 M
    /// instructions either way (its calendar). Values, so sharing them shares no state.
    private static let utcSeconds: Date.ISO8601FormatStyle = {
        var style = Date.ISO8601FormatStyle()
        style.timeZone = TimeZone(identifier: "UTC")!
        return style
    }()
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    /// ISO 8601 in UTC with milliseconds, the format every stored timestamp uses.
    /// Rounded to the millisecond and written digit by digit: the format style truncates a
    /// binary fraction, so a stored ".089" read back (0.08899…) would be written ".088".
    public var iso8601: String {
        let ms = (timeIntervalSince1970 * 1000).rounded()
        let seconds = (ms / 1000).rounded(.down)
        let whole = Date(timeIntervalSince1970: seconds).formatted(Self.utcSeconds) // …T21:46:03Z
        let fraction = Int(ms - seconds * 1000)
        return whole.dropLast() + "." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + String(fraction) + "Z"
    }

    public init?(iso8601 text: String) {
        if let d = try? Self.withFraction.parse(text) {
            self = d
        } else if let d = try? Self.withoutFraction.parse(text) {
            self = d
        } else {
            return nil
        }
    }
}
