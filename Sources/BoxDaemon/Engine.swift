import BoxALSA
import BoxControl
import BoxHardware
import DoseCore
import Foundation
import Logging
import NightLog

/// The one event flow of the box: edges -> gesture recogniser -> dose core -> effects.
/// Effects run in order: the night log first (the commit returns), then LED, tone and
/// timers. An actor, so one transition finishes before the next begins.
public actor Engine {
    public struct Hardware: Sendable {
        public var led: LEDPlayer
        public var audio: any TonePlayer
        public var buttonsHealth: @Sendable () -> String?
        /// Buttons are simulated: edges may be injected over the control socket.
        public var simulatedButtons: Bool
        /// The edge source's `edgesYielded` (see `Engine.edgeBacklog`).
        public var edgesYielded: @Sendable () -> Int?
        public init(led: LEDPlayer, audio: any TonePlayer, buttonsHealth: @escaping @Sendable () -> String? = { nil },
                    simulatedButtons: Bool = true, edgesYielded: @escaping @Sendable () -> Int? = { nil }) {
            self.led = led
            self.audio = audio
            self.buttonsHealth = buttonsHealth
            self.simulatedButtons = simulatedButtons
            self.edgesYielded = edgesYielded
        }
    }

    public internal(set) var state: BoxState
    var log: NightLog?
    let stateDirectory: URL
    public let clock: any BoxClock
    let hardware: Hardware
    let config: BoxConfig
    let volume: Double
    let logger: Logger
    var recognizers: [String: GestureRecognizer]
    var coreTimer: Task<Void, Never>?
    var edgeTimer: Task<Void, Never>?
    var onPhaseChange: (@Sendable (String) -> Void)?
    var observer: (@Sendable (Moment, String) -> Void)?
    /// The moment of the transition whose effects are being performed (observer timestamps).
    var transitionNow: Moment?
    var lastPhase: Phase?
    var logFaultDetail: String?
    /// Records of time passing (a session's fallback close) that could not be written: the
    /// night goes on in memory, and they are written, in order, ahead of the next write.
    var unsaved: [LogRecord] = []
    /// Edges handled from the source's stream, and since when (edge clock) edges it has
    /// yielded have waited for the pump (see `fireGestureDeadlines`).
    var edgesFromSource = 0
    var edgeBacklogSince: Duration?
    static let edgeBacklogLimit: Duration = .milliseconds(500)
    /// Set while faults are being refreshed, so a fault transition never nests another.
    var refreshingHealth = false
    /// The running boot's wall-clock offset as last recorded in the log (see Engine+Timeline).
    var knownClock: NightLog.ClockOffset?
    var clockSynced: @Sendable () -> Bool

    /// What was played, with simulated-clock offsets (for `boxctl sim sounds` and tests).
    public internal(set) var soundLog: [SoundReport] = []
    /// For the benchmark: press edge -> LED acknowledgement written, and release edge ->
    /// single press committed, both on the edge clock.
    var pressLatencies: [Duration] = []
    var commitDelays: [Duration] = []
    var lastReleaseEdge: [String: Duration] = [:]

    public init(state: BoxState, log: NightLog?, stateDirectory: URL, clock: any BoxClock, hardware: Hardware, config: BoxConfig,
                logger: Logger, clockSynced: @escaping @Sendable () -> Bool = { true }) {
        self.state = state
        self.log = log
        self.stateDirectory = stateDirectory
        self.clock = clock
        self.hardware = hardware
        self.config = config
        volume = config.volume
        self.logger = logger
        self.clockSynced = clockSynced
        let timings = GestureRecognizer.Timings(state.settings.rules.gestures)
        recognizers = Dictionary(uniqueKeysWithValues: config.buttons.map {
            ($0.name, GestureRecognizer(timings: timings, activeLow: $0.activeLow))
        })
    }

    public func setPhaseObserver(_ observer: @escaping @Sendable (String) -> Void) { onPhaseChange = observer }

    /// Sees every LED change, sound and phase change (the demo's transcript).
    public func setObserver(_ observer: @escaping @Sendable (Moment, String) -> Void) { self.observer = observer }

    /// The first transition after start: shows the LED and every fault the hardware has
    /// now (not at the first event), rings what fell due while down.
    public func start(doubtSince: Date? = nil) {
        if log?.fault != nil { setFault(.logRecovered, active: true) }
        if log == nil { setFault(.logUnwritable, active: true) }
        _ = apply(.tick, source: .system)
        if let doubtSince { _ = apply(.enterDoubt(since: doubtSince), source: .system) }
    }

    public func tick() {
        if log == nil { reopenLog() }
        if hardware.audio.fault != nil { hardware.audio.retryIfBroken() }
        fireGestureDeadlines()
        _ = apply(.tick, source: .system)
        refreshHealth()
    }

    /// Applies one action: persist first, then everything else. Nothing is acknowledged
    /// unless the write returned. A failed write never recurses: the fault is set once,
    /// the error tone plays for the person who acted, and time-passing records stay in
    /// memory (the night goes on, alarms ring) until a later write takes them.
    public func apply(_ action: Action, source: Source) -> ApplyResult {
        let now = clock.now()
        let t = DoseReducer.reduce(state, action, Context(now: now, source: source, ids: freshIDs()))
        let written = write(t.records)
        if case .failed(let failure) = written, source != .system {
            setFault(.logUnwritable, active: true)
            play(.error)
            showLED(now)
            return .failed("Not recorded: \(failure)")
        }
        // A setting is saved before the reply says so.
        for case .saveTarget(let m) in t.effects {
            if let failure = saveTarget(m) { return .failed("Not saved: \(failure). The target stays \(state.settings.targetMinutes) minutes.") }
        }
        if case .failed = written { unsaved += t.records }
        state = t.state
        transitionNow = now
        perform(t.effects)
        switch written {
        case .failed: setFault(.logUnwritable, active: true)
        case .written: setFault(.logUnwritable, active: false)
        case .nothing: break
        }
        refreshHealth()
        showLED(now)
        noticePhase(now)
        // A sped-up demo clock slows to real time while a confirmation waits for a hand.
        (clock as? FastClock)?.setRealTime(state.pending != nil)
        reschedule()
        return .done(t.outcome)
    }

    enum WriteResult {
        case nothing, written
        case failed(String)
    }

    /// Writes `unsaved` and then `records` in one transaction.
    func write(_ records: [LogRecord]) -> WriteResult {
        let all = unsaved + records
        guard !all.isEmpty else { return .nothing }
        do {
            guard let log else { throw NightLogError.readOnly(path: stateDirectory.path, detail: "the night log could not be opened") }
            try log.append(all)
            unsaved = []
            if logFaultDetail != nil {
                logFaultDetail = nil
                logger.notice("night log writable again")
            }
            return .written
        } catch {
            // Reported once per distinct failure, not once per attempt.
            if logFaultDetail != "\(error)" { logger.error("night log write failed, nothing recorded: \(error)") }
            logFaultDetail = "\(error)"
            return .failed("\(error)")
        }
    }

    /// Raises or clears a fault without nesting a transition: whatever time-passing records
    /// the fault transition carries ride with the next write.
    func setFault(_ fault: Fault, active: Bool) {
        guard state.faults.contains(fault) != active else { return }
        let now = clock.now()
        let t = DoseReducer.reduce(state, .setFault(fault, active: active), Context(now: now, source: .system, ids: freshIDs()))
        unsaved += t.records
        state = t.state
        transitionNow = now
        perform(t.effects)
        showLED(now)
    }

    /// A log that could not be opened (or read) at start is tried again. Once it opens and
    /// tonight can be read from it, a doubt that came from not reading it ends, and what is
    /// waiting is written.
    func reopenLog() {
        guard let opened = try? NightLog.open(stateDirectory: stateDirectory),
              let records = try? Daemon.tonightsRecords(opened) else { return }
        logger.notice("night log opened")
        log = opened
        if state.doubt != nil { _ = apply(.restoreNight(records + unsaved), source: .system) }
        if let r = try? opened.lastRecovery(), !r.doseRecordCertain { _ = apply(.enterDoubt(since: r.at), source: .system) }
        if unsaved.isEmpty { setFault(.logUnwritable, active: false) } // else the next write clears it
    }

    func freshIDs() -> [String] { (0..<3).map { _ in UUID().uuidString.lowercased() } }

    /// The LED is derived from the state after every transition; the player ignores a
    /// pattern it already shows.
    func showLED(_ now: Moment) {
        let p = state.ledPattern(at: now)
        guard hardware.led.base != p else { return }
        hardware.led.setBase(p)
        observer?(now, p == .off ? "LED off" : "LED \(p.color.rawValue) \(p.name)")
    }

    public enum ApplyResult: Sendable {
        case done(Outcome)
        case failed(String)
    }

    func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .persist: break // handled before
            case .led: break // derived from the state after the transition (showLED)
            case .flash(let p, let d):
                hardware.led.flash(p, duration: d)
            case .play(let s): play(s)
            case .stopSound: hardware.audio.stop()
            case .schedule(let plan): logger.debug("alarm plan: \(plan.steps.map(\.description).joined(separator: ", "))")
            case .cancelAlarms: logger.info("no alarms remain tonight")
            case .saveTarget: break // saved before the state changed
            }
        }
    }

    func play(_ s: Sound) {
        let repeatFor: Duration? = s.level == nil ? nil : state.settings.ringTime
        hardware.audio.play(s, volume: volume, repeatFor: repeatFor)
        soundLog.append(SoundReport(offsetMs: Int64(simOffset.seconds * 1000), name: s.name, level: s.level?.description,
                                    failed: hardware.audio.fault != nil))
        logger.info("sound \(s)")
        observer?(transitionNow ?? clock.now(), "sound \(s)")
    }

    var simOffset: Duration { (clock as? SimClock)?.offset ?? .nanoseconds(clock.now().monoNanos) }

    /// Raises or clears faults the hardware reports (after every transition and tick).
    func refreshHealth() {
        guard !refreshingHealth else { return }
        refreshingHealth = true
        defer { refreshingHealth = false }
        let audioBroken = hardware.audio.fault != nil
        if audioBroken != state.faults.contains(.audioUnavailable) {
            if audioBroken { logger.error("audio fault: \(hardware.audio.fault ?? "")") } else { logger.notice("audio works again") }
            setFault(.audioUnavailable, active: audioBroken)
        }
        let buttonsBroken = hardware.buttonsHealth() != nil
        if buttonsBroken != state.faults.contains(.gpioUnavailable) {
            if buttonsBroken { logger.error("buttons fault: \(hardware.buttonsHealth() ?? "")") } else { logger.notice("buttons work again") }
            setFault(.gpioUnavailable, active: buttonsBroken)
        }
        let synced = clockSynced()
        if synced == state.faults.contains(.clockUnsynced) {
            setFault(.clockUnsynced, active: !synced)
        }
        checkClock()
    }

    func noticePhase(_ now: Moment) {
        let phase = state.phase(at: now)
        guard phase != lastPhase else { return }
        lastPhase = phase
        logger.notice("phase \(phase.rawValue)")
        onPhaseChange?("Phase: \(phase.rawValue)")
        observer?(now, "phase \(phase.rawValue)")
    }
}
