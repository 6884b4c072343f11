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
        public init(led: LEDPlayer, audio: any TonePlayer, buttonsHealth: @escaping @Sendable () -> String? = { nil },
                    simulatedButtons: Bool = true) {
            self.led = led
            self.audio = audio
            self.buttonsHealth = buttonsHealth
            self.simulatedButtons = simulatedButtons
        }
    }

    public private(set) var state: BoxState
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
    var clockSynced: @Sendable () -> Bool

    /// What was played and shown, with simulated-clock offsets (for `boxctl sim sounds` and tests).
    public private(set) var soundLog: [SoundReport] = []
    public private(set) var ledLog: [(offset: Duration, color: LEDColor, pattern: String)] = []
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

    /// The first transition after start: shows the LED, rings what fell due while down.
    public func start() {
        if log?.fault != nil { _ = apply(.setFault(.logRecovered, active: true), source: .system) }
        if log == nil { _ = apply(.setFault(.logUnwritable, active: true), source: .system) }
        _ = apply(.tick, source: .system)
    }

    // MARK: - Inputs

    public func handle(_ e: ButtonEdge) {
        guard var r = recognizers[e.button] else {
            logger.warning("edge from unknown button \(e.button)")
            return
        }
        let events = r.handle(e.edge, doubleEnabled: state.doubleIsMeaningful(button: e.button, at: clock.now()))
        recognizers[e.button] = r
        if !r.isPressed { lastReleaseEdge[e.button] = e.edge.at }
        deliver(events, button: e.button, edgeAt: e.edge.at)
        reschedule()
    }

    /// Fires the recognisers' deadlines that have passed on the edge clock.
    func fireGestureDeadlines() {
        let now = clock.edgeNow()
        for name in recognizers.keys.sorted() {
            guard var r = recognizers[name], let d = r.nextDeadline, d <= now else { continue }
            let events = r.advance(to: now, doubleEnabled: state.doubleIsMeaningful(button: name, at: clock.now()))
            recognizers[name] = r
            deliver(events, button: name, edgeAt: nil)
        }
    }

    func deliver(_ events: [GestureEvent], button: String, edgeAt: Duration?) {
        for ev in events {
            _ = apply(.gesture(ev.gesture, button: button), source: .button(button))
            // The ack flash is written synchronously inside apply, so this is after the LED write.
            if ev.gesture == .pressed, let edgeAt { pressLatencies.append(clock.edgeNow() - edgeAt) }
            if ev.gesture == .single, let released = lastReleaseEdge[button] { commitDelays.append(clock.edgeNow() - released) }
        }
    }

    public func tick() {
        fireGestureDeadlines()
        _ = apply(.tick, source: .system)
        refreshHealth()
    }

    /// Applies one action: persist first, then everything else. Nothing is acknowledged
    /// unless the write returned.
    public func apply(_ action: Action, source: Source) -> ApplyResult {
        let now = clock.now()
        let ids = (0..<3).map { _ in UUID().uuidString.lowercased() }
        let t = DoseReducer.reduce(state, action, Context(now: now, source: source, ids: ids))
        var effects = t.effects[...]
        if case .persist(let records)? = effects.first {
            effects = effects.dropFirst()
            do {
                guard let log else { throw NightLogError.readOnly(path: stateDirectory.path, detail: "the night log could not be opened") }
                try log.append(records)
            } catch {
                logger.error("night log write failed, nothing recorded: \(error)")
                logFaultDetail = "\(error)"
                if !state.faults.contains(.logUnwritable) { _ = apply(.setFault(.logUnwritable, active: true), source: .system) }
                play(.error)
                return .failed("Not recorded: \(error)")
            }
        }
        state = t.state
        transitionNow = now
        perform(effects)
        if !t.records.isEmpty, state.faults.contains(.logUnwritable) {
            logFaultDetail = nil
            _ = apply(.setFault(.logUnwritable, active: false), source: .system)
        }
        noticePhase(now)
        reschedule()
        return .done(t.outcome)
    }

    public enum ApplyResult: Sendable {
        case done(Outcome)
        case failed(String)
    }

    func perform(_ effects: ArraySlice<Effect>) {
        for effect in effects {
            switch effect {
            case .persist: break // handled before
            case .led(let p):
                hardware.led.setBase(p)
                ledLog.append((simOffset, p.color, p.name))
                observer?(transitionNow ?? clock.now(), p == .off ? "LED off" : "LED \(p.color.rawValue) \(p.name)")
            case .flash(let p, let d):
                hardware.led.flash(p, duration: d)
                ledLog.append((simOffset, p.color, "flash:" + p.name))
            case .play(let s): play(s)
            case .stopSound: hardware.audio.stop()
            case .schedule(let plan): logger.debug("alarm plan: \(plan.steps.map(\.description).joined(separator: ", "))")
            case .cancelAlarms: logger.info("no alarms remain tonight")
            case .saveTarget(let m): saveTarget(m)
            }
        }
    }

    func play(_ s: Sound) {
        let repeatFor: Duration? = s.level == nil ? nil : state.settings.ringTime
        hardware.audio.play(s, volume: volume, repeatFor: repeatFor)
        soundLog.append(SoundReport(offsetMs: Int64(simOffset.seconds * 1000), name: s.name, level: s.level?.description))
        logger.info("sound \(s)")
        observer?(transitionNow ?? clock.now(), "sound \(s)")
        refreshHealth()
    }

    var simOffset: Duration { (clock as? SimClock)?.offset ?? .nanoseconds(clock.now().monoNanos) }

    /// Raises or clears faults the hardware reports (checked on every tick and sound).
    func refreshHealth() {
        let audioBroken = hardware.audio.fault != nil
        if audioBroken != state.faults.contains(.audioUnavailable) {
            if audioBroken { logger.error("audio fault: \(hardware.audio.fault ?? "")") }
            _ = apply(.setFault(.audioUnavailable, active: audioBroken), source: .system)
        }
        let buttonsBroken = hardware.buttonsHealth() != nil
        if buttonsBroken != state.faults.contains(.gpioUnavailable) {
            if buttonsBroken { logger.error("buttons fault: \(hardware.buttonsHealth() ?? "")") }
            _ = apply(.setFault(.gpioUnavailable, active: buttonsBroken), source: .system)
        }
        let synced = clockSynced()
        if synced == state.faults.contains(.clockUnsynced) {
            _ = apply(.setFault(.clockUnsynced, active: !synced), source: .system)
        }
    }

    func noticePhase(_ now: Moment) {
        let phase = state.phase(at: now)
        guard phase != lastPhase else { return }
        lastPhase = phase
        logger.notice("phase \(phase.rawValue)")
        onPhaseChange?("Phase: \(phase.rawValue)")
        observer?(now, "phase \(phase.rawValue)")
    }

    // MARK: - Timers (real and fast clocks; the simulated clock is driven by `advance`)

    func reschedule() {
        guard !clock.isSimulated else { return }
        coreTimer?.cancel()
        if let d = state.nextDeadline(at: clock.now()) {
            let clock = self.clock
            coreTimer = Task { [weak self] in
                do { try await clock.sleep(for: d) } catch { return }
                await self?.tick()
            }
        }
        edgeTimer?.cancel()
        if let d = recognizers.values.compactMap(\.nextDeadline).min() {
            let clock = self.clock
            edgeTimer = Task { [weak self] in
                do { try await clock.sleep(untilEdge: d) } catch { return }
                await self?.fireEdgeTimer()
            }
        }
    }

    func fireEdgeTimer() {
        fireGestureDeadlines()
        reschedule()
    }

    /// Sleeps until a deadline `d` ahead (CLOCK_BOOTTIME, like every alarm timer), plays,
    /// and returns how late the sound started: ALSA's own start time when known.
    func timedPlay(_ s: Sound, in d: Duration) async -> Duration {
        let clock = ContinuousClock()
        let deadline = clock.now + d
        try? await Task.sleep(until: deadline, clock: clock)
        let before = (hardware.audio as? ALSAPlayer)?.lastStart?.at
        hardware.audio.play(s, volume: volume, repeatFor: s.level == nil ? nil : .seconds(1))
        var started = clock.now
        if let alsa = hardware.audio as? ALSAPlayer {
            // Wait (bounded) for the stream to actually start.
            for _ in 0..<200 where alsa.lastStart?.at == before {
                try? await Task.sleep(for: .milliseconds(1))
            }
            if let s = alsa.lastStart?.at, s != before { started = s }
        }
        return started - deadline
    }

    // MARK: - Simulation

    /// Moves the simulated clock by `d`, firing every deadline on the way in order.
    public func advance(by d: Duration) {
        guard let sim = clock as? SimClock else { return }
        let target = sim.now().monoNanos + d.nanoseconds
        while true {
            let now = sim.now()
            var next: Int64? = state.nextDeadline(at: now).map { now.monoNanos + max($0.nanoseconds, 1) }
            if let g = recognizers.values.compactMap(\.nextDeadline).min() {
                next = min(next ?? Int64.max, max(g.nanoseconds, now.monoNanos))
            }
            guard let n = next, n <= target else { break }
            sim.advance(toMono: n)
            fireGestureDeadlines()
            _ = apply(.tick, source: .system)
        }
        sim.advance(toMono: target)
        tick()
    }

    /// Injects edges at millisecond offsets from now, moving the simulated clock through
    /// them, then until the gesture is resolved.
    public func simEdges(button: String, _ edges: [(ms: Int64, direction: RawEdge.Direction)]) throws(SimError) {
        guard let sim = clock as? SimClock else { throw .notSimulated }
        guard recognizers[button] != nil else { throw .unknownButton(button) }
        let start = sim.now().monoNanos
        for e in edges.sorted(by: { $0.ms < $1.ms }) {
            let at = start + e.ms * 1_000_000
            advance(by: .nanoseconds(max(0, at - sim.now().monoNanos)))
            let activeLow = config.buttons.first { $0.name == button }?.activeLow ?? true
            // Edges describe the physical press: "down" is the pressed level.
            let direction: RawEdge.Direction = e.direction == .falling ? (activeLow ? .falling : .rising) : (activeLow ? .rising : .falling)
            handle(ButtonEdge(button: button, edge: RawEdge(direction, at: .nanoseconds(at))))
        }
        // Let the gesture resolve (lockout, double gap), but never run into the stuck guard.
        while let r = recognizers[button], !r.isPressed, let d = r.nextDeadline {
            advance(by: .nanoseconds(max(1, d.nanoseconds - sim.now().monoNanos)))
        }
    }

    public enum SimError: Error, Sendable {
        case notSimulated
        case unknownButton(String)
    }

    public func clearSoundLog() { soundLog.removeAll() }

    public func stepWallClock(by d: Duration) -> Bool {
        guard let sim = clock as? SimClock else { return false }
        sim.stepWall(by: d)
        tick()
        return true
    }

    /// Swaps the night log for a read-only handle: the next write fails as on a read-only file system.
    public func simulateReadOnlyLog() throws {
        log = try NightLog.openReadOnly(stateDirectory: stateDirectory)
    }

    /// The benchmark's measurements, in ms; cleared when read.
    public func takeMetrics() -> [String: [Double]] {
        defer {
            pressLatencies.removeAll()
            commitDelays.removeAll()
        }
        return ["press_to_led_ms": pressLatencies.map { $0.seconds * 1000 }, "single_commit_ms": commitDelays.map { $0.seconds * 1000 }]
    }

    /// An edge stamped now on the edge clock (simulated buttons on any clock; the benchmark uses it).
    public func inject(button: String, pressed: Bool) -> Bool {
        guard hardware.simulatedButtons, let b = config.buttons.first(where: { $0.name == button }) else { return false }
        let direction: RawEdge.Direction = pressed == b.activeLow ? .falling : .rising
        handle(ButtonEdge(button: button, edge: RawEdge(direction, at: clock.edgeNow())))
        return true
    }

    // MARK: - Settings and status

    func saveTarget(_ minutes: Int) {
        do {
            try SettingsStore(directory: stateDirectory).save(targetMinutes: minutes)
        } catch {
            logger.error("could not save the target setting: \(error)")
        }
    }

    public func health() -> StatusReport.Health {
        StatusReport.Health(
            buttons: hardware.buttonsHealth().map { "FAULT (\($0))" } ?? (state.faults.contains { if case .buttonStuck = $0 { true } else { false } } ? "stuck" : "ok"),
            audio: hardware.audio.fault.map { "FAULT (\($0))" } ?? "ok",
            log: logFaultDetail.map { "FAULT (\($0))" } ?? (log == nil ? "FAULT (not open)" : (log?.fault != nil ? "recovered" : "ok")),
            clock: clockSynced() ? "synced" : "not synced")
    }

    public func status() -> StatusReport {
        StatusReport(state: state, now: clock.now(), source: "boxd", health: health())
    }

    /// Returns when the engine is free to run: the watchdog's proof of life.
    public func ping() {}

    public func shutdown() {
        coreTimer?.cancel()
        edgeTimer?.cancel()
        hardware.audio.stop()
        hardware.led.stop()
    }
}

/// Settings changed at run time (boxctl target), kept in the state directory so they
/// survive restarts. They override the config file.
struct SettingsStore {
    let directory: URL
    var url: URL { directory.appendingPathComponent("settings.json") }

    /// `timeZone` is written at start so boxctl can show local times while boxd is down.
    struct Saved: Codable {
        var targetMinutes: Int?
        var timeZone: String?
    }

    func load() -> Saved? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(Saved.self, from: data)
    }

    func save(targetMinutes: Int) throws {
        var s = load() ?? Saved()
        s.targetMinutes = targetMinutes
        try JSONEncoder().encode(s).write(to: url, options: .atomic)
    }

    func save(timeZone: TimeZone) throws {
        var s = load() ?? Saved()
        guard s.timeZone != timeZone.identifier else { return }
        s.timeZone = timeZone.identifier
        try JSONEncoder().encode(s).write(to: url, options: .atomic)
    }
}
