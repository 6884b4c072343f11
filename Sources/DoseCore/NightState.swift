import Foundation

// The parts of BoxState that a night in progress carries (a doubt, a question pending, an
// alarm ringing, how far the plan has rung).

/// Tonight's doses could not be established from the log. Ends at `until` (the next
/// prep-time rollover) or when a night closes, whichever comes first.
public struct Doubt: Sendable, Hashable {
    public var since: Date
    public var until: Date
}

/// A press answered as a repeat of the dose recorded at `doseID`; a hold within the undo
/// window then cancels the repeat instead of undoing the dose.
public struct AbsorbedRepeat: Sendable, Hashable {
    public var doseID: String
    public var at: Moment
}

public struct PendingConfirmation: Sendable, Hashable {
    public var kind: ConfirmKind
    public var since: Moment
    public var button: String
    /// Asked by a confirm hold that answered another question and is still down: its release
    /// must not cancel this one.
    public var askedByHold = false

    public init(kind: ConfirmKind, since: Moment, button: String, askedByHold: Bool = false) {
        self.kind = kind
        self.since = since
        self.button = button
        self.askedByHold = askedByHold
    }
}

/// A skip by the long hold, waiting for its reason (the voice asked: one press drowsy, two
/// side effects; none within the wait: other). Nothing is recorded until it is answered.
public struct SkipQuestion: Sendable, Hashable {
    public var since: Moment
    public var button: String
}

public struct Ringing: Sendable, Hashable {
    public var step: AlarmStep
    public var since: Moment
}

/// Which plan steps have been rung: those at or before `through`, for this Dose 1.
public struct AlarmCursor: Sendable, Hashable {
    public var dose1ID: String
    public var through: Duration
}
