import Foundation

/// SSOT 2.4.2 "MedicationLogger" and 2.4.3 "Medication Settings": first-class entries for the
/// medications taken beside XYWAV (Adderall IR and XR; the list is meant to grow), linked to
/// the night they belong to, with a 5-minute duplicate guard that a confirmation overrides.
public struct MedicationType: Sendable, Hashable {
    /// `medication_id` in the log: "adderall_ir".
    public let id: String
    public let name: String
    /// `formulation` in the log: "ir" or "xr".
    public let formulation: String

    public static let known: [MedicationType] = [
        MedicationType(id: "adderall_ir", name: "Adderall IR", formulation: "ir"),
        MedicationType(id: "adderall_xr", name: "Adderall XR", formulation: "xr"),
    ]

    public static func named(_ id: String) -> MedicationType? { known.first { $0.id == id } }
}

/// What a person asks to log; checked by `MedicationLog.decide`.
public struct MedicationEntry: Sendable, Hashable {
    public var medicationID: String
    public var doseValue: Double
    public var doseUnit: String
    /// nil: when it was logged.
    public var takenAt: Date?
    public var notes: String?

    public init(medicationID: String, doseValue: Double, doseUnit: String = "mg", takenAt: Date? = nil, notes: String? = nil) {
        self.medicationID = medicationID
        self.doseValue = doseValue
        self.doseUnit = doseUnit
        self.takenAt = takenAt
        self.notes = notes
    }
}

/// One row of `medication_events`, with the seed's columns.
public struct MedicationRecord: Sendable, Hashable {
    public var id: String
    /// The night it belongs to (the session whose date is the entry's session date), if the
    /// box has one; the date is kept either way.
    public var sessionID: String?
    public var sessionDate: String
    public var medicationID: String
    public var doseValue: Double
    public var doseUnit: String
    public var formulation: String
    public var takenAt: Date
    /// The patient's UTC offset when it was taken (-300 for EST).
    public var localOffsetMinutes: Int
    public var notes: String?
    /// Logged within the guard window of another entry of the same medication, confirmed.
    public var confirmedDuplicate: Bool
    /// When it was logged.
    public var createdAt: Date
    public var source: Source

    public init(id: String, sessionID: String?, sessionDate: String, medicationID: String, doseValue: Double, doseUnit: String,
                formulation: String, takenAt: Date, localOffsetMinutes: Int, notes: String?, confirmedDuplicate: Bool,
                createdAt: Date, source: Source) {
        self.id = id
        self.sessionID = sessionID
        self.sessionDate = sessionDate
        self.medicationID = medicationID
        self.doseValue = doseValue
        self.doseUnit = doseUnit
        self.formulation = formulation
        self.takenAt = takenAt
        self.localOffsetMinutes = localOffsetMinutes
        self.notes = notes
        self.confirmedDuplicate = confirmedDuplicate
        self.createdAt = createdAt
        self.source = source
    }
}

/// Why a medication entry is not logged: the facts, for the edge to say.
public enum MedicationProblem: Sendable, Hashable {
    case unknownMedication(String)
    case unknownUnit(String)
    case dose(DoseProblem)
    case inFuture(Date)
    case tooLongAgo(Date, days: Double)
}

/// Why an amount is not a dose a prescription could give.
public enum DoseProblem: Sendable, Hashable {
    case unknownUnit(String)
    case notANumber
    case notPositive
    /// Outside `minMg`…`maxMg`; `perUnit` mg in one `unit`.
    case outOfRange(unit: String, minMg: Double, maxMg: Double, perUnit: Double)
}

public enum MedicationLog {
    /// Units a dose may be given in ("mg" by default; the seed's "extensible"), each as mg.
    /// Weights only: Adderall IR and XR are tablets and capsules, and a volume says nothing of
    /// the dose without a concentration, so it could not be checked against the range.
    public static let milligramsPer: [String: Double] = ["mg": 1, "mcg": 0.001, "g": 1000]
    public static let units = ["mg", "mcg", "g"]

    /// Why `value` `unit` is not a dose a prescription could give, or nil: more than 0, and
    /// in mg from `minDoseMg` to `maxDoseMg` (1.25 to 60; see `DoseConstants.Medication`).
    public static func doseProblem(_ value: Double, unit: String, rules: DoseConstants = .box) -> DoseProblem? {
        guard let perUnit = milligramsPer[unit] else { return .unknownUnit(unit) }
        guard value.isFinite else { return .notANumber }
        guard value > 0 else { return .notPositive }
        let limits = rules.medication
        let mg = value * perUnit
        // A hair of rounding (1.25 mg given as 1250 mcg) is not outside the range.
        guard mg >= limits.minDoseMg * (1 - 1e-9), mg <= limits.maxDoseMg * (1 + 1e-9) else {
            return .outOfRange(unit: unit, minMg: limits.minDoseMg, maxMg: limits.maxDoseMg, perUnit: perUnit)
        }
        return nil
    }

