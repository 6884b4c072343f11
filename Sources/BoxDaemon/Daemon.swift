import BoxALSA
import BoxControl
import BoxGPIO
import BoxHardware
import BoxVoice
import CBoxSys
import ConfigFile
import DoseCore
import Foundation
import Logging
import NightLog
import ServiceLifecycle
import SystemdSupport

/// How boxd was asked to run (from its command line).
public struct DaemonOptions: Sendable {
    public enum HardwareChoice: String, Sendable { case auto, gpio, sim }
    public enum ClockChoice: Sendable, Equatable {
        case real
        /// `timeZone`: the zone the start was written in, used when no config file names one.
        case sim(start: Date, timeZone: TimeZone?)
        case fast(speed: Double)

        /// The demo's speed; 1 for the other clocks.
        var speed: Double {
            if case .fast(let speed) = self { return speed }
            return 1
        }
    }
    public enum AudioChoice: Sendable, Equatable {
        case config
        case wav
        /// The simulated speaker's WAV elsewhere than the state directory (which may be read-only).
        case wavFile(String)
        case alsa(String)
    }

    public var configPath: String?
    public var hardware: HardwareChoice = .auto
    public var clock: ClockChoice = .real
    public var audio: AudioChoice = .config
    public var stateDirectory: URL
    public var socketPath: String
    public var logLevel: Logger.Level = .info
    /// How a config file is first parsed: boxd passes `.boxd` (a child process); tests that run
    /// the daemon in their own process parse in it.
    public var configIsolation: TOMLIsolation = .inProcess
    /// Once started, just before READY=1, keep every thread on one CPU (box_keep_on_one_cpu):
    /// boxd sets it; tests that run the daemon in their own process must not pin that process.
    public var oneCPU = false
    /// Once ready, unmap the program's read-only pages (box_release_start_code): boxd sets it;
    /// tests that run the daemon in their own process leave theirs mapped.
    public var releaseStartCode = false

    public init(configPath: String?, stateDirectory: URL, socketPath: String) {
        self.configPath = configPath
        self.stateDirectory = stateDirectory
        self.socketPath = socketPath
    }
}

/// Everything boxd runs, put together: config, log, clock, hardware, engine, control
/// socket, systemd notifications.
public final class Daemon: Sendable {
    public let engine: Engine
    public let server: ControlServer
    let edges: any EdgeSource
    let notifier: SystemdNotifier
    let logger: Logger
    let options: DaemonOptions
    public let hardwareDescription: String
    /// Held for the daemon's life: one boxd per state directory.
    let lock: StateDirectoryLock
    /// Set when tonight's doses could not be established from the log (see `Action.enterDoubt`).
    let doubtSince: Date?

