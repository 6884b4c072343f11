import DoseCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// What boxd and boxctl both know: default paths and the kernel's clocks.

public enum BoxPaths {
    /// The night log (and boxd's own files beside it) live here unless told otherwise.
    public static let defaultStateDirectory = "/var/lib/boxd"
    /// The control socket's name in its directory ($RUNTIME_DIRECTORY under systemd).
    public static let socketName = "control.sock"
    public static let defaultSocket = "/run/boxd/" + socketName
}

/// The kernel's clocks and boot id.
public enum KernelClock {
    public static func read(_ id: clockid_t) -> Int64 {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// CLOCK_BOOTTIME in ns: never jumps within a boot, counts suspend.
    public static func bootTime() -> Int64 { read(CLOCK_BOOTTIME) }

    /// The kernel's boot id: monotonic readings compare only within one boot.
    public static let bootID: String = {
        if let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) {
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !id.isEmpty { return id }
        }
        // Unknown boot: a fresh id means elapsed time across restarts falls back to the wall clock.
        return "unknown-\(UUID().lowercaseText)"
    }()

    /// Now, on the real clocks.
    public static func now() -> Moment { Moment(wall: Date(), boot: bootID, monoNanos: bootTime()) }
}