    /// Why an entry taken at `takenAt` cannot be logged at `now`, or nil. Not ahead of boxd's
    /// clock by more than `futureToleranceS` (60 s: boxctl's clock may differ a little; a dose
    /// not yet taken is not logged). Not more than `maxPastDays` (30) back: the log is written
    /// at the time or soon after (a forgotten morning, a trip away from the box); a time older
    /// than a month is a mistyped date (2025 for 2026, 0001-01-01 from a client), which would be
    /// filed under a night that old, out of sight of `med list` and the report.
    public static func takenAtProblem(_ takenAt: Date, now: Date, rules: DoseConstants = .box) -> MedicationProblem? {
        let limits = rules.medication
        if takenAt.timeIntervalSince(now) > limits.futureToleranceS { return .inFuture(takenAt) }
        if now.timeIntervalSince(takenAt) > limits.maxPastDays * 86_400 { return .tooLongAgo(takenAt, days: limits.maxPastDays) }
        return nil
    }

    public enum Decision: Sendable, Hashable {
        case record(MedicationRecord)
        case refused(Refusal)
    }

    /// Entries of the same medication taken less than the guard (5 min) from `takenAt`,
    /// either side: the seed's "absolute time delta (forward/backward)". 4:59 apart is a
    /// duplicate; 5:00 apart is not.
    public static func duplicates(of medicationID: String, at takenAt: Date, among existing: [MedicationRecord],
                                  rules: DoseConstants = .box) -> [MedicationRecord] {
        let guardSeconds = rules.medication.duplicateGuardMin * 60
        return existing.filter { $0.medicationID == medicationID && abs($0.takenAt.timeIntervalSince(takenAt)) < guardSeconds }
    }

    /// The night an entry taken at `takenAt` belongs to: the 18:00 rule (08:00 the morning
    /// after is that night's).
    public static func sessionDate(of takenAt: Date, timeZone: TimeZone, rules: DoseConstants = .box) -> String {
        SessionRules.sessionKey(for: takenAt, timeZone: timeZone, rolloverHour: rules.session.rolloverHour)
    }

    /// Whether to write the entry, and as what. `nearby` are the log's entries around its
    /// time (the shell reads them); `sessionID` the night of its session date, if any.
    public static func decide(_ entry: MedicationEntry, confirmed: Bool, nearby: [MedicationRecord], now: Date,
                              timeZone: TimeZone, sessionID: (String) -> String?, id: String, source: Source,
                              rules: DoseConstants = .box) -> Decision {
        guard let type = MedicationType.named(entry.medicationID) else {
            return .refused(.invalidMedication(.unknownMedication(entry.medicationID)))
        }
        guard units.contains(entry.doseUnit) else {
            return .refused(.invalidMedication(.unknownUnit(entry.doseUnit)))
        }
        if let problem = doseProblem(entry.doseValue, unit: entry.doseUnit, rules: rules) {
            return .refused(.invalidMedication(.dose(problem)))
        }
        let takenAt = entry.takenAt ?? now
        if let problem = takenAtProblem(takenAt, now: now, rules: rules) {
            return .refused(.invalidMedication(problem))
        }
        let dups = duplicates(of: type.id, at: takenAt, among: nearby, rules: rules)
        if let first = dups.min(by: { abs($0.takenAt.timeIntervalSince(takenAt)) < abs($1.takenAt.timeIntervalSince(takenAt)) }), !confirmed {
            return .refused(.duplicateMedication(name: type.name, at: first.takenAt))
        }
        let date = sessionDate(of: takenAt, timeZone: timeZone, rules: rules)
        return .record(MedicationRecord(
            id: id, sessionID: sessionID(date), sessionDate: date, medicationID: type.id, doseValue: entry.doseValue,
            doseUnit: entry.doseUnit, formulation: type.formulation, takenAt: takenAt,
            localOffsetMinutes: timeZone.secondsFromGMT(for: takenAt) / 60, notes: entry.notes,
            confirmedDuplicate: !dups.isEmpty, createdAt: now, source: source))
    }
}
