import BoxControl
import BoxHardware
import BoxWords
import ConfigFile
import DoseCore
import Foundation
import Logging
import NightLog

/// The night: every input (an edge or a gesture's deadline, a boxctl command, a timer) comes
/// in one ordered stream read by one loop (Engine+Inputs) and becomes one action, one
/// transition of the pure core, and its effects, in order: the night log first (the commit
/// returns), then LED, sound. An actor, so one transition finishes before the next begins,
/// and no transition ever starts inside another's effects.
///
/// The rest of the shell lives beside it, a file a job: edges in (Engine+Buttons), timers
/// (Engine+Timers), device faults (Engine+Health), the clock's timeline (Engine+Timeline),
/// status (Engine+Status), the simulated box (Engine+Sim), bench figures (BenchMetrics).
public actor Engine {
    /// What the engine did that a person would notice, for the demo's transcript.
    public enum Event: Sendable {
        case led(LEDPattern)
        case sound(Sound)
        case phase(Phase)
    }

    public internal(set) var state: BoxState
    var log: NightLog?
    let stateDirectory: URL
    public let clock: any BoxClock
    let hardware: Hardware
    let config: BoxConfig
    let volume: Double
    /// The voice, when the config has it on and espeak-ng is there.
    let voice: Voice?
    let logger: Logger
    var recognizers: [String: GestureRecognizer]
    /// Writes a press's flash on the reader's thread, on real time (PressAcknowledger).
    let acknowledger: PressAcknowledger?
    /// That flash, written for the press being answered: the reducer's is not written again.
    var pressFlashedAt: Duration?
    var coreTimer: Task<Void, Never>?
    /// When `coreTimer` fires (boot-time nanoseconds), while it is set.
    var coreTimerDue: Int64?
    /// When the retry of a broken device or log, and the clock check, fall due (boot-time
    /// nanoseconds, the clock's own timeline); see `reschedule`.
    var retryAt: Int64?
    var clockCheckAt: Int64?
    /// Decides a gesture once the edge source has ended (no edge can come then).
    var edgeTimer: Task<Void, Never>?
    /// The gesture deadline asked of the edge source, until it came.
    var wakeAsked: Duration?
    /// The one input stream and its loop (Engine+Inputs).
    nonisolated let inputStream: AsyncStream<EngineInput>
    nonisolated let inputFeed: AsyncStream<EngineInput>.Continuation
    /// The edge source was started, and runs: it takes the gesture deadlines (Engine+Buttons).
    var buttonsStarted = false
    var buttonsLive = false
    /// Each button's last edge handled (its stamp), and the sim and bench presses waiting
    /// until the input loop has handled theirs.
    var lastEdgeAt: [String: Duration] = [:]
    typealias EdgeWaiter = (button: String, at: Duration, resume: CheckedContinuation<Void, Never>)
    var edgeWaiters: [EdgeWaiter] = []
    var onPhaseChange: (@Sendable (String) -> Void)?
    var observer: (@Sendable (Moment, Event) -> Void)?
    /// The moment of the transition whose effects are being performed (observer timestamps).
    var transitionNow: Moment?
    var lastPhase: Phase?
    /// Why the night log cannot be written now, or nil: the fault `log_unwritable` follows it.
    var logFaultDetail: String?
    /// Records of time passing (a session's fallback close) that could not be written: the
    /// night goes on in memory, and they are written, in order, ahead of the next write.
    var unsaved: [LogRecord] = []
    /// A dose was written and is not yet checkpointed into the main file (see `commit`).
    var checkpointDue = false
    /// A dose, an undo or a supply record was written since the supply was last read.
    var supplyStale = true
    /// The evening's drinks could not be read: the guard at Dose 1 is blind until they are (retried).
    var eveningUnread = false
    /// What the last `.forget` effect deleted, for its reply.
    var forgotten: Forgetting.Counts?
    /// The running boot's wall-clock offset as last recorded in the log (see Engine+Timeline).
    var knownClock: NightLog.ClockOffset?
    var clockSynced: @Sendable () -> Bool

    /// What was played, with simulated-clock offsets (for `boxctl sim sounds` and tests).
    public internal(set) var soundLog: [SoundReport] = []
    /// Rung after every commit, for the `watch` connections (see `FeedSignal`).
    public nonisolated let feedSignal = FeedSignal()
    /// The caregiver bridge's reports (its watch connection), for the status.
    public nonisolated let caregiverLink: CaregiverLinkBoard
    var metrics = BenchMetrics()

    public init(state: BoxState, log: NightLog?, stateDirectory: URL, clock: any BoxClock, hardware: Hardware, config: BoxConfig,
                logger: Logger, clockSynced: @escaping @Sendable () -> Bool = { true }) {
        self.state = state
        (inputStream, inputFeed) = AsyncStream.makeStream(of: EngineInput.self, bufferingPolicy: .unbounded)
        self.log = log
        self.stateDirectory = stateDirectory
        self.clock = clock
        self.hardware = hardware
        self.config = config
        volume = config.volume
        voice = config.voice.enabled ? hardware.speech.map {
            Voice(synthesizer: $0, player: hardware.audio, volume: config.voice.volume ?? config.volume,
                  synchronous: clock.isSimulated, waitAhead: Voice.waitAhead(ringSeconds: config.ringSeconds), logger: logger)
        } : nil
        self.logger = logger
        self.clockSynced = clockSynced
        caregiverLink = CaregiverLinkBoard(expected: config.caregiverLink != nil, since: clock.now().wall)
        if log == nil { logFaultDetail = "the night log could not be opened" }
        let timings = GestureRecognizer.Timings(state.settings.rules.gestures)
        recognizers = Dictionary(uniqueKeysWithValues: config.buttons.map {
            ($0.name, GestureRecognizer(timings: timings, activeLow: $0.activeLow))
        })
        acknowledger = hardware.led.animate ? PressAcknowledger(recognizers: recognizers, led: hardware.led, now: { [clock] in clock.edgeNow() }) : nil
        let feed = inputFeed
        hardware.faults.connect { feed.yield(.devicesChanged) }
        Task { await self.readInputs() }
    }

    public func setPhaseObserver(_ observer: @escaping @Sendable (String) -> Void) { onPhaseChange = observer }

    /// Sees every LED change, sound and phase change (the demo's transcript).
    public func setObserver(_ observer: @escaping @Sendable (Moment, Event) -> Void) { self.observer = observer }

    /// The first transitions after start: every fault the hardware has now (not at the first
    /// event), the LED, what fell due while down; then edges are read.
    public func start(doubtSince: Date? = nil) {
        if log?.fault != nil { transition(.setFault(.logRecovered, active: true), source: .system) }
        switch log?.witnessFault {
        case .lostRecords?: transition(.setFault(.logLostRecords, active: true), source: .system)
        case .witnessRebuilt?: transition(.setFault(.witnessRebuilt, active: true), source: .system)
        case nil: break
        }
        settleDevices()
        settleClock()
        // The count before the first press: a low supply's reminder is due at the first Dose 1.
        settleSupply()
        restoreEvening()
        transition(.tick, source: .system)
        settleEvening()
        if let doubtSince { transition(.enterDoubt(since: doubtSince), source: .system) }
        afterTransitions()
        startButtons()
    }

    public func tick() {
        timedChecksDone()
        if log == nil { reopenLog() }
        if hardware.audio.fault != nil { hardware.audio.retryIfBroken() }
        if eveningUnread { restoreEvening() }
        fireGestureDeadlines()
        apply(.tick, source: .system)
    }

    public enum ApplyResult: Sendable {
        case done(Outcome)
        case failed(String)
    }

    /// Applies one action, then brings the faults up to date with what its effects found (a
    /// write or a sound that failed), each change a transition of its own, after (never
    /// inside) the action's effects. Time passing (`.tick`, on the timers) also looks at the
    /// clock; a press does not wait for that.
    @discardableResult
    public func apply(_ action: Action, source: Source) -> ApplyResult {
        // A hand on the button: a sped-up demo clock runs at real speed while the box answers,
        // so a confirmation it asks for is not aged by its tone, light and log writes times
        // the speed (at fast:240, 60 ms of a busy host were the whole 15 s). afterTransitions
        // keeps real time only while a confirmation waits; otherwise the clock catches up, so
        // the night's schedule is where full speed puts it.
        if case .button = source { clock.answerAtRealSpeed() }
        let result = transition(action, source: source)
        settleEvening()
        settleSupply()
        settleDevices()
        if action == .tick { settleClock() }
        afterTransitions()
        return result
    }

    /// One transition: reduce, then perform its effects. Nothing is acknowledged unless the
    /// write returned. When it fails, nothing of the action happens and the core is told
    /// (`.persistFailed`, same source, as an action of its own) and decides what that looks
    /// like; records of time passing stay in memory (the night goes on, alarms ring) until a
    /// later write takes them.
    @discardableResult
    func transition(_ action: Action, source: Source) -> ApplyResult {
        let now = clock.now()
        let t = DoseReducer.reduce(state, action, Context(now: now, source: source, ids: freshIDs()))
        // The answer to a failed write writes what it can and never fails in turn.
        let aPersonWaits = source != .system && action != .persistFailed
        switch perform(t, aPersonWaits: aPersonWaits, at: now) {
        case .notWritten(let failure):
            transition(.persistFailed, source: source)
            if case .forget = action { return .failed("Nothing deleted: \(failure)") }
            return .failed("Not recorded: \(failure)")
        case .notSaved(let failure):
            return .failed("Not saved: \(failure). The target stays \(state.settings.targetMinutes) minutes.")
        case .performed(let unheard):
            reportUnheard(unheard)
            return .done(t.outcome)
        }
    }

    enum Performed {
        /// Done; an alarm whose play failed while the core called it rung, if any.
        case performed(unheard: Sound?)
        /// The action's records could not be written: nothing else was done.
        case notWritten(String)
        /// A setting could not be saved: nothing else was done.
        case notSaved(String)
    }

    /// The durable effects first, in the core's order: `persist` (the one effect that writes
    /// the log; the core puts it first), `forget` (the one that deletes) and `saveTarget`. Only when they held does the new
    /// state count, and the rest follow (`commit`). A person's action whose records cannot be
    /// written does not happen; time's records wait in `unsaved` for a later write, and what
    /// waits there is tried at every transition, so a log that is writable again says so.
    func perform(_ t: Transition, aPersonWaits: Bool, at now: Moment) -> Performed {
        var wrote = false
        for effect in t.effects {
            switch effect {
            case .persist(let records):
                wrote = true
                guard case .failed(let failure) = write(records) else { continue }
                if aPersonWaits { return .notWritten(failure) }
                unsaved += records
            case .saveTarget(let minutes):
                if let failure = saveTarget(minutes) { return .notSaved(failure) }
            case .forget(let plan, let range):
                if let failure = erase(plan, range) { return .notWritten(failure) }
            default: continue
            }
        }
        if !wrote, !unsaved.isEmpty { _ = write([]) }
        return .performed(unheard: commit(t, at: now))
    }

    /// An alarm the core announced as rung that the speaker failed: the core hears of it in
    /// a transition of its own, after the effects, and gives the notice that it could not sound.
    func reportUnheard(_ alarm: Sound?) {
        guard case .alarm(let kind, let level)? = alarm else { return }
        logger.error("alarm \(kind.rawValue) could not sound: \(hardware.audio.fault ?? "the player failed")")
        transition(.alarmNotHeard(kind, level), source: .system)
    }

    /// The new state, then its effects in order. Effects never start a transition. Returns
    /// an alarm whose play failed while the core called it rung; its "rang" notice is not written.
    func commit(_ t: Transition, at now: Moment) -> Sound? {
        state = t.state
        transitionNow = now
        // Only a notice that says "rang" needs correcting; one that says "could not sound" is already true.
        let saysRang = t.effects.contains { if case .notice(let n) = $0 { n.kind == .alarmRang } else { false } }
        var unheard: Sound?
        for effect in t.effects {
            switch effect {
            case .persist, .saveTarget, .forget: break // performed before the state changed (`perform`)
            case .led(let p):
                hardware.led.setBase(p)
                observer?(now, .led(p))
            case .flash(let p, let d):
                if effect == .pressAcknowledgement, let at = pressFlashedAt {
                    metrics.flashWritten = at
                    pressFlashedAt = nil
                    continue
                }
                hardware.led.flash(p, duration: d)
                metrics.flashWritten = clock.edgeNow()
            case .play(let s):
                if !play(s), saysRang, case .alarm = s { unheard = s }
            case .speak(let utterance): say(Speech.words(utterance))
            case .stopSound:
                voice?.overtaken()
                hardware.audio.stop()
            case .notice, .faultNotice: break // written below, after the sounds
            }
        }
        // Notices are for people elsewhere: an alarm never waits for their fsync, and one the
        // disk refuses now is kept and written ahead of the next write.
        let notices = t.effects.compactMap { effect -> LogRecord? in
            switch effect {
            case .notice(let n) where n.kind == .alarmRang && unheard != nil: nil // it was not heard: never "rang"
            case .notice(let n): .notice(n)
            case .faultNotice(let f): .fault(f)
            default: nil
            }
        }
        if !notices.isEmpty, case .failed = write(notices) { unsaved += notices }
        // The dose is acknowledged (its light and sound are under way) and the witness names
        // it: now the main file takes it too (see NightLog.checkpoint).
        if checkpointDue {
            checkpointDue = false
            if let warning = log?.checkpoint() { logger.warning("\(warning)") }
        }
        return unheard
    }

    /// What every batch of transitions ends with: the phase noticed, the timers set.
    func afterTransitions() {
        noticePhase(clock.now())
        // A sped-up demo clock slows to real time while a question waits for a hand.
        clock.setRealTime(state.waitsForAHand)
        reschedule()
    }

    func freshIDs() -> [String] { (0..<3).map { _ in UUID().lowercaseText } }

    /// Plays a sound; false if the player reports a fault once it returns (not heard).
    @discardableResult
    func play(_ s: Sound) -> Bool {
        voice?.overtaken()
        let repeatFor: Duration? = s.level == nil ? nil : state.settings.ringTime
        hardware.audio.play(s, volume: volume, repeatFor: repeatFor)
        let failed = hardware.audio.fault != nil
        soundLog.append(SoundReport(offsetMs: Int64(simOffset.seconds * 1000), name: s.name, level: s.level?.description, failed: failed))
        logger.info("sound \(s)")
        observer?(transitionNow ?? clock.now(), .sound(s))
        return !failed
    }

    /// A sentence after the sound before it (the player keeps the order).
    func say(_ text: String) {
        guard let voice else { return }
        voice.say(text)
        logSpeech(text, failed: hardware.audio.fault != nil)
    }

    /// A sentence in the sound log (`boxctl sim sounds`), beside the tones.
    func logSpeech(_ text: String, failed: Bool) {
        soundLog.append(SoundReport(offsetMs: Int64(simOffset.seconds * 1000), name: "speech", level: nil, failed: failed, text: text))
    }

    var simOffset: Duration { clock.soundLogOffset }

    func noticePhase(_ now: Moment) {
        let phase = state.phase(at: now)
        guard phase != lastPhase else { return }
        lastPhase = phase
        logger.notice("phase \(phase.rawValue)")
        onPhaseChange?("Phase: \(phase.rawValue)")
        observer?(now, .phase(phase))
    }
}
