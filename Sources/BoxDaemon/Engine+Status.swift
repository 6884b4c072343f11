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
        let buttons = f.contains(.gpioUnavailable) ? "FAULT (\(hardware.buttonsHealth() ?? "unavailable"))"
            : f.contains(.buttonsSimulated) ? "SIMULATED" : stuck ? "stuck" : "ok"
        return StatusReport.Health(
            buttons: buttons,
            audio: f.contains(.audioUnavailable) ? "FAULT (\(hardware.audio.fault ?? "unavailable"))" : "ok",
            log: f.contains(.logUnwritable) ? "FAULT (\(logFaultDetail ?? "not writable"))" : f.contains(.logRecovered) ? "recovered" : "ok",
            clock: f.contains(.clockUnsynced) ? "not synced" : "synced")
    }

    public func status() -> StatusReport {
        refreshHealth()
        return StatusReport(state: state, now: clock.now(), source: "boxd", health: health(), stateDir: stateDirectory.path)
    }

    /// Returns when the engine is free to run: the watchdog's proof of life.
    public func ping() {}

    public func shutdown() {
        coreTimer?.cancel()
        edgeTimer?.cancel()
        hardware.audio.stop()
        hardware.led.stop()
        log?.close()
    }
}

/// Settings changed at run time (boxctl target), kept in the state directory so they
/// survive restarts. They override the config file.
struct SettingsStore {
    let directory: URL
    var url: URL { directory.appendingPathComponent("settings.json") }

    /// `timeZone` is written at start so boxctl can show local times while boxd is down.
    struct Saved: Codable {
        var targetMinutes: Int?
        var timeZone: String?
    }

    func load() -> Saved? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(Saved.self, from: data)
    }

    func save(targetMinutes: Int) throws {
        var s = load() ?? Saved()
        s.targetMinutes = targetMinutes
        try JSONEncoder().encode(s).write(to: url, options: .atomic)
    }

    func save(timeZone: TimeZone) throws {
        var s = load() ?? Saved()
        guard s.timeZone != timeZone.identifier else { return }
        s.timeZone = timeZone.identifier
        try JSONEncoder().encode(s).write(to: url, options: .atomic)
    }
}