    /// Builds the box. Throws only for what must stop the start: a bad config or a socket that cannot be bound.
    public init(options: DaemonOptions, logger: Logger) throws {
        self.options = options
        self.logger = logger
        notifier = SystemdNotifier()
        // First, so that the note of a config vetted (TOMLIsolation) is kept from the first start.
        try? FileManager.default.createDirectory(at: options.stateDirectory, withIntermediateDirectories: true)
        lock = try StateDirectoryLock.acquire(options.stateDirectory)
        // The clock and the log need nothing of the config (but the demo's clock, its zone). On a
        // new box the log is made and migrated on a thread of its own while the config is vetted
        // in its child and espeak-ng starts (#34, the start); the thread starts once the child is
        // forked (a fork needs a process of one thread). A log that exists opens after the
        // config, as ever: a recovery it needs is then never reported by a start that a bad
        // config ends.
        let newBox = !FileManager.default.fileExists(atPath: options.stateDirectory.appendingPathComponent(NightLog.fileName).path)
        let early: (any BoxClock)? = switch options.clock {
        case .real: RealClock()
        case .sim(let start, _): SimClock(start: start, stateFile: SimClockFile(directory: options.stateDirectory).url)
        case .fast: nil
        }
        var opening: LogOpening?
        var config: BoxConfig
        do {
            config = try BoxConfig.load(path: options.configPath, isolation: options.configIsolation, voices: EspeakVoices()) {
                if newBox, let early { opening = LogOpening(stateDirectory: options.stateDirectory, now: early.now().wall) }
            }
        } catch {
            _ = opening?.result() // a bad config stops the start; the new log is never left half-made
            throw error
        }
        if options.configPath == nil, case .sim(_, let zone?) = options.clock { config.timeZone = zone }
        let clock: any BoxClock = early ?? FastClock(speed: options.clock.speed, startWall: Self.demoEvening(config.timeZone))

        // The log: a damaged file is set aside and what can be read of it salvaged into a new
        // one; an unwritable one is a fault, not a crash.
        let startedAt = clock.now().wall
        var log: NightLog?
        do {
            log = try opening.map { try $0.result().get() } ?? NightLog.open(stateDirectory: options.stateDirectory, now: startedAt)
            if let fault = log?.fault { logger.error("night log recovered: \(fault)") }
            if let fault = log?.witnessFault { logger.error("\(fault)") }
            if let s = log?.salvage {
                logger.error("salvaged \(s.salvagedRows) rows, \(s.refusedRows) refused; tonight's doses \(s.doseRecordCertain ? "are known" : "are IN DOUBT")")
            }
        } catch {
            logger.error("night log cannot be opened for writing: \(error)")
            log = nil
        }
        // Tonight is the fold of the log's latest session, with the last dose taken anywhere in
        // the log. If it cannot be read, nothing is recorded on top of an unknown night without
        // a confirmation: the box doubts tonight's record and shows the fault.
        var persisted = PersistedNight()
        var doubt: Date?
        do {
            persisted = try (log ?? NightLog.openReadOnly(stateDirectory: options.stateDirectory)).persistedNight()
        } catch {
            logger.error("the night log cannot be read; tonight's record is in doubt: \(error)")
            log = nil
            doubt = startedAt
        }
        // An uncertain recovery (now or before a restart) keeps the doubt until its night ends.
        if doubt == nil, let r = try? log?.lastRecovery(), !r.doseRecordCertain { doubt = r.at }
        doubtSince = doubt

        var settings = config.settings()
        if let saved = SettingsStore(directory: options.stateDirectory).load(), let t = saved.targetMinutes,
           settings.rules.window.validTargetsMin.contains(t) {
            settings.targetMinutes = t
        }

        // Hardware: GPIO when asked for or when a chip is found; otherwise the simulation.
        let hw = try Self.makeHardware(options: options, config: config, clock: clock, logger: logger)
        hardwareDescription = hw.description
        edges = hw.edges

        let state = BoxState.rebuilt(settings: settings, from: persisted, faults: hw.simulatedByDefault ? [.buttonsSimulated] : [])
        let systemTime = clock.isSystemTime
        let synced: @Sendable () -> Bool = { systemTime ? TimeSync.isSynchronized() : true }
        let parts = Engine.Hardware(led: hw.led, audio: hw.audio, edges: hw.edges, simulatedGPIO: hw.simulatedGPIO,
                                    buttonsHealth: hw.buttonsHealth, faults: hw.faults,
                                    speech: Self.makeVoice(config: config, logger: logger))
        engine = Engine(state: state, log: log, stateDirectory: options.stateDirectory, clock: clock, hardware: parts,
                        config: config, logger: logger, clockSynced: synced)
        let engine = self.engine
        let board = engine.caregiverLink
        let watch = WatchSource(signal: engine.feedSignal, link: { board.update($0, from: $1, now: clock.now().wall) }) { after, limit in
            await engine.feedPage(after: after, limit: limit)
        }
        server = ControlServer(path: options.socketPath, logger: logger, watch: watch) { req, uid in
            await engine.handle(req, uid: uid)
        }
    }

