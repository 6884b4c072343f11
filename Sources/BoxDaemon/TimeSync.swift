import CBoxSys

/// Whether the kernel considers the wall clock synchronised (adjtimex's TIME_ERROR state).
public enum TimeSync {
    public static func isSynchronized() -> Bool { box_clock_synchronized() == 1 }
}
