import ArgumentParser
import enum BoxControl.BoxPaths
import BoxDaemon
import ConfigFile
import Foundation
import Logging
import SystemdSupport

/// boxd: the bedside service. On a Raspberry Pi it reads the buttons through libgpiod
/// and plays through ALSA; with no GPIO chip it runs simulated hardware.
/// Public for the programs that run it: `boxd` and the multi-call `dosetap-box`.
public struct Boxd: AsyncParsableCommand {
    public init() {}

    /// boxd's entry (its main.swift, and dosetap-box's), from synchronous top-level code on the
    /// main thread. Everything up to the Daemon, the config's vetting included, runs on this one
    /// thread: the vetting child can then be a fork of this process (TOMLIsolation: about a
    /// millisecond, where starting the program again took some 14 ms). Then the rest runs on
    /// the main actor, whose queue dispatchMain() serves, as an asynchronous main's is.
    /// `QuietRuntime.install()` comes first: nothing may run on Swift's global executor before.
    @MainActor
    public static func start() -> Never {
        QuietRuntime.install() // boxd's jobs and sleeps never start libdispatch's pool and its monitor
        let prepared: Prepared
        do {
            var command = try parseAsRoot()
            guard let boxd = command as? Boxd else {
                try command.run() // ArgumentParser's own (help): it throws what exit(withError:) prints
                exit()
            }
            prepared = try boxd.prepare()
        } catch {
            exit(withError: error)
        }
        Task { @MainActor in
            do {
                try await prepared.run()
            } catch {
                exit(withError: error)
            }
            exit()
        }
        dispatchMain()
    }

    public static let configuration = CommandConfiguration(
        commandName: "boxd",
        abstract: "DoseTap Box: the dose-window service.",
        discussion: "Without --config, /etc/boxd/boxd.toml is used if it exists, else the embedded default (one button named dose). With no GPIO chip the hardware is simulated.")

    @Option(help: "Config file (TOML).")
    var config: String?

    @Flag(help: "Validate the config and exit.")
    var checkConfig = false

    @Option(help: "auto, gpio or sim.")
    var hardware: String = "auto"

    @Option(help: "real, sim:ISO8601-START (time moves only when told) or fast:N (real time × N).")
    var clock: String = "real"

    @Option(help: "Audio: alsa:DEVICE, wav (a WAV file in the state directory) or wav:PATH. Default: the config's device, or wav with sim hardware.")
    var audio: String?

    @Option(help: "State directory (the night log). Default: $STATE_DIRECTORY or \(BoxPaths.defaultStateDirectory).")
    var stateDir: String?

    @Option(help: "Control socket. Default: $RUNTIME_DIRECTORY/\(BoxPaths.socketName) or \(BoxPaths.defaultSocket).")
    var socket: String?

    @Flag(help: "Run the whole box in this terminal: space is the dose button, the LED is drawn here.")
    var demo = false

    @Option(help: "With --demo: how many times faster than real time a night passes.")
    var speed: Double = 60

    @Flag(help: "Log debug messages, among them every raw button edge with its timestamp (the kernel's, on GPIO).")
    var verbose = false

    /// boxd's own child (TOMLIsolation): parse the config text on stdin as if read from this
    /// path ("" for none), exit 0. A parser that dies takes this child with it, not the service.
    @Option(name: .customLong("vet-config-stdin"), help: .hidden)
    var vetConfigStdin: String?

    static let maxSpeed: Double = 100_000
    /// A simulated night starts in 2000 to 2100 (UTC). The clocks count 64-bit nanoseconds
    /// from 1970, so years before 1678 or after 2261 cannot be held at all (boxd crashed on
    /// sim:0001-01-01 and sim:9999-…); within that, a start outside this century is a typo,
    /// and the range leaves room for any run of `sim advance` after it.
    static let simStartRange = Date(timeIntervalSince1970: 946_684_800)..<Date(timeIntervalSince1970: 4_133_980_800) // 2000-01-01Z..<2101-01-01Z

    public mutating func validate() throws {
        guard ["auto", "gpio", "sim"].contains(hardware) else { throw ValidationError("--hardware must be auto, gpio or sim") }
        guard speed.isFinite, speed >= 1, speed <= Self.maxSpeed else { throw ValidationError("--speed must be from 1 to \(Int(Self.maxSpeed))") }
        _ = try parseClock()
        _ = try parseAudio()
    }

    func parseClock() throws -> DaemonOptions.ClockChoice {
        if clock == "real" { return .real }
        if clock.hasPrefix("sim:") {
            guard let start = ISO8601DateFormatter().date(from: String(clock.dropFirst(4))) else {
                throw ValidationError("--clock sim: needs an ISO 8601 start such as sim:2026-11-21T22:00:00-05:00")
            }
            guard Self.simStartRange.contains(start) else {
                throw ValidationError("--clock sim: the start must be in the years 2000 to 2100, not \(clock.dropFirst(4))")
            }
            return .sim(start: start, timeZone: Self.zone(ofISO: String(clock.dropFirst(4))))
        }
        if clock.hasPrefix("fast:") {
            // Bounded so ten years of fast time still fits the clock's 64-bit nanoseconds.
            guard let n = Double(clock.dropFirst(5)), n.isFinite, n >= 1, n <= Self.maxSpeed else {
                throw ValidationError("--clock fast:N needs N from 1 to \(Int(Self.maxSpeed))")
            }
            return .fast(speed: n)
        }
        throw ValidationError("--clock must be real, sim:ISO8601 or fast:N")
    }