    /// A sped-up night starts at 22:00 local time today, so the demo reads like a night.
    static func demoEvening(_ tz: TimeZone) -> Date {
        let cal = SessionRules.calendar(tz)
        return cal.date(bySettingHour: 22, minute: 0, second: 0, of: Date()) ?? Date()
    }

    struct HardwareSet {
        var edges: any EdgeSource
        var led: LEDPlayer
        var audio: any TonePlayer
        var simulatedGPIO: SimulatedGPIO?
        var buttonsHealth: @Sendable () -> String?
        /// Rung by the devices that fail or recover on their own threads.
        var faults: DeviceFaultSignal
        var description: String
        /// `auto` found nothing to drive: a fault-level line in status, never a quiet "ok".
        var simulatedByDefault: Bool
    }

    /// Simulated buttons and LED only when asked for (`--hardware sim`, the demo, tests), or
    /// with `auto` when no config file names a chip and the machine has no GPIO chip at all
    /// (then status carries the fault `buttons_simulated`). Otherwise the configured chip,
    /// now or, with the fault `gpio_unavailable`, as soon as it can be opened.
    static func makeHardware(options: DaemonOptions, config: BoxConfig, clock: any BoxClock, logger: Logger) throws -> HardwareSet {
        let animate = !clock.isSimulated
        let faults = DeviceFaultSignal()
        let audio: any TonePlayer = makeAudio(options: options, config: config, clock: clock, logger: logger, faults: faults)
        let simulate = options.hardware == .sim
            || (options.hardware == .auto && options.configPath == nil && !GPIOChipLocator.anyChipPresent())
        if simulate {
            let asked = options.hardware == .sim
            if !asked { logger.warning("no config file and no GPIO chip: the buttons and LED are SIMULATED") }
            let board = try SimulatedBoard(config: config)
            return HardwareSet(edges: board.buttons, led: LEDPlayer(output: board.led, animate: animate), audio: audio,
                               simulatedGPIO: board.gpio, buttonsHealth: { board.buttons.fault }, faults: faults, description: "sim",
                               simulatedByDefault: !asked)
        }
        let gpio = RetryingGPIO(config: config, logger: logger, faultSignal: faults)
        let classLED: ClassLED? = switch config.led {
        case .classSingle?, .classRGB?: ClassLED(config: config, logger: logger)
        default: nil
        }
        return HardwareSet(edges: gpio, led: LEDPlayer(output: classLED ?? gpio, animate: animate), audio: audio,
                           simulatedGPIO: nil, buttonsHealth: { gpio.fault }, faults: faults, description: gpio.description,
                           simulatedByDefault: false)
    }

    /// espeak-ng in the configured language; without it the box still rings, and says why
    /// it is silent in words once, in the journal. A language the config's vetting child found
    /// needs no second asking: espeak-ng then loads with the first sentence.
    static func makeVoice(config: BoxConfig, logger: Logger) -> (any SpeechSynthesizer)? {
        guard config.voice.enabled else { return nil }
        if config.voice.languageVouched { return EspeakVoice(vouchedFor: config.voice.language) }
        do {
            return try EspeakVoice(language: config.voice.language)
        } catch {
            logger.error("the voice is off: \(error)")
            return nil
        }
    }

    static func makeAudio(options: DaemonOptions, config: BoxConfig, clock: any BoxClock, logger: Logger,
                          faults: DeviceFaultSignal) -> any TonePlayer {
        let wavURL = options.stateDirectory.appendingPathComponent("sounds.wav")
        let offset: @Sendable () -> Duration = { clock.soundLogOffset }
        // An alarm or a stop won over a sentence: the journal says which was not said.
        let dropped: @Sendable (String, String) -> Void = { text, why in logger.notice("speech dropped (\(why)): \(text)") }
        switch options.audio {
        case .wav: return WavSink(path: wavURL.path, clock: offset)
        case .wavFile(let path): return WavSink(path: path, clock: offset)
        case .alsa(let device): return ALSAPlayer(device: device, onSpeechDropped: dropped, faultSignal: faults)
        case .config:
            // Simulated hardware writes sound to a WAV file unless told otherwise.
            if options.hardware == .sim { return WavSink(path: wavURL.path, clock: offset) }
            return ALSAPlayer(device: config.audioDevice, onSpeechDropped: dropped, faultSignal: faults)
        }
    }

