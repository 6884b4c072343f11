import BoxGPIO
import BoxHardware
import ConfigFile
import DoseCore
import Foundation
import Logging

/// The libgpiod buttons and LED described by the config.
struct GPIOBackend {
    var buttons: any EdgeSource
    var led: any LEDOutput
    var chipDescription: String
    var health: @Sendable () -> String?

    /// The chip is missing: the caller may fall back to simulated hardware.
    struct NoChip: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens the chip and requests every line. A line that does not exist on the chip, or
    /// two uses of one line, is a config error that names the key.
    static func open(config: BoxConfig, logger: Logger) throws -> GPIOBackend {
        let chip: ChipInfo
        do {
            chip = try GPIOChipLocator.system.locate(config.chip)
        } catch {
            throw NoChip(description: "\(error)")
        }
        let (buttonLines, wiring) = lines(config)
        try check(config, on: chip)
        let buttons = try GPIOButtons(chip: chip, buttons: buttonLines)
        let led: any LEDOutput = if let wiring {
            try GPIOLED(chip: chip, wiring: wiring, activeLow: config.ledActiveLow)
        } else {
            NoLED()
        }
        logger.notice("GPIO: \(chip.summary), \(buttonLines.count) button(s)")
        return GPIOBackend(buttons: buttons, led: led, chipDescription: chip.summary, health: { buttons.fault })
    }

    static func lines(_ config: BoxConfig) -> (buttons: [ButtonLine], wiring: LEDWiring?) {
        let buttonLines = config.buttons.map { ButtonLine(name: $0.name, line: $0.line, activeLow: $0.activeLow) }
        let wiring: LEDWiring? = switch config.led {
        case .rgb(let r, let g, let b)?: .rgb(red: r, green: g, blue: b)
        case .single(let l)?: .single(line: l)
        case .classRGB?, .classSingle?, nil: nil // the kernel's LED, not lines: see KernelLED
        }
        return (buttonLines, wiring)
    }

    /// The LED of `[led] class…` on its LED class devices, each made by `device`; nil when the
    /// LED is on GPIO lines or absent.
    static func kernelLED(_ config: BoxConfig, device: (String) throws -> any LEDClassDevice) throws -> KernelLED? {
        switch config.led {
        case .classSingle(let name)?: KernelLED(.single(try device(name)))
        case .classRGB(let r, let g, let b)?: KernelLED(.rgb(red: try device(r), green: try device(g), blue: try device(b)))
        default: nil
        }
    }

    /// Every configured line exists on the chip and none is used twice.
    static func check(_ config: BoxConfig, on chip: ChipInfo) throws(ConfigError) {
        do {
            try validateLines(config.lineAssignments.map { LineAssignment(key: $0.key, line: $0.line) }, chip: chip)
        } catch {
            let text = "\(error)"
            let key = text.split(separator: ":").first.map(String.init) ?? "gpio"
            throw ConfigError(key, String(text.dropFirst(key.count + 1)).trimmingCharacters(in: .whitespaces))
        }
    }

    /// A box wired without an LED.
    struct NoLED: LEDOutput {
        func write(_ color: LEDColor) throws {}
    }
}

extension BoxConfig {
    /// Checks the GPIO lines against the chip when one is present. Returns a note on what
    /// could not be checked.
    public func checkHardware() throws(ConfigError) -> String {
        var led = ""
        do {
            if let kernel = try GPIOBackend.kernelLED(self, device: { try SysfsLEDClass(name: $0) }) {
                led = "; the kernel's LED is ready (\(kernel.devices.map(\.name).joined(separator: ", ")))"
            }
        } catch {
            led = "; the LED is not ready: \(error)"
        }
        guard let chip = try? GPIOChipLocator.system.locate(chip) else {
            return "GPIO lines not checked: no chip matching \"\(self.chip)\" on this machine" + led
        }
        try GPIOBackend.check(self, on: chip)
        return "GPIO lines fit \(chip.summary)" + led
    }
}
