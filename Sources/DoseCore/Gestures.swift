/// What a button did, as the dose core understands it (Flic-style gestures).
public enum Gesture: Sendable, Hashable, CustomStringConvertible {
    /// The press went down: acknowledge at once (LED), decide nothing yet.
    case pressed
    /// One click, committed at release where double means nothing, else after the double gap.
    case single
    /// Two clicks, the second pressed within the double gap of the first release.
    case double
    /// Still held at the hold time (1 s).
    case hold
    /// Still held at the confirm-hold time (2 s), counted from the press.
    case confirmHold
    /// Let go after a hold or confirm-hold.
    case releasedAfterHold
    /// The release edge never came within the stuck guard; the button is treated as released.
    case stuck
    /// A stuck button produced a real edge again.
    case recovered

    public var description: String {
        switch self {
        case .pressed: "pressed"
        case .single: "single"
        case .double: "double"
        case .hold: "hold"
        case .confirmHold: "confirm_hold"
        case .releasedAfterHold: "released_after_hold"
        case .stuck: "stuck"
        case .recovered: "recovered"
        }
    }
}

public struct GestureEvent: Sendable, Hashable {
    public var gesture: Gesture
    /// On the edge clock (the kernel's CLOCK_MONOTONIC for libgpiod).
    public var at: Duration
    public init(_ gesture: Gesture, at: Duration) {
        self.gesture = gesture
        self.at = at
    }
}

/// A raw edge on a button line, with the kernel's own timestamp.
public struct RawEdge: Sendable, Hashable {
    public enum Direction: String, Sendable, Hashable { case rising, falling }
    public var direction: Direction
    public var at: Duration
    public init(_ direction: Direction, at: Duration) {
        self.direction = direction
        self.at = at
    }
}

/// Turns raw, bouncy edges into gestures: a debounced-level state machine in the manner
/// of OneButton, with time injected.
///
/// - Debounce is leading-edge: the first edge of a change is taken at once (so the LED can
///   acknowledge within milliseconds), and edges in the next `debounce` are only noted;
///   when the lockout ends the line's last level decides. A "press" that was already up
///   again when its lockout ended was shorter than the debounce time: a glitch, not a press.
/// - Single presses commit at release when the caller says double means nothing now;
///   otherwise after the double gap.
/// - A press held past the stuck guard is treated as released (a lost release edge must
///   never mean holding forever).
///
/// All times are on one clock: the edges' clock. Never mix it with another clock.
public struct GestureRecognizer: Sendable, Hashable {
    public struct Timings: Sendable, Hashable {
        public var debounce: Duration
        public var doubleGap: Duration
        public var hold: Duration
        public var confirmHold: Duration
        public var stuckGuard: Duration

        public init(_ g: DoseConstants.Gestures) {
            debounce = .milliseconds(g.debounceMs)
            doubleGap = .milliseconds(g.doubleGapMs)
            hold = .milliseconds(g.holdMs)
            confirmHold = .milliseconds(g.confirmHoldMs)
            stuckGuard = .seconds(g.stuckGuardS)
        }
    }

    public let timings: Timings
    /// Buttons wired to ground with a pull-up read low when pressed.
    public let activeLow: Bool

    /// The debounced level.
    public private(set) var isPressed = false
    /// The line's last raw level (true = pressed).
    private var rawPressed = false
    private var lockoutUntil: Duration?
    private var pressStart: Duration?
    private var holdFired = false
    private var confirmFired = false
    private var isSecondPress = false
    /// The first click's release, kept while its second press is still being debounced.
    private var firstClickReleasedAt: Duration?
    /// Release time of a click waiting for a possible second press.
    private var pendingClickReleasedAt: Duration?
    /// A stuck press was let go by the guard; the real release edge is still owed.
    public private(set) var isStuck = false
    private var now: Duration = .zero

    public init(timings: Timings, activeLow: Bool = true) {
        self.timings = timings
        self.activeLow = activeLow
    }

    /// The next instant at which `advance(to:)` has something to do, if any.
    public var nextDeadline: Duration? {
        var candidates: [Duration] = []
        if let l = lockoutUntil { candidates.append(l) }
        if isPressed, let start = pressStart {
            if !holdFired { candidates.append(start + timings.hold) }
            if !confirmFired { candidates.append(start + timings.confirmHold) }
            candidates.append(start + timings.stuckGuard)
        }
        if let released = pendingClickReleasedAt { candidates.append(released + timings.doubleGap) }
        return candidates.min()
    }