    /// Runs until SIGTERM/SIGINT: the in-flight transition finishes, then everything stops.
    public func run() async throws {
        try server.start()
        await engine.setPhaseObserver { [notifier] status in notifier.notify("STATUS=\(status)") }
        await engine.start(doubtSince: doubtSince)
        // Shut down in reverse order: the control server first (no command comes after), then the box.
        let group = ServiceGroup(configuration: .init(services: [BoxService(daemon: self), server],
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// After the start, whose work runs on every CPU (the config's vetting in a child, the log
    /// beside it): an edge measured 0.25 -> 0.20 ms to the LED on one CPU, its hand-over to the
    /// engine 0.12 -> 0.07 ms (#34). Not having it loses nothing but that.
    func keepOnOneCPU() {
        let cpu = box_keep_on_one_cpu()
        if cpu >= 0 {
            logger.info("threads kept on CPU \(cpu)")
        } else {
            logger.notice("threads not kept on one CPU: \(String(cString: strerror(-cpu)))")
        }
    }

    func releaseStartCode() {
        let bytes = box_release_start_code()
        if bytes >= 0 {
            logger.info("start code unmapped: \(bytes / 1024) kB")
        } else {
            logger.notice("start code left mapped: \(String(cString: strerror(Int32(-bytes))))")
        }
    }

    func stop() async {
        server.stop()
        await engine.letGoOfButtons() // first: a source that ends now is boxd stopping, not a fault
        edges.close()
        await engine.shutdown() // waits for the transition in flight: the actor runs one at a time
        notifier.notify("STOPPING=1")
        logger.notice("boxd stopped")
    }
}

/// The ServiceLifecycle service: pings the watchdog until shutdown (the engine reads its own edges).
struct BoxService: Service {
    let daemon: Daemon

    func run() async throws {
        // Before READY=1, so that whoever sees boxd ready sees it on one CPU.
        if daemon.options.oneCPU { daemon.keepOnOneCPU() }
        // READY=1 only now: the ServiceGroup traps SIGTERM before it starts its services, so a
        // stop that follows the start at once is a clean stop, never the default action.
        daemon.notifier.notify("READY=1\nSTATUS=boxd running: \(daemon.hardwareDescription), clock \(daemon.options.clock)")
        daemon.logger.notice("boxd ready: hardware \(daemon.hardwareDescription), socket \(daemon.options.socketPath), state \(daemon.options.stateDirectory.path)")
        // After READY=1: the start's code is done with; the night's faults back in as it runs.
        if daemon.options.releaseStartCode { daemon.releaseStartCode() }
        let engine = daemon.engine
        let edges = daemon.edges
        let notifier = daemon.notifier
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                if let interval = SystemdNotifier.watchdogInterval() {
                    group.addTask {
                        while !Task.isCancelled {
                            // Fed only when the engine answers: a stuck engine gets the box restarted.
                            await engine.ping()
                            notifier.notify("WATCHDOG=1")
                            try? await QuietRuntime.sleep(for: interval)
                        }
                    }
                }
                try? await gracefulShutdown()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            edges.close()
        }
        await daemon.stop()
    }
}

/// The config's `voice.language` asked of espeak-ng itself (nil when espeak-ng cannot say).
public struct EspeakVoices: VoiceCatalog {
    public init() {}
    public func hasVoice(_ language: String) -> Bool? { try? Synthesizer.shared.hasVoice(language) }
}
