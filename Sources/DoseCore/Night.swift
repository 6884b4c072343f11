/// The durable part of the night: exactly the fold of the session's log records, and
/// nothing else (one source of truth). The daemon rebuilds it on start by applying the
/// records NightLog returns; live transitions change it only by applying the records
/// they ask to persist.
public struct Night: Sendable, Hashable {
    public private(set) var session: SessionRecord?
    public private(set) var closure: SessionCloseRecord?
    /// Dose events in log order, undone ones included (they keep their row).
    public private(set) var doseEvents: [DoseRecord] = []
    public private(set) var undoneIDs: Set<String> = []
    /// Dose events that count (not undone), kept as records are applied.
    public private(set) var liveDoseEvents: [DoseRecord] = []
    public private(set) var sleepEvents: [SleepEventRecord] = []
    public private(set) var checkIn: CheckInRecord?
    /// The last dose taken before this night (in the log as a whole), carried over when a
    /// session opens, so a new Dose 1 too soon after it can be caught.
    public private(set) var priorDose: DoseRecord?
    /// The caregiver escalations already given, as "kind@dose1ID" (a Dose 1 undone and taken
    /// again starts its own plan).
    public private(set) var caregiverNotices: Set<String> = []

    public init() {}

    /// Folds records, in order, into a night.
    public init(replaying records: [LogRecord]) {
        self.init()
        for record in records { apply(record) }
    }

    /// The night a restart finds: the latest session folded, and the last dose taken in the
    /// whole log as the dose before it (whichever night that was in), so the guards that
    /// reach back in time see it however many nights were opened since.
    public init(_ persisted: PersistedNight) {
        self.init(replaying: persisted.records)
        if let last = persisted.lastDoseTaken, last.sessionID != session?.id { priorDose = last }
    }

    public mutating func apply(_ record: LogRecord) {
        switch record {
        case .sessionOpened(let s):
            let carried = lastDoseTaken ?? priorDose
            self = Night()
            session = s
            priorDose = carried
        case .dose(let d):
            guard d.sessionID == session?.id else { return }
            doseEvents.append(d)
            liveDoseEvents.append(d)
        case .sleepEvent(let e):
            guard e.sessionID == session?.id else { return }
            sleepEvents.append(e)
        case .checkIn(let c):
            guard c.sessionID == session?.id else { return }
            checkIn = c
        case .undone(let u):
            if doseEvents.contains(where: { $0.id == u.eventID }) {
                undoneIDs.insert(u.eventID)
                liveDoseEvents.removeAll { $0.id == u.eventID }
            }
        case .sessionClosed(let c):
            guard c.sessionID == session?.id else { return }
            closure = c
        case .notice(let n):
            guard n.sessionID == session?.id, n.kind != .alarmRang else { return }
            caregiverNotices.insert(Self.noticeKey(n.kind, dose1ID: n.dose1ID))
        case .fault, .medication, .supply, .drink, .drinkUndone, .pacing, .preSleep:
            break // the box's and the patient's record, not the night's
        }
    }

    static func noticeKey(_ kind: NoticeRecord.Kind, dose1ID: String) -> String { "\(kind.rawValue)@\(dose1ID)" }

    /// This escalation was already given for tonight's Dose 1.
    public func hasNotified(_ alert: CaregiverPlan.Alert) -> Bool {
        guard let d1 = dose1 else { return false }
        return caregiverNotices.contains(Self.noticeKey(.init(alert), dose1ID: d1.id))
    }

    /// A session is open: started and not closed.
    public var isOpen: Bool { session != nil && closure == nil }

    public var dose1: DoseRecord? { liveDoseEvents.first { $0.type == .dose1 } }
    public var dose2: DoseRecord? { liveDoseEvents.first { $0.type == .dose2 } }
    public var skip: DoseRecord? { liveDoseEvents.first { $0.type == .dose2Skipped } }
    public var extraDoses: [DoseRecord] { liveDoseEvents.filter { $0.type == .extraDose } }
    public var snoozeCount: Int { liveDoseEvents.reduce(0) { $0 + ($1.type == .snooze ? 1 : 0) } }

