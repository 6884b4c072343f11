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
    /// Still held at the skip-hold time (3 s), counted from the press.
    case skipHold
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
        case .skipHold: "skip_hold"
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
    public enum Direction: String, Sendable, Hashable {
        case rising, falling

        /// The edge a line makes when the button goes down (`pressed`) or up: a button to
        /// ground (active low) falls when pressed. The one place this wiring rule is written.
        public init(pressed: Bool, activeLow: Bool) {
            self = pressed == activeLow ? .falling : .rising
        }

        /// Whether the line's level after this edge is the pressed one.
        public func isPressed(activeLow: Bool) -> Bool { (self == .falling) == activeLow }
    }
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
        public var skipHold: Duration
        public var stuckGuard: Duration

        public init(_ g: DoseConstants.Gestures) {
            debounce = .milliseconds(g.debounceMs)
            doubleGap = .milliseconds(g.doubleGapMs)
            hold = .milliseconds(g.holdMs)
            confirmHold = .milliseconds(g.confirmHoldMs)
            skipHold = .milliseconds(g.skipHoldMs)
            stuckGuard = .seconds(g.stuckGuardS)
        }
    }

    public let timings: Timings
    /// Buttons wired to ground with a pull-up read low when pressed.
    public let activeLow: Bool

    /// A debounced press in progress.
    struct Press: Sendable, Hashable {
        var start: Duration
        var holdFired = false
        var confirmFired = false
        var skipFired = false
        /// Set when this is the second press of a double: the first click's release.
        var firstClickReleasedAt: Duration?
    }

    /// Where the button stands, debounced. The debounce lockout (`lockoutUntil`) runs beside
    /// it: while it runs, edges are only noted and the line's last level decides at its end.
    enum State: Sendable, Hashable {
        /// Up, nothing pending.
        case idle
        /// Up after a click; a press before `releasedAt + doubleGap` makes it a double.
        case awaitingSecond(releasedAt: Duration)
        /// Down since `press.start`.
        case down(Press)
        /// Let go by the stuck guard; the real release edge is still owed.
        case stuck
    }

    private(set) var state: State = .idle
    /// The line's last raw level (true = pressed).
    private var rawPressed = false
    private var lockoutUntil: Duration?
    private var now: Duration = .zero

    /// The debounced level.
    public var isPressed: Bool {
        if case .down = state { return true }
        return false
    }

    /// A stuck press was let go by the guard; the real release edge is still owed.
    public var isStuck: Bool { state == .stuck }

    public init(timings: Timings, activeLow: Bool = true) {
        self.timings = timings
        self.activeLow = activeLow
    }

    /// The next instant at which `advance(to:)` has something to do, if any.
    public var nextDeadline: Duration? {
        var candidates: [Duration] = []
        if let l = lockoutUntil { candidates.append(l) }
        switch state {
        case .down(let p):
            if !p.holdFired { candidates.append(p.start + timings.hold) }
            if !p.confirmFired { candidates.append(p.start + timings.confirmHold) }
            if !p.skipFired { candidates.append(p.start + timings.skipHold) }
            candidates.append(p.start + timings.stuckGuard)
        case .awaitingSecond(let released):
            candidates.append(released + timings.doubleGap)
        case .idle, .stuck:
            break
        }
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
        let pressedLevel = edge.direction.isPressed(activeLow: activeLow)
        rawPressed = pressedLevel

        if state == .stuck {
            // Any real edge means the line is alive again.
            state = .idle
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

    /// One deadline, in this order: the end of a lockout, the end of the double gap, then
    /// (while down) the stuck guard, the hold, the confirm hold, the skip hold.
    private mutating func fireDeadline(at d: Duration, doubleEnabled: Bool, into out: inout [GestureEvent]) {
        if let l = lockoutUntil, l == d {
            lockoutUntil = nil
            settle(at: d, doubleEnabled: doubleEnabled, into: &out)
            return
        }
        switch state {
        case .awaitingSecond(let released) where released + timings.doubleGap == d:
            state = .idle
            out.append(GestureEvent(.single, at: d))
        case .down(var p):
            if d == p.start + timings.stuckGuard {
                out.append(GestureEvent(.stuck, at: d))
                out.append(GestureEvent(.releasedAfterHold, at: d))
                state = .stuck
            } else if !p.holdFired, d == p.start + timings.hold {
                p.holdFired = true
                if p.firstClickReleasedAt != nil {
                    // A click then a hold: the click stands alone.
                    p.firstClickReleasedAt = nil
                    out.append(GestureEvent(.single, at: d))
                }
                state = .down(p)
                out.append(GestureEvent(.hold, at: d))
            } else if !p.confirmFired, d == p.start + timings.confirmHold {
                p.confirmFired = true
                state = .down(p)
                out.append(GestureEvent(.confirmHold, at: d))
            } else if !p.skipFired, d == p.start + timings.skipHold {
                p.skipFired = true
                state = .down(p)
                out.append(GestureEvent(.skipHold, at: d))
            }
        default:
            break
        }
    }

    /// The lockout ended: the line's last level decides.
    private mutating func settle(at d: Duration, doubleEnabled: Bool, into out: inout [GestureEvent]) {
        guard rawPressed != isPressed else { return }
        guard case .down(let p) = state else {
            press(at: d, into: &out)
            return
        }
        if d - p.start <= timings.debounce {
            // Up again before the lockout ended: a glitch, not a press. A glitch in place of a
            // second press leaves the first click waiting, as before it.
            state = p.firstClickReleasedAt.map { .awaitingSecond(releasedAt: $0) } ?? .idle
            lockoutUntil = d + timings.debounce
        } else {
            release(at: d, doubleEnabled: doubleEnabled, into: &out)
        }
    }

    private mutating func press(at t: Duration, into out: inout [GestureEvent]) {
        var first: Duration?
        if case .awaitingSecond(let released) = state, t - released < timings.doubleGap { first = released }
        state = .down(Press(start: t, firstClickReleasedAt: first))
        lockoutUntil = t + timings.debounce
        out.append(GestureEvent(.pressed, at: t))
    }

    private mutating func release(at t: Duration, doubleEnabled: Bool, into out: inout [GestureEvent]) {
        lockoutUntil = t + timings.debounce
        guard case .down(let p) = state else { return }
        if p.holdFired {
            state = .idle
            out.append(GestureEvent(.releasedAfterHold, at: t))
        } else if p.firstClickReleasedAt != nil {
            state = .idle
            out.append(GestureEvent(.double, at: t))
        } else if doubleEnabled {
            state = .awaitingSecond(releasedAt: t)
        } else {
            state = .idle
            out.append(GestureEvent(.single, at: t))
        }
    }
}