    /// Lets time pass up to `t`, firing every deadline on the way, in order.
    public mutating func advance(to t: Duration, doubleEnabled: Bool = true) -> [GestureEvent] {
        var out: [GestureEvent] = []
        while let d = nextDeadline, d <= t {
            now = max(now, d)
            fireDeadline(at: d, doubleEnabled: doubleEnabled, into: &out)
        }
        now = max(now, t)
        return out
    }

    /// Feeds one raw edge. `doubleEnabled` says whether a double press means anything now;
    /// when it does not, a single press commits at release.
    public mutating func handle(_ edge: RawEdge, doubleEnabled: Bool) -> [GestureEvent] {
        var out = advance(to: edge.at, doubleEnabled: doubleEnabled)
        let at = max(edge.at, now)
        let pressedLevel = (edge.direction == .falling) == activeLow
        rawPressed = pressedLevel

        if isStuck {
            // Any real edge means the line is alive again.
            isStuck = false
            out.append(GestureEvent(.recovered, at: at))
            if !pressedLevel {
                lockoutUntil = at + timings.debounce
                return out
            }
        }
        if lockoutUntil != nil { return out } // bounce: noted, decided when the lockout ends
        if pressedLevel == isPressed {
            if pressedLevel {
                // A press while already pressed: the release edge was lost. Release, then press.
                release(at: at, doubleEnabled: doubleEnabled, into: &out)
                press(at: at, into: &out)
            }
            return out
        }
        if pressedLevel { press(at: at, into: &out) } else { release(at: at, doubleEnabled: doubleEnabled, into: &out) }
        return out
    }

    private mutating func fireDeadline(at d: Duration, doubleEnabled: Bool, into out: inout [GestureEvent]) {
        if let l = lockoutUntil, l == d {
            lockoutUntil = nil
            if rawPressed != isPressed {
                if isPressed {
                    if let start = pressStart, d - start <= timings.debounce {
                        // Up again before the lockout ended: a glitch, not a press.
                        isPressed = false
                        pressStart = nil
                        if isSecondPress { pendingClickReleasedAt = firstClickReleasedAt }
                        isSecondPress = false
                        lockoutUntil = d + timings.debounce
                    } else {
                        release(at: d, doubleEnabled: doubleEnabled, into: &out)
                    }
                } else {
                    press(at: d, into: &out)
                }
            }
            return
        }
        if let released = pendingClickReleasedAt, released + timings.doubleGap == d {
            pendingClickReleasedAt = nil
            out.append(GestureEvent(.single, at: d))
            return
        }
        guard isPressed, let start = pressStart else { return }
        if d == start + timings.stuckGuard {
            out.append(GestureEvent(.stuck, at: d))
            out.append(GestureEvent(.releasedAfterHold, at: d))
            isPressed = false
            pressStart = nil
            isStuck = true
            isSecondPress = false
        } else if !holdFired, d == start + timings.hold {
            holdFired = true
            if isSecondPress {
                // A click then a hold: the click stands alone.
                isSecondPress = false
                out.append(GestureEvent(.single, at: d))
            }
            out.append(GestureEvent(.hold, at: d))
        } else if !confirmFired, d == start + timings.confirmHold {
            confirmFired = true
            out.append(GestureEvent(.confirmHold, at: d))
        }
    }

    private mutating func press(at t: Duration, into out: inout [GestureEvent]) {
        isPressed = true
        pressStart = t
        holdFired = false
        confirmFired = false
        lockoutUntil = t + timings.debounce
        if let released = pendingClickReleasedAt, t - released < timings.doubleGap {
            isSecondPress = true
            firstClickReleasedAt = released
            pendingClickReleasedAt = nil
        } else {
            isSecondPress = false
        }
        out.append(GestureEvent(.pressed, at: t))
    }

    private mutating func release(at t: Duration, doubleEnabled: Bool, into out: inout [GestureEvent]) {
        isPressed = false
        lockoutUntil = t + timings.debounce
        defer {
            pressStart = nil
            isSecondPress = false
        }
        if holdFired {
            out.append(GestureEvent(.releasedAfterHold, at: t))
        } else if isSecondPress {
            out.append(GestureEvent(.double, at: t))
        } else if doubleEnabled {
            pendingClickReleasedAt = t
        } else {
            out.append(GestureEvent(.single, at: t))
        }
    }
}
