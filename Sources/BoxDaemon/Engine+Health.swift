import BoxHardware
import DoseCore
import Foundation
import NightLog

// The devices', the log's and the clock's health as faults of the core: each change is an
// action of its own (`.setFault`), run after an action's effects (never inside them). The
// devices report a change they find on their own threads (`DeviceFaultSignal`, an input of
// the loop); what an action's own effects found (a failed write or play) is read after them;
// the clock, which reports nothing, is looked at on the timers.
extension Engine {
    /// Raises or clears the faults of the speaker, the buttons and the log as they are now.
    func settleDevices() {
        let audio = hardware.audio.fault
        let buttons = hardware.buttonsHealth()
        settle([
            (.audioUnavailable, audio != nil, audio),
            (.gpioUnavailable, buttons != nil, buttons),
            (.logUnwritable, log == nil || logFaultDetail != nil, logFaultDetail),
        ])
    }

    /// Raises or clears `clock_unsynced`, then notices a wall-clock step.
    func settleClock() {
        settle([(.clockUnsynced, !clockSynced(), nil)])
        checkClock()
    }

    private func settle(_ wanted: [(Fault, active: Bool, detail: String?)]) {
        for (fault, active, detail) in wanted where state.faults.contains(fault) != active {
            if fault != .logUnwritable, fault != .clockUnsynced { // the log reports its own; the clock is not news
                if active { logger.error("\(fault.code): \(detail ?? "")") } else { logger.notice("\(fault.code) cleared") }
            }
            transition(.setFault(fault, active: active), source: .system)
        }
    }

    /// A device rang its fault signal.
    func devicesChanged() {
        settleDevices()
        afterTransitions()
    }

    /// Brings every fault up to date now (status asks before it answers, and so do the sound
    /// test and the simulated audio fault).
    public func refreshHealth() {
        settleDevices()
        settleClock()
        afterTransitions()
    }

    /// A log that could not be opened (or read) at start is tried again. Once it opens and
    /// tonight can be read from it, a doubt that came from not reading it ends, and what is
    /// waiting is written.
    func reopenLog() {
        guard let opened = try? NightLog.open(stateDirectory: stateDirectory),
              var persisted = try? opened.persistedNight() else { return }
        logger.notice("night log opened")
        log = opened
        if unsaved.isEmpty { logFaultDetail = nil } // else the next write clears it
        persisted.records += unsaved
        if state.doubt != nil { transition(.restoreNight(persisted), source: .system) }
        if let r = try? opened.lastRecovery(), !r.doseRecordCertain { transition(.enterDoubt(since: r.at), source: .system) }
        restoreEvening() // the guard at Dose 1 learns the evening's drinks now
        // What waited for the log (the fault events of its own outage, at least) is written
        // now, not at the next press: until it is, the log is not caught up and stays a fault.
        _ = write([])
    }
}
