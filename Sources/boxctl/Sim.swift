import ArgumentParser
import BoxControl
import Foundation

/// The sim family: drive a boxd that runs with simulated hardware and clock. These
/// commands are a stable interface for test scripts.
struct Sim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Drive a simulated box (boxd --hardware sim --clock sim:…).",
        subcommands: [Press.self, Double.self, Edges.self, Advance.self, ClockStep.self, LED.self, Sounds.self, Fault.self])

    struct Press: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "press", abstract: "One clean press; the sim clock moves through it until its gesture is resolved.")
        @Argument(help: "The button's config name.") var button: String = "dose"
        @Option(help: "How long the button is held.") var holdMs: Int = 120
        @OptionGroup var connection: Connection
        func validate() throws { guard (1...60_000).contains(holdMs) else { throw ValidationError("--hold-ms must be 1 to 60000") } }
        func run() throws { try connection.run(ControlRequest("sim-press", button: button, holdMs: holdMs)) }
    }

    struct Double: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "double", abstract: "A double press.")
        @Argument var button: String = "dose"
        @OptionGroup var connection: Connection
        func run() throws { try connection.run(ControlRequest("sim-double", button: button)) }
    }

    struct Edges: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edges", abstract: "Raw edges at millisecond offsets, e.g. \"0:down,12:up,15:down,140:up\".")
        @Argument var button: String
        @Argument var edges: String
        @OptionGroup var connection: Connection
        func run() throws { try connection.run(ControlRequest("sim-edges", button: button, edges: edges)) }
    }

    struct Advance: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "advance", abstract: "Move the sim clock (150m, 30s, 1h5m); every timer due on the way fires in order.")
        @Argument var duration: String
        @OptionGroup var connection: Connection
        func validate() throws {
            guard let ms = DurationText.parseMilliseconds(duration), ms >= 0 else { throw ValidationError("durations look like 150m, 30s or 1h5m") }
        }
        func run() throws { try connection.run(ControlRequest("sim-advance", ms: DurationText.parseMilliseconds(duration))) }
    }

    struct ClockStep: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clock-step", abstract: "Step the wall clock only, as NTP does (-1h, +1d). Elapsed time does not change.")
        @Argument var step: String
        @OptionGroup var connection: Connection
        func validate() throws {
            guard DurationText.parseMilliseconds(step) != nil else { throw ValidationError("steps look like -1h or +1d") }
        }
        func run() throws { try connection.run(ControlRequest("sim-clock-step", ms: DurationText.parseMilliseconds(step))) }
    }

    struct LED: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "led", abstract: "The LED's colour and pattern now.")
        @OptionGroup var connection: Connection
        func run() throws {
            try connection.run(ControlRequest("sim-led")) { r in
                guard let led = r.led else { return "?" }
                return "\(led.color) \(led.pattern)" + (led.flash.map { " (flash \($0))" } ?? "")
            }
        }
    }

    struct Sounds: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sounds", abstract: "The sounds played so far: offset, name, level.")
        @Flag(help: "Clear the list after printing it.") var clear = false
        @OptionGroup var connection: Connection
        func run() throws {
            try connection.run(ControlRequest("sim-sounds", clear: clear)) { r in
                (r.sounds ?? []).map { s in
                    let t = s.offsetMs / 1000
                    return String(format: "%02d:%02d:%02d.%03d  ", t / 3600, t / 60 % 60, t % 60, s.offsetMs % 1000) + s.name + (s.level.map { " \($0)" } ?? "")
                }.joined(separator: "\n")
            }
        }
    }

    struct Fault: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fault", abstract: "Simulate a fault: log-readonly, audio-fail, audio-ok.")
        @Argument var name: String
        @OptionGroup var connection: Connection
        func run() throws { try connection.run(ControlRequest("sim-fault", name: name)) }
    }
}
