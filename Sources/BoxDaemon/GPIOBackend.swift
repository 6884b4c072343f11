import BoxGPIO
import BoxHardware
import Foundation
import Logging

/// The libgpiod buttons and LED described by the config.
struct GPIOBackend {
    var buttons: any EdgeSource
    var led: any LEDOutput
    var chipDescription: String
    var health: @Sendable () -> String?

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    static func open(config: BoxConfig, logger: Logger) throws -> GPIOBackend {
        throw Unavailable(description: "GPIO backend not wired yet")
    }
}
