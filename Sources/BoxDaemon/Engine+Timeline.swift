import DoseCore
import Foundation
import NightLog

/// One timeline (see `NightLog.retime`): the engine notices when the running boot's wall
/// clock offset changes (a step, or the clock becoming synchronised) and has the log
/// re-derive that boot's wall times; the night in memory is folded again from them.
extension Engine {
    /// Offsets closer than this are the same clock (NTP slews, rounding).
    static let clockStepTolerance: Int64 = 2_000_000_000

    func checkClock() {
        guard let log, unsaved.isEmpty else { return } // the night in memory must match the log first
        let now = clock.now()
        let offset = NightLog.ClockOffset(offsetNanos: Int64((now.wall.timeIntervalSince1970 * 1e9).rounded()) - now.monoNanos,
                                          synced: clockSynced())
        if knownClock == nil { knownClock = (try? log.clockOffset(boot: now.boot)) ?? nil }
        if let known = knownClock, known.synced == offset.synced,
           abs(known.offsetNanos - offset.offsetNanos) < Self.clockStepTolerance { return }
        let settings = state.settings
        do {
            let changed = try log.retime(boot: now.boot, monoNanos: now.monoNanos, offset: offset) { start in
                SessionRules.sessionKey(for: start, timeZone: settings.timeZone, rolloverHour: settings.rules.session.rolloverHour)
            }
            if knownClock != nil {
                logger.notice("wall clock \(offset.synced ? "synchronised" : "not synchronised"), offset \(Double(offset.offsetNanos) / 1e9) s: \(changed) stored time(s) re-derived")
            }
            knownClock = offset
            if changed > 0 {
                state.reloadNight(try log.persistedNight())
                restoreEvening() // the drinks' re-derived times, for the guard's look-back
            }
        } catch {
            logger.error("could not re-derive wall times after a clock change: \(error)")
        }
    }
}