    /// SSOT 3.0: doseIndex = (count of dose1, dose2 and extra_dose) + 1.
    public var nextDoseIndex: Int { liveDoseEvents.reduce(1) { $0 + ($1.type.countsAsDose ? 1 : 0) } }

    /// Dose 2 is taken or skipped: nothing more is owed tonight.
    public var isDose2Resolved: Bool { dose2 != nil || skip != nil }

    /// The last dose action that undo would take back (snoozes are not undoable).
    public var lastUndoable: DoseRecord? { liveDoseEvents.last { $0.type != .snooze } }

    public var wakeFinal: SleepEventRecord? { sleepEvents.last { $0.type == .wakeFinal } }

    /// The last dose actually taken (Dose 1, Dose 2 or an extra dose) in this session.
    public var lastDoseTaken: DoseRecord? { liveDoseEvents.last { $0.type.countsAsDose } }

    /// The nap_start not yet followed by a nap_end, if any (SSOT 3.0 pairs a start with the next end).
    public var napInProgress: SleepEventRecord? {
        var open: SleepEventRecord?
        for e in sleepEvents {
            if e.type == .napStart { open = e } else if e.type == .napEnd { open = nil }
        }
        return open
    }

    public func lastSleepEvent(_ type: SleepEventType) -> SleepEventRecord? { sleepEvents.last { $0.type == type } }

    /// The terminal state this night would close with now.
    public func terminalState(window: DoseWindow, now: Moment) -> TerminalState {
        if dose2 != nil { return .completed }
        if skip != nil { return .skipped }
        if let d1 = dose1, now.elapsed(since: d1.at) >= window.closesAfter { return .expired }
        return .aborted
    }
}

/// What boxd reads from the log at start (and when the log is read again): the latest
/// session's records and the last dose taken in the whole log (Dose 1, Dose 2 or an extra
/// dose, not undone), whatever night it belongs to (#29: never only the nights rebuilt).
public struct PersistedNight: Sendable, Hashable {
    public var records: [LogRecord]
    public var lastDoseTaken: DoseRecord?

    public init(records: [LogRecord] = [], lastDoseTaken: DoseRecord? = nil) {
        self.records = records
        self.lastDoseTaken = lastDoseTaken
    }

    /// The night's session, as it was opened.
    public var session: SessionRecord? {
        records.lazy.compactMap { if case .sessionOpened(let s) = $0 { s } else { nil } }.first
    }

    /// The same reading of a whole log given as records in append order: the reference the
    /// NightLog query is tested against, and the restart of the model-based safety test.
    public init(log: [LogRecord]) {
        var latest: String?
        var undone: Set<String> = []
        for record in log {
            if case .sessionOpened(let s) = record { latest = s.id }
            if case .undone(let u) = record { undone.insert(u.eventID) }
        }
        // An undo belongs to the session of the dose it undoes; append order is kept.
        var doses: Set<String> = []
        records = log.filter { record in
            switch record {
            case .dose(let d) where d.sessionID == latest: doses.insert(d.id); return true
            case .undone(let u): return doses.contains(u.eventID)
            default: return record.belongs(toSession: latest)
            }
        }
        lastDoseTaken = log.lazy.reversed().compactMap { record -> DoseRecord? in
            guard case .dose(let d) = record, d.type.countsAsDose, !undone.contains(d.id) else { return nil }
            return d
        }.first
    }
}

extension LogRecord {
    /// A record of the session `id` (an undo is judged by its dose, see `PersistedNight`).
    func belongs(toSession id: String?) -> Bool {
        guard let id else { return false }
        switch self {
        case .sessionOpened(let s): return s.id == id
        case .dose(let d): return d.sessionID == id
        case .sleepEvent(let e): return e.sessionID == id
        case .checkIn(let c): return c.sessionID == id
        case .sessionClosed(let c): return c.sessionID == id
        case .notice(let n): return n.sessionID == id
        case .undone: return false
        case .fault, .medication, .supply, .drink, .drinkUndone, .pacing, .preSleep: return false
        }
    }
}
