import BoxGPIO
import BoxHardware
import ConfigFile
import Foundation

extension Engine {
    /// What the engine is given of the box: LED, sound, the buttons' edges and their health,
    /// the voice; real or simulated alike.
    public struct Hardware: Sendable {
        public var led: LEDPlayer
        public var audio: any TonePlayer
        /// The buttons' edges: from GPIO, a real chip's or the simulated one's.
        public var edges: any EdgeSource
        /// The simulated chip, when the buttons are on it: sim and bench commands press them.
        public var simulatedGPIO: SimulatedGPIO?
        public var buttonsHealth: @Sendable () -> String?
        /// Rung when a device's fault changes on its own thread (Engine+Health).
        public var faults: DeviceFaultSignal
        /// Makes the core's sentences into sound (espeak-ng); nil: the box does not speak.
        public var speech: (any SpeechSynthesizer)?

        public init(led: LEDPlayer, audio: any TonePlayer, edges: any EdgeSource, simulatedGPIO: SimulatedGPIO? = nil,
                    buttonsHealth: @escaping @Sendable () -> String? = { nil }, faults: DeviceFaultSignal = DeviceFaultSignal(),
                    speech: (any SpeechSynthesizer)? = nil) {
            self.led = led
            self.audio = audio
            self.speech = speech
            self.edges = edges
            self.simulatedGPIO = simulatedGPIO
            self.buttonsHealth = buttonsHealth
            self.faults = faults
        }
    }
}

/// The box's buttons and LED, as `config` wires them, on a simulated chip: a simulated press
/// is read by GPIOButtons' reader thread and decoded as a kernel's edge is, and the LED's
/// colour is written to lines by GPIOLED (or, for `[led] class…`, its patterns are kept by
/// simulated LED class devices).
public struct SimulatedBoard: Sendable {
    public let gpio: SimulatedGPIO
    public let buttons: GPIOButtons
    public let led: any LEDOutput

    public init(config: BoxConfig) throws {
        let gpio = SimulatedGPIO()
        let (lines, wiring) = GPIOBackend.lines(config)
        buttons = try GPIOButtons(simulated: gpio, buttons: lines)
        led = try GPIOBackend.kernelLED(config, device: { SimulatedLEDClass(name: $0) })
            ?? wiring.map { try GPIOLED(simulated: gpio, wiring: $0, activeLow: config.ledActiveLow) } ?? GPIOBackend.NoLED()
        self.gpio = gpio
    }

    /// The engine's hardware with these buttons and this LED.
    public func hardware(audio: any TonePlayer, animate: Bool, speech: (any SpeechSynthesizer)? = nil) -> Engine.Hardware {
        Engine.Hardware(led: LEDPlayer(output: led, animate: animate), audio: audio, edges: buttons, simulatedGPIO: gpio, speech: speech)
    }
}
