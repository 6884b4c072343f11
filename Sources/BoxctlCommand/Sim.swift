import ArgumentParser
import BoxControl
import Foundation

/// The sim family: drive a boxd that runs with simulated hardware and clock. These
/// commands are a stable interface for test scripts.
///
/// Durations may be negative (`clock-step -2h`). ArgumentParser would read `-2h` as the
/// short flags `-2` and `-h` (help), so the durations, and every other word a sim command
/// does not know, are collected with `.allUnrecognized` and checked here: anything left
/// over is a usage error (exit 2), never a silent help page. `-h`/`--help` still ask for help.
struct Sim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Drive a simulated box (boxd --hardware sim --clock sim:…).",
        subcommands: [Press.self, Double.self, Edges.self, Advance.self, ClockStep.self, LED.self, Sounds.self, Fault.self])

    struct Press: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "press", abstract: "One clean press; the sim clock moves through it until its gesture is resolved.",
            usage: "boxctl sim press [<button>] [--hold-ms <hold-ms>] [--socket <socket>] [--state-dir <state-dir>] [--json]")
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The button's config name (default: dose).", valueName: "button"))
        var words: [String] = []
        @Option(help: "How long the button is held.") var holdMs: Int = 120
        @OptionGroup var connection: Connection
        func validate() throws {
            _ = try positionals(words, ["button"], required: 0)
            guard (1...60_000).contains(holdMs) else { throw ValidationError("--hold-ms must be 1 to 60000") }
        }
        func run() throws {
            let button = try positionals(words, ["button"], required: 0).first ?? "dose"
            try connection.run(.sim(.press(button: button, holdMs: holdMs)))
        }
    }

    struct Double: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "double", abstract: "A double press.",
            usage: "boxctl sim double [<button>] [--socket <socket>] [--state-dir <state-dir>] [--json]")
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The button's config name (default: dose).", valueName: "button"))
        var words: [String] = []
        @OptionGroup var connection: Connection
        func validate() throws { _ = try positionals(words, ["button"], required: 0) }
        func run() throws {
            let button = try positionals(words, ["button"], required: 0).first ?? "dose"
            try connection.run(.sim(.double(button: button)))
        }
    }

    struct Edges: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edges", abstract: "Raw edges at millisecond offsets, e.g. \"0:down,12:up,15:down,140:up\".",
            usage: "boxctl sim edges <button> <edges> [--socket <socket>] [--state-dir <state-dir>] [--json]")
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The button's config name, then the edges.", valueName: "button edges"))
        var words: [String] = []
        @OptionGroup var connection: Connection
        func validate() throws { _ = try edges() }
        func run() throws { try connection.run(.sim(try edges())) }
        func edges() throws -> SimCommand {
            let p = try positionals(words, ["button", "edges"], required: 2)
            guard let edges = SimEdge.parse(p[1]) else { throw ValidationError(SimEdge.expected) }
            return .edges(button: p[0], edges)
        }
    }

    struct Advance: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "advance", abstract: "Move the sim clock (150m, 30s, 1h5m); every timer due on the way fires in order.",
            usage: "boxctl sim advance <duration> [--socket <socket>] [--state-dir <state-dir>] [--json]")
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("How far: 150m, 30s, 1h5m.", valueName: "duration"))
        var words: [String] = []
        @OptionGroup var connection: Connection
        func validate() throws {
            let ms = try durationMilliseconds(words, what: "duration", example: "150m, 30s or 1h5m")
            guard ms >= 0 else { throw ValidationError("the sim clock only moves forward: \(words[0]) is negative (use clock-step to step the wall clock back)") }
        }
        func run() throws {
            try connection.run(.sim(.advance(ms: try durationMilliseconds(words, what: "duration", example: "150m, 30s or 1h5m"))))
        }
    }

    struct ClockStep: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clock-step", abstract: "Step the wall clock only, as NTP does (-1h, +1d). Elapsed time does not change.",
            usage: "boxctl sim clock-step <step> [--socket <socket>] [--state-dir <state-dir>] [--json]")
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The step, with its sign: -1h, +1d, 30m.", valueName: "step"))
        var words: [String] = []
        @OptionGroup var connection: Connection
        func validate() throws { _ = try durationMilliseconds(words, what: "step", example: "-1h or +1d") }
        func run() throws {
            try connection.run(.sim(.clockStep(ms: try durationMilliseconds(words, what: "step", example: "-1h or +1d"))))
        }
    }

    struct LED: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "led", abstract: "The LED's colour and pattern now.")
        @OptionGroup var connection: Connection
        @Argument(parsing: .allUnrecognized, help: .hidden) var leftover: [String] = []
        func validate() throws { try refuseLeftover(leftover) }
        func run() throws {
            try connection.run(.sim(.led)) { r in
                guard let led = r.led else { return "?" }
                return "\(led.color) \(led.pattern)" + (led.flash.map { " (flash \($0))" } ?? "")
            }
        }
    }

    struct Sounds: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sounds", abstract: "The sounds played and sentences said so far: offset, name, level or words.")
        @Flag(help: "Clear the list after printing it.") var clear = false
        @OptionGroup var connection: Connection
        @Argument(parsing: .allUnrecognized, help: .hidden) var leftover: [String] = []
        func validate() throws { try refuseLeftover(leftover) }
        func run() throws {
            try connection.run(.sim(.sounds(clear: clear))) { r in
                (r.sounds ?? []).map { s in
                    let t = s.offsetMs / 1000
                    return String(format: "%02d:%02d:%02d.%03d  ", t / 3600, t / 60 % 60, t % 60, s.offsetMs % 1000) + s.name + (s.level.map { " \($0)" } ?? "")
                        + (s.text.map { " \"\($0)\"" } ?? "") + (s.failed == true ? " FAILED (not heard)" : "")
                }.joined(separator: "\n")
            }
        }
    }

    struct Fault: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fault", abstract: "Simulate a fault: log-readonly, audio-fail, audio-ok.",
            usage: "boxctl sim fault <name> [--socket <socket>] [--state-dir <state-dir>] [--json]")
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("log-readonly, audio-fail or audio-ok.", valueName: "name"))
        var words: [String] = []
        @OptionGroup var connection: Connection
        func validate() throws { _ = try fault() }
        func run() throws { try connection.run(.sim(.fault(try fault()))) }
        func fault() throws -> SimFault {
            let name = try positionals(words, ["name"], required: 1)[0]
            guard let fault = SimFault(rawValue: name) else {
                throw ValidationError("name must be one of \(SimFault.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return fault
        }
    }
}

