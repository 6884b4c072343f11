import BoxHardware
import ConfigFile
import DoseCore
import Logging
import Synchronization

/// The LED of `[led] class…`, on the kernel's LED class devices. A device that is missing or
/// not ready when boxd starts (its module not loaded yet, the udev rule not run), or whose files
/// went away (its trigger chosen again, the module reloaded), does not stop the box: it is
/// opened again at the next pattern (the player retries a refused one every `LEDPlayer.retryInterval`), and each new
/// reason is logged.
final class ClassLED: LEDPatternOutput {
    let config: BoxConfig
    let logger: Logger
    let root: String
    private let state = Mutex<(led: KernelLED?, error: String?)>((nil, nil))

    init(config: BoxConfig, logger: Logger, root: String = "/sys/class/leds") {
        self.config = config
        self.logger = logger
        self.root = root
        do {
            let led = try open()
            logger.notice("LED: the kernel plays its patterns (\(led.devices.map(\.name).joined(separator: ", ")))")
        } catch {
            state.withLock { $0.error = "\(error)" }
            logUnavailable("\(error)")
        }
    }

    /// The open devices, or opened now.
    private func open() throws -> KernelLED {
        if let led = state.withLock({ $0.led }) { return led }
        let root = self.root
        guard let led = try GPIOBackend.kernelLED(config, device: { try SysfsLEDClass(name: $0, root: root) }) else {
            throw LEDClassError("[led] names no LED class device")
        }
        state.withLock { $0.led = led }
        return led
    }

    func play(_ pattern: LEDPattern, once: Bool) throws {
        try writing { try $0.play(pattern, once: once) }
    }

    func write(_ color: LEDColor) throws {
        try writing { try $0.write(color) }
    }

    /// Opens the devices if need be and writes. A failure drops them (their files may be gone:
    /// a trigger chosen again makes new ones), so the next write opens them again; a new reason
    /// is logged once, and so is the first write that works after one.
    private func writing(_ body: (KernelLED) throws -> Void) throws {
        do {
            try body(try open())
        } catch {
            let reason = "\(error)"
            let changed = state.withLock { s -> Bool in
                defer { s = (nil, reason) }
                return s.error != reason
            }
            if changed { logUnavailable(reason) }
            throw error
        }
        let recovered = state.withLock { s -> Bool in
            defer { s.error = nil }
            return s.error != nil
        }
        if recovered { logger.notice("LED: the kernel's LED works now") }
    }

    private func logUnavailable(_ reason: String) {
        logger.error("LED unavailable (tried again at the next pattern, or in \(LEDPlayer.retryInterval)): \(reason)")
    }
}
