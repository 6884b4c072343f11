import BoxWords
import DoseCore
import Foundation

/// Where the night stands, as `boxctl status --json` prints it. Keys are stable.
/// Wall times are projected from the wall clock as it reads now and the elapsed
/// (monotonic) time since Dose 1, so they stay consistent after a clock step.
public struct StatusReport: Codable, Sendable, Hashable {
    public struct NextAlarm: Codable, Sendable, Hashable {
        public var kind: String
        public var level: String
        public var at: Date
    }
    public struct FaultReport: Codable, Sendable, Hashable {
        public var code: String
        public var advice: String
        public init(code: String, advice: String) {
            self.code = code
            self.advice = advice
        }
    }
    /// One part per device; see `DeviceHealth` for the JSON.
    public struct Health: Codable, Sendable, Hashable {
        public var buttons: DeviceHealth
        public var audio: DeviceHealth
        public var log: LogHealth
        public var clock: ClockHealth
        public init(buttons: DeviceHealth, audio: DeviceHealth, log: LogHealth, clock: ClockHealth) {
            self.buttons = buttons
            self.audio = audio
            self.log = log
            self.clock = clock
        }
    }

    /// "boxd" when the daemon answered, "log" when boxctl read the night log itself.
    public var source: String
    public var now: Date
    public var timeZone: String
    public var phase: String
    public var sessionId: String?
    public var sessionDate: String?
    public var dose1At: Date?
    public var dose2At: Date?
    public var skippedAt: Date?
    public var windowOpensAt: Date?
    public var windowClosesAt: Date?
    public var targetAt: Date?
    public var targetMinutes: Int
    public var snoozesUsed: Int
    public var snoozesRemaining: Int
    public var nextAlarm: NextAlarm?
    public var led: LEDReport
    public var pendingConfirmation: String?
    /// A question the box asked aloud and waits to be answered by the button (#32):
    /// "skip_reason", or "checkin_question_N".
    public var asking: String?
    public var terminalState: String?
    public var lastNight: String?
    public var faults: [FaultReport]
    public var health: Health?
    /// Set while tonight's record is in doubt (a damaged log): the one line that explains it.
    public var doubt: String?
    /// The state directory whose night log this status comes from, so boxctl reads the log
    /// of the boxd it talks to (history, export) without being told where it is.
    public var stateDir: String?
    /// An alarm or warning is sounding now.
    public var alarmRinging: Bool
    /// The caregiver link (boxd-mqtt), when `[mqtt]` is enabled or a bridge reported.
    public var caregiverLink: CaregiverLinkStatus?
    /// The supply of XYWAV, once a refill or an adjustment set it.
    public var supply: SupplyStatus?
    /// The evening before (#33), while a pacing session is open or a drink counts for Dose 1.
    public var evening: EveningStatus?

    enum CodingKeys: String, CodingKey {
        case source, now, timeZone, phase, sessionId, sessionDate, dose1At, dose2At, skippedAt, windowOpensAt, windowClosesAt
        case targetAt, targetMinutes, snoozesUsed, snoozesRemaining, nextAlarm, led, pendingConfirmation, asking, terminalState
        case lastNight, faults, health, doubt, stateDir, alarmRinging, caregiverLink, supply, evening
    }

