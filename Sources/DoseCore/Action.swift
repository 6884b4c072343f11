import Foundation

/// Everything the box can be asked to do. Gestures come from a button's recogniser;
/// the rest from boxctl or from time passing.
public enum Action: Sendable, Hashable {
    case gesture(Gesture, button: String)
    /// Take the next dose. Early or late needs `confirmed` (a confirmed take from the command line).
    case takeDose(confirmed: Bool)
    /// Answer a pending early/late confirmation (the confirm hold does this on the button).
    case confirm
    case skipDose2(reason: SkipReason?)
    case snooze
    case undo
    /// The only way to record a dose after Dose 2: explicit and confirmed, from boxctl.
    case extraDose(confirmed: Bool)
    /// `confirmed` ends a night that still owes Dose 2 (wake_final): it records the skip first.
    case logSleepEvent(SleepEventType, notes: String?, confirmed: Bool = false)
    /// `confirmed` closes a night that still owes Dose 2: it records the skip first.
    case checkIn(CheckInAnswers, confirmed: Bool = false)
    case stopAlarm
    case setTarget(minutes: Int, confirmed: Bool)
    case setFault(Fault, active: Bool)
    /// The shell read the supply anew (after a dose, a refill or an adjustment).
    case supplyChanged(SupplyStatus?)
    /// The shell read the alcoholic drinks logged anew (Take Care's drinks, the pre-sleep
    /// log's): their times. Recent ones make a Dose 1 ask for a confirmation (#33).
    case drinksChanged([Date])
    /// A drink logged (`boxctl drink add`, a `drink:TYPE` button); `units` nil: the type's,
    /// `at` nil: now.
    case logDrink(DrinkType, units: Double?, at: Date?)
    /// The evening's last drink taken back.
    case undoDrink
    /// What the pacing engine found when it looked (PacingCore, run by the shell).
    case paced(PacingVerdict)
    /// The evening's open session as the log has it, at start.
    case restoreEvening(Evening?)
    /// Tonight's pre-sleep log, new or edited (`boxctl presleep`).
    case logPreSleep(PreSleepAnswers)
    /// The latest pre-sleep log as the log has it, at start (the core judges whether it is tonight's).
    case restorePreSleep(PreSleepLog?)
    /// Log a medication taken (SSOT 2.4.2). `nearby` are the log's entries of that medication
    /// around its time and `night` the session of its date (`MedicationLog.sessionDate`),
    /// both read by the shell first: the duplicate guard compares with them.
    case logMedication(MedicationEntry, confirmed: Bool, nearby: [MedicationRecord], night: String?)
    /// A refill or a correction of the count, against `current`, the count the log holds now.
    case changeSupply(SupplyChange, current: SupplyStatus?)
    /// Delete the nights of `range` (SSOT 2.4.3 "Data Management"); `nights` are the log's
    /// nights in it, read by the shell first. What may go is `Forgetting.plan`'s to decide.
    case forget(Forgetting.Range, nights: [Forgetting.Night], confirmed: Bool)
    /// Time passing: alarms fall due, confirmations time out, sessions close.
    case tick
    /// The shell could not establish tonight's doses from the log (a damaged file, salvaged
    /// in part, `since` then): until that night ends no dose is recorded without a
    /// confirmation. After a restart the shell sends it again with the same `since`.
    case enterDoubt(since: Date)
    /// The log could not be read at start (the doubt) and now can: tonight is what it holds,
    /// and the doubt that came from not reading it is over.
    case restoreNight(PersistedNight)
    /// The shell could not write what the last action recorded, so none of it happened.
    /// Sent with that action's source: a hand on the button hears the error tone; a boxctl
    /// caller learns it from the reply (exit 6) and the bedroom stays quiet.
    case persistFailed
    /// The shell played an alarm the core announced as rung, and the speaker failed it (the
    /// shell learns that only when it plays). The core answers with the audio fault and a
    /// notice that the alarm could not sound; the shell writes no "rang" notice for it.
    case alarmNotHeard(AlertKind, AlarmLevel)
}

/// The clocks now, who is acting, and fresh ids for any records (the core makes no randomness).
public struct Context: Sendable, Hashable {
    public var now: Moment
    public var source: Source
    public var ids: [String]

    public init(now: Moment, source: Source = .system, ids: [String] = []) {
        self.now = now
        self.source = source
        self.ids = ids
    }
}
