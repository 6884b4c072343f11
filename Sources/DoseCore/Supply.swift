import Foundation

/// SSOT 1.1 "Inventory Management" (named in SSOT 2.4.3): the supply of XYWAV, refills, the
/// nights left, and a refill reminder that "repeats daily until resolved" (2.4.3's fix of the
/// notification claim). The box counts doses: every Dose 1, Dose 2 and extra dose taken uses
/// one; a night uses two. The count is a snapshot (the last refill or adjustment's
/// `remainingAfter`) less the doses taken after it, so it is always the log's.
public struct SupplyRecord: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case refillLogged = "refill_logged"
        case inventoryAdjustment = "inventory_adjustment"
        case refillReminder = "refill_reminder"
    }
    public var id: String
    public var kind: Kind
    public var at: Moment
    /// A reminder belongs to the night whose Dose 1 gave it; a refill to no night.
    public var sessionID: String?
    public var sessionDate: String?
    /// The change in doses (0 for a reminder).
    public var doses: Int
    /// The count after it: the snapshot later doses are taken from.
    public var remainingAfter: Int
    public var notes: String?
    public var source: Source

    public init(id: String, kind: Kind, at: Moment, sessionID: String? = nil, sessionDate: String? = nil, doses: Int,
                remainingAfter: Int, notes: String? = nil, source: Source) {
        self.id = id
        self.kind = kind
        self.at = at
        self.sessionID = sessionID
        self.sessionDate = sessionDate
        self.doses = doses
        self.remainingAfter = remainingAfter
        self.notes = notes
        self.source = source
    }
}

/// Where the supply stands: nil until a first refill or adjustment says how much there is.
public struct SupplyStatus: Sendable, Hashable, Codable {
    public var remainingDoses: Int
    public var remainingNights: Int
    /// Nights left at or under the threshold (7): the reminder plays at each Dose 1.
    public var refillDue: Bool

    public init(remainingDoses: Int, rules: DoseConstants = .box) {
        self.remainingDoses = remainingDoses
        remainingNights = max(0, remainingDoses) / max(1, rules.supply.dosesPerNight)
        refillDue = remainingNights <= rules.supply.refillReminderNights
    }
}

/// A change a person asks for: a refill of `doses`, or a correction of the count by `doses`.
public enum SupplyChange: Sendable, Hashable {
    case refill(doses: Int, notes: String?)
    case adjust(doses: Int, notes: String?)
}

/// Why a supply change is not logged: the facts, for the edge to say.
public enum SupplyProblem: Sendable, Hashable {
    case refillOutOfRange(limit: Int)
    case adjustmentOutOfRange(limit: Int)
    case belowZero(wouldBe: Int, now: Int)
}

public enum Supply {
    /// The count from the last snapshot and the doses taken since.
    public static func status(snapshot: Int?, dosesTakenSince: Int, rules: DoseConstants = .box) -> SupplyStatus? {
        snapshot.map { SupplyStatus(remainingDoses: $0 - dosesTakenSince, rules: rules) }
    }

    public enum Decision: Sendable, Hashable {
        case record(SupplyRecord)
        case refused(Refusal)
    }

    /// A refill adds 1…1000 doses; an adjustment changes the count by a non-zero amount that
    /// leaves it at 0 or more. The first adjustment on a box with no count sets it.
    public static func decide(_ change: SupplyChange, current: SupplyStatus?, at: Moment, id: String, source: Source,
                              rules: DoseConstants = .box) -> Decision {
        let limit = rules.supply.maxChangeDoses
        let now = current?.remainingDoses ?? 0
        switch change {
        case .refill(let doses, let notes):
            guard (1...limit).contains(doses) else { return .refused(.invalidSupply(.refillOutOfRange(limit: limit))) }
            return .record(SupplyRecord(id: id, kind: .refillLogged, at: at, doses: doses, remainingAfter: now + doses,
                                        notes: notes, source: source))
        case .adjust(let doses, let notes):
            guard doses != 0, abs(doses) <= limit else { return .refused(.invalidSupply(.adjustmentOutOfRange(limit: limit))) }
            guard now + doses >= 0 else {
                return .refused(.invalidSupply(.belowZero(wouldBe: now + doses, now: now)))
            }
            return .record(SupplyRecord(id: id, kind: .inventoryAdjustment, at: at, doses: doses, remainingAfter: now + doses,
                                        notes: notes, source: source))
        }
    }
}
