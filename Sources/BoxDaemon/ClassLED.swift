import BoxHardware
import ConfigFile
import DoseCore
import Logging
import Synchronization

/// The LED of `[led] class…`, on the kernel's LED class devices. A device that is missing or
/// not ready when boxd starts (its module not loaded yet, the udev rule not run) does not stop
/// the box: it is opened again at each pattern until it works, and each new reason is logged.
final class ClassLED: LEDPatternOutput {
    let config: BoxConfig
    let logger: Logger
    let root: String
    private let state = Mutex<(led: KernelLED?, error: String?)>((nil, nil))

    init(config: BoxConfig, logger: Logger, root: String = "/sys/class/leds") {
        self.config = config
        self.logger = logger
        self.root = root
        if let led = try? open() {
            logger.notice("LED: the kernel plays its patterns (\(led.devices.map(\.name).joined(separator: ", ")))")
        }
    }

    private func open() throws -> KernelLED {
        if let led = state.withLock({ $0.led }) { return led }
        let root = self.root
        do {
            guard let led = try GPIOBackend.kernelLED(config, device: { try SysfsLEDClass(name: $0, root: root) }) else {
                throw LEDClassError("[led] names no LED class device")
            }
            let recovered = state.withLock { s -> Bool in
                defer { s = (led, nil) }
                return s.error != nil
            }
            if recovered { logger.notice("LED: the kernel's LED works now") }
            return led
        } catch {
            let reason = "\(error)"
            let changed = state.withLock { s -> Bool in
                defer { s.error = reason }
                return s.error != reason
            }
            if changed { logger.error("LED unavailable (tried again at each change of pattern): \(reason)") }
            throw error
        }
    }

    func play(_ pattern: LEDPattern, once: Bool) throws {
        try open().play(pattern, once: once)
    }

    func write(_ color: LEDColor) throws {
        try open().write(color)
    }
}
