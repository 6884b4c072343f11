import BoxControl
import BoxHardware
import DoseCore
import Foundation
import NightLog

// What the engine reports and keeps: status, health, the saved target.
extension Engine {
    // MARK: - Settings and status

    /// Saves the target; returns why it could not be saved, or nil.
    func saveTarget(_ minutes: Int) -> String? {
        do {
            try SettingsStore(directory: stateDirectory).save(targetMinutes: minutes)
            return nil
        } catch {
            logger.error("could not save the target setting: \(error)")
            return (error as NSError).localizedDescription
        }
    }

    /// The health line, derived from the same fault set as the fault list (one source),
    /// with the devices' own words for the detail.
    public func health() -> StatusReport.Health {
        let f = state.faults
        let stuck = f.contains { if case .buttonStuck = $0 { true } else { false } }
        let buttons: DeviceHealth = f.contains(.gpioUnavailable) ? .fault(hardware.buttonsHealth() ?? "unavailable")
            : f.contains(.buttonsSimulated) ? .simulated : stuck ? .stuck : .ok
        return StatusReport.Health(
            buttons: buttons,
            audio: f.contains(.audioUnavailable) ? .fault(hardware.audio.fault ?? "unavailable") : .ok,
            log: f.contains(.logUnwritable) ? .fault(logFaultDetail ?? "not writable")
                : f.contains(.logLostRecords) ? .fault(log?.witnessFault?.description ?? "records were lost")
                : f.contains(.logRecovered) ? .recovered : .ok,
            clock: f.contains(.clockUnsynced) ? .notSynced : .synced)
    }

    public func status() -> StatusReport {
        refreshHealth()
        var report = StatusReport(state: state, now: clock.now(), source: "boxd", health: health(), stateDir: stateDirectory.path)
        report.caregiverLink = caregiverLink.status { acked in try? log?.feedCount(after: acked) }
        if let link = report.caregiverLink, let fault = CaregiverLinkBoard.fault(link) { report.faults.append(fault) }
        return report
    }

    /// Returns when the engine is free to run: the watchdog's proof of life.
    public func ping() {}

    public func shutdown() {
        endInputs()
        coreTimer?.cancel()
        edgeTimer?.cancel()
        hardware.audio.stop()
        hardware.led.stop()
        log?.close()
    }
}