    /// The fixed-offset zone an ISO 8601 time was written in ("...-05:00" -> UTC-5; "Z" -> UTC).
    static func zone(ofISO text: String) -> TimeZone? {
        if text.hasSuffix("Z") { return TimeZone(identifier: "UTC") }
        guard text.count > 6 else { return nil }
        let tail = text.suffix(6)
        guard let sign = tail.first, sign == "+" || sign == "-", let h = Int(tail.dropFirst().prefix(2)), let m = Int(tail.suffix(2)) else { return nil }
        return TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (h * 3600 + m * 60))
    }

    func parseAudio() throws -> DaemonOptions.AudioChoice {
        guard let audio else { return .config }
        if audio == "wav" { return .wav }
        if audio.hasPrefix("wav:"), audio.count > 4 { return .wavFile(String(audio.dropFirst(4))) }
        if audio.hasPrefix("alsa:"), audio.count > 5 { return .alsa(String(audio.dropFirst(5))) }
        throw ValidationError("--audio must be alsa:DEVICE, wav or wav:PATH")
    }

    public func run() async throws {
        try await prepare().run()
    }

    /// What `prepare()` leaves to the asynchronous part.
    enum Prepared {
        case done
        case demo(DaemonOptions, speed: Double)
        case daemon(Daemon)

        func run() async throws {
            switch self {
            case .done:
                return
            case .demo(let options, let speed):
                try await Demo.run(options: options, speed: speed)
            case .daemon(let daemon):
                do {
                    try await daemon.run()
                } catch {
                    throw Boxd.told(error)
                }
            }
        }
    }

    /// What --check-config says of the voice: whether espeak-ng has the language (asked by the
    /// child that vetted the config, else here), or that the box will ring without words.
    static func voiceNote(_ c: BoxConfig) -> String {
        guard c.voice.enabled else { return "the voice is off" }
        let found = c.voice.languageVouched || EspeakVoices().hasVoice(c.voice.language) == true
        return found ? "espeak-ng has the voice \"\(c.voice.language)\""
            : "espeak-ng cannot be loaded: boxd will ring without words (install espeak-ng)"
    }

    /// Says why the daemon stops, on stderr, and gives its exit code: 2 for the config, else 1.
    static func told(_ error: any Error) -> ExitCode {
        if let error = error as? ConfigError {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return ExitCode(2)
        }
        FileHandle.standardError.write(Data("boxd: \(error)\n".utf8))
        return ExitCode(1)
    }

    /// The start, on the calling thread alone: the logger, the config (checked, with
    /// --check-config, and then done) and the Daemon, which vets and loads the config and opens
    /// the log and the devices.
    func prepare() throws -> Prepared {
        if let path = vetConfigStdin { TOMLIsolation.runChild(path: path) }
        let env = ProcessInfo.processInfo.environment
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: level) }
        let logger = Logger(label: "boxd")

        var configPath = config
        if configPath == nil, FileManager.default.fileExists(atPath: "/etc/boxd/boxd.toml") { configPath = "/etc/boxd/boxd.toml" }
        if checkConfig {
            do {
                let c = try BoxConfig.load(path: configPath, isolation: .boxd, voices: EspeakVoices())
                try c.caregiverLink?.checkTLSFiles(mustRead: false)
                let note = try c.checkHardware()
                print("config ok: \(configPath ?? "embedded default") (\(c.buttons.count) button(s)); \(note); \(Self.voiceNote(c))")
                return .done
            } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                throw ExitCode(2)
            }
        }

        let stateDir = stateDir ?? env["STATE_DIRECTORY"]?.split(separator: ":").first.map(String.init) ?? BoxPaths.defaultStateDirectory
        let socketPath = socket ?? env["RUNTIME_DIRECTORY"].map { "\($0.split(separator: ":").first ?? "")/\(BoxPaths.socketName)" } ?? BoxPaths.defaultSocket
        var options = DaemonOptions(configPath: configPath, stateDirectory: URL(fileURLWithPath: stateDir), socketPath: socketPath)
        // The config's text is vetted in a child once per text and program (TOMLIsolation): a
        // restart or a reboot with the same file starts no child.
        options.configIsolation = .boxd(rememberingIn: options.stateDirectory)
        options.hardware = DaemonOptions.HardwareChoice(rawValue: hardware) ?? .auto
        options.clock = try parseClock()
        options.audio = try parseAudio()
        options.oneCPU = true
        options.releaseStartCode = true

        if demo { return .demo(options, speed: speed) }
        do {
            return .daemon(try Daemon(options: options, logger: logger))
        } catch {
            throw Self.told(error)
        }
    }
}