    /// Every key is always present (null when absent), so scripts can rely on them.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(source, forKey: .source)
        try c.encode(now, forKey: .now)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(phase, forKey: .phase)
        try c.encode(sessionId, forKey: .sessionId)
        try c.encode(sessionDate, forKey: .sessionDate)
        try c.encode(dose1At, forKey: .dose1At)
        try c.encode(dose2At, forKey: .dose2At)
        try c.encode(skippedAt, forKey: .skippedAt)
        try c.encode(windowOpensAt, forKey: .windowOpensAt)
        try c.encode(windowClosesAt, forKey: .windowClosesAt)
        try c.encode(targetAt, forKey: .targetAt)
        try c.encode(targetMinutes, forKey: .targetMinutes)
        try c.encode(snoozesUsed, forKey: .snoozesUsed)
        try c.encode(snoozesRemaining, forKey: .snoozesRemaining)
        try c.encode(nextAlarm, forKey: .nextAlarm)
        try c.encode(led, forKey: .led)
        try c.encode(pendingConfirmation, forKey: .pendingConfirmation)
        try c.encode(asking, forKey: .asking)
        try c.encode(terminalState, forKey: .terminalState)
        try c.encode(lastNight, forKey: .lastNight)
        try c.encode(faults, forKey: .faults)
        try c.encode(health, forKey: .health)
        try c.encode(doubt, forKey: .doubt)
        try c.encode(stateDir, forKey: .stateDir)
        try c.encode(alarmRinging, forKey: .alarmRinging)
        try c.encode(caregiverLink, forKey: .caregiverLink)
        try c.encode(supply, forKey: .supply)
        try c.encode(evening, forKey: .evening)
    }

    /// Older replies (and the log's own status) have no alarmRinging or caregiverLink.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        source = try c.decode(String.self, forKey: .source)
        now = try c.decode(Date.self, forKey: .now)
        timeZone = try c.decode(String.self, forKey: .timeZone)
        phase = try c.decode(String.self, forKey: .phase)
        sessionId = try c.decodeIfPresent(String.self, forKey: .sessionId)
        sessionDate = try c.decodeIfPresent(String.self, forKey: .sessionDate)
        dose1At = try c.decodeIfPresent(Date.self, forKey: .dose1At)
        dose2At = try c.decodeIfPresent(Date.self, forKey: .dose2At)
        skippedAt = try c.decodeIfPresent(Date.self, forKey: .skippedAt)
        windowOpensAt = try c.decodeIfPresent(Date.self, forKey: .windowOpensAt)
        windowClosesAt = try c.decodeIfPresent(Date.self, forKey: .windowClosesAt)
        targetAt = try c.decodeIfPresent(Date.self, forKey: .targetAt)
        targetMinutes = try c.decode(Int.self, forKey: .targetMinutes)
        snoozesUsed = try c.decode(Int.self, forKey: .snoozesUsed)
        snoozesRemaining = try c.decode(Int.self, forKey: .snoozesRemaining)
        nextAlarm = try c.decodeIfPresent(NextAlarm.self, forKey: .nextAlarm)
        led = try c.decode(LEDReport.self, forKey: .led)
        pendingConfirmation = try c.decodeIfPresent(String.self, forKey: .pendingConfirmation)
        asking = try c.decodeIfPresent(String.self, forKey: .asking)
        terminalState = try c.decodeIfPresent(String.self, forKey: .terminalState)
        lastNight = try c.decodeIfPresent(String.self, forKey: .lastNight)
        faults = try c.decode([FaultReport].self, forKey: .faults)
        health = try c.decodeIfPresent(Health.self, forKey: .health)
        doubt = try c.decodeIfPresent(String.self, forKey: .doubt)
        stateDir = try c.decodeIfPresent(String.self, forKey: .stateDir)
        alarmRinging = try c.decodeIfPresent(Bool.self, forKey: .alarmRinging) ?? false
        caregiverLink = try c.decodeIfPresent(CaregiverLinkStatus.self, forKey: .caregiverLink)
        supply = try c.decodeIfPresent(SupplyStatus.self, forKey: .supply)
        evening = try c.decodeIfPresent(EveningStatus.self, forKey: .evening)
    }

    public init(state: BoxState, now: Moment, source: String, health: Health?, stateDir: String? = nil) {
        self.stateDir = stateDir
        let tz = state.settings.timeZone
        let night = state.night
        self.source = source
        self.now = now.wall
        timeZone = tz.identifier
        phase = state.phase(at: now).rawValue
        if night.isOpen {
            sessionId = night.session?.id
            sessionDate = night.session?.date
        }
        targetMinutes = state.settings.targetMinutes
        snoozesUsed = night.isOpen ? night.snoozeCount : 0
        snoozesRemaining = night.isOpen ? state.snoozesRemaining : state.settings.rules.snooze.maxPerNight
        led = LEDReport(color: state.ledPattern(at: now).color.rawValue, pattern: state.ledPattern(at: now).name)
        pendingConfirmation = state.pending?.kind.rawValue
        asking = state.skipQuestion != nil ? "skip_reason" : state.checkIn.map { "checkin_question_\($0.question.number)" }
        doubt = state.doubt == nil ? nil : Written.doubt
        faults = state.faults.sorted().map { FaultReport(code: $0.code, advice: Written.advice($0)) }
        self.health = health
        supply = state.supply
        evening = EveningStatus(state: state, at: now)
        alarmRinging = state.ringing.map { now.elapsed(since: $0.since) < state.settings.ringTime } ?? false
        if let closure = night.closure {
            terminalState = closure.terminalState.rawValue
            lastNight = "\(night.session?.date ?? "?") closed: \(closure.terminalState.rawValue) (\(closure.reason.rawValue))"
        }

        guard night.isOpen, let elapsed = state.elapsedSinceDose1(at: now) else { return }
        // Project every instant onto the wall clock as it reads now.
        let dose1Wall = now.wall.addingTimeInterval(-elapsed.seconds)
        func wall(_ offset: Duration) -> Date { dose1Wall.addingTimeInterval(offset.seconds) }
        func wall(of m: Moment) -> Date { now.wall.addingTimeInterval(-now.elapsed(since: m).seconds) }
        let window = state.settings.window
        dose1At = dose1Wall
        dose2At = night.dose2.map { wall(of: $0.at) }
        skippedAt = night.skip.map { wall(of: $0.at) }
        windowOpensAt = wall(window.opensAfter)
        windowClosesAt = wall(window.closesAfter)
        targetAt = wall(.minutes(state.effectiveTargetMinutes))
        if let next = state.nextAlarm(at: now) {
            nextAlarm = NextAlarm(kind: next.step.kind.rawValue, level: next.step.level.description, at: now.wall.addingTimeInterval(next.dueIn.seconds))
        }
    }

    /// A phase in plain words, as `boxctl status` and Home Assistant show it (a phase it does
    /// not know stays as it is).
    public static func words(forPhase phase: String) -> String {
        switch phase {
        case "noDose1": "waiting for Dose 1"
        case "beforeWindow": "Dose 1 taken, window not open yet"
        case "active": "window open: take Dose 2"
        case "nearClose": "window closing soon: take Dose 2 now"
        case "closed": "window closed"
        case "finalizing": "awake (wake-final logged), check-in pending"
        case "completed": "done for tonight"
        default: phase
        }
    }

    /// The plain-words rendering for `boxctl status`, in local time.
    public func text() -> String {
        let tz = TimeZone(identifier: timeZone) ?? .current
        func clock(_ d: Date?) -> String { d.map { LocalTime.hhmm($0, in: tz) } ?? "—" }
        func span(_ seconds: Double) -> String {
            let m = Int((abs(seconds) / 60).rounded(.down))
            return m >= 60 ? "\(m / 60) h \(m % 60) min" : "\(m) min"
        }
        var lines: [String] = []
        lines.append("Night \(sessionDate ?? "—"): \(Self.words(forPhase: phase))" + (source == "log" ? "  [boxd is not running: read from the night log]" : ""))
        if let doubt { lines.append("DOUBT: \(doubt) A dose needs a 2 s hold (or --confirm).") }
        if let d1 = dose1At {
            lines.append("Dose 1: \(clock(d1)) (\(span(now.timeIntervalSince(d1))) ago)")
        }
        if let d2 = dose2At { lines.append("Dose 2: \(clock(d2))") }
        if let s = skippedAt { lines.append("Dose 2: skipped at \(clock(s))") }
        if let open = windowOpensAt, let close = windowClosesAt {
            let left = close.timeIntervalSince(now)
            let leftText = dose2At != nil || skippedAt != nil ? "" : (left > 0 ? ", \(span(left)) left" : ", closed")
            lines.append("Window: \(clock(open))–\(clock(close))\(leftText)")
        }
        if let t = targetAt {
            let snoozed = snoozesUsed > 0 ? " + \(snoozesUsed) snooze\(snoozesUsed == 1 ? "" : "s")" : ""
            lines.append("Target: \(clock(t)) (\(targetMinutes) min\(snoozed)), snoozes \(snoozesUsed) of \(snoozesUsed + snoozesRemaining) used")
        }
        if let p = pendingConfirmation {
            switch ConfirmKind(rawValue: p) {
            case .doubt: lines.append("Waiting: the dose needs a 2 s hold to confirm")
            case .alcohol: lines.append("Waiting: a dose after a drink needs a 2 s hold to confirm")
            default: lines.append("Waiting: \(p) Dose 2 needs a 2 s hold to confirm")
            }
        }
        if let a = asking {
            lines.append(a == "skip_reason" ? "Asking: why Dose 2 is skipped (a press: drowsy; two: side effects)"
                : "Asking: check-in question \(a.split(separator: "_").last ?? "?") of \(CheckInQuestion.allCases.count), answered by presses")
        }
        if let n = nextAlarm { lines.append("Next alarm: \(n.kind.replacingEvery("_", with: " ")) (\(n.level)) at \(clock(n.at))") }
        else if dose1At != nil { lines.append("Next alarm: none") }
        lines.append(led.color == "off" ? "LED: off" : "LED: \(led.color) \(led.pattern.replacingEvery("_", with: " "))")
        if let last = lastNight { lines.append("Last night: \(last)") }
        if let h = health {
            lines.append("Health: buttons \(h.buttons.text), audio \(h.audio.text), log \(h.log.text), clock \(h.clock.text)")
        }
        if let link = caregiverLink { lines.append(link.text(timeZone: tz)) }
        if let supply { lines.append("Supply: \(Written.supply(supply))") }
        lines += evening?.lines(in: tz) ?? []
        if faults.isEmpty {
            lines.append("Faults: none")
        } else {
            for f in faults { lines.append("FAULT \(f.code): \(f.advice)") }
        }
        return lines.joined(separator: "\n")
    }
}
