import Synchronization

/// How a device that fails or recovers on its own thread (the ALSA player retrying its card,
/// the GPIO chip reopened) tells the daemon: it rings, and the daemon reads the faults again
/// in its input loop. A device whose fault changes only inside a call the daemon made (a
/// play that failed) needs no signal: the daemon reads that result after the call.
public final class DeviceFaultSignal: Sendable {
    private let listeners = Mutex<[@Sendable () -> Void]>([])

    public init() {}

    /// `listener` runs, on the device's thread, at every change from now on; it must not block.
    public func connect(_ listener: @escaping @Sendable () -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// The device's fault changed (raised, cleared or reworded).
    public func ring() {
        for listener in listeners.withLock({ $0 }) { listener() }
    }
}