/// A command's positional words, collected by an `.allUnrecognized` argument, as its
/// `names` in order (the first `required` of them must be there). No positional of a sim
/// command starts with a dash, so a dashed word is an option the command does not know.
/// The positionals cannot be plain `@Argument`s: ArgumentParser skips over a dashed word
/// while filling them, and then finds its `-h` piece and prints help.
func positionals(_ words: [String], _ names: [String], required: Int) throws -> [String] {
    let unknown = words.filter { $0.count > 1 && $0.hasPrefix("-") }
    guard unknown.isEmpty else {
        throw ValidationError("unexpected argument\(unknown.count == 1 ? "" : "s"): \(unknown.joined(separator: " "))")
    }
    guard words.count >= required else { throw ValidationError("missing <\(names[words.count])>") }
    guard words.count <= names.count else {
        throw ValidationError("unexpected argument\(words.count - names.count == 1 ? "" : "s"): \(words.dropFirst(names.count).joined(separator: " "))")
    }
    return words
}

/// The words a sim command without positionals did not understand, collected by a hidden
/// `.allUnrecognized` argument on the command itself (not in an option group: only there
/// does ArgumentParser drop a word's short-flag pieces, so `-2h` is not read as `-h`).
func refuseLeftover(_ words: [String]) throws {
    _ = try positionals(words, [], required: 0)
}

/// The one duration among `words` (collected with `.allUnrecognized`, so `-2h` arrives as
/// a word), in milliseconds; anything else is a usage error.
func durationMilliseconds(_ words: [String], what: String, example: String) throws -> Int64 {
    guard let first = words.first else { throw ValidationError("missing the \(what), e.g. \(example)") }
    guard words.count == 1 else { throw ValidationError("one \(what) only, got: \(words.joined(separator: " "))") }
    guard let ms = DurationText.parseMilliseconds(first) else { throw ValidationError("\(first) is not a \(what): \(what)s look like \(example)") }
    return ms
}
