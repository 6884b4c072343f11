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

public enum MedicationLog {
    /// Units a dose may be given in ("mg" by default; the seed's "extensible"), each as mg.
    /// Weights only: Adderall IR and XR are tablets and capsules, and a volume says nothing of
    /// the dose without a concentration, so it could not be checked against the range.
    public static let milligramsPer: [String: Double] = ["mg": 1, "mcg": 0.001, "g": 1000]
    public static let units = ["mg", "mcg", "g"]

    /// Why `value` `unit` is not a dose a prescription could give, or nil: more than 0, and
    /// in mg from `minDoseMg` to `maxDoseMg` (1.25 to 60; see `DoseConstants.Medication`).
    /// The text follows the dose's name: "must be positive" (the caller says "the dose",
    /// "dose" or "--dose").
    public static func doseProblem(_ value: Double, unit: String, rules: DoseConstants = .box) -> String? {
        guard let perUnit = milligramsPer[unit] else { return "must be given in \(units.joined(separator: ", "))" }
        guard value.isFinite else { return "must be a number" }
        guard value > 0 else { return "must be positive" }
        let limits = rules.medication
        let mg = value * perUnit
        // A hair of rounding (1.25 mg given as 1250 mcg) is not outside the range.
        guard mg >= limits.minDoseMg * (1 - 1e-9), mg <= limits.maxDoseMg * (1 + 1e-9) else {
            let range = "\(DoseConstants.number(limits.minDoseMg)) to \(DoseConstants.number(limits.maxDoseMg)) mg"
            let inUnit = unit == "mg" ? ""
                : " (\(DoseConstants.number(limits.minDoseMg / perUnit)) to \(DoseConstants.number(limits.maxDoseMg / perUnit)) \(unit))"
            return "must be from \(range)\(inUnit), the range of a real dose of Adderall"
        }
        return nil
    }

    /// Why an entry taken at `takenAt` cannot be logged at `now`, or nil. Not ahead of boxd's
    /// clock by more than `futureToleranceS` (60 s: boxctl's clock may differ a little; a dose
    /// not yet taken is not logged). Not more than `maxPastDays` (30) back: the log is written
    /// at the time or soon after (a forgotten morning, a trip away from the box); a time older
    /// than a month is a mistyped date (2025 for 2026, 0001-01-01 from a client), which would be
    /// filed under a night that old, out of sight of `med list` and the report.
    public static func takenAtProblem(_ takenAt: Date, now: Date, timeZone: TimeZone, rules: DoseConstants = .box) -> String? {
        let limits = rules.medication
        if takenAt.timeIntervalSince(now) > limits.futureToleranceS {
            return "\(LocalTime.hhmm(takenAt, in: timeZone)) is in the future"
        }
        if now.timeIntervalSince(takenAt) > limits.maxPastDays * 86_400 {
            let days = DoseConstants.number(limits.maxPastDays)
            return "\(dateTime(takenAt, in: timeZone)) is more than \(days) days ago; only what was taken in the last \(days) days is logged (is the date right?)"
        }
        return nil
    }

    /// "2026-11-21 08:00" in `zone`, for a time that may be any day.
    static func dateTime(_ date: Date, in zone: TimeZone) -> String {
        let c = SessionRules.calendar(zone).dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let pad = { (n: Int?, w: Int) in String(repeating: "0", count: max(0, w - String(n ?? 0).count)) + String(n ?? 0) }
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2)) \(pad(c.hour, 2)):\(pad(c.minute, 2))"
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
            return .refused(.invalidMedication("unknown medication \(entry.medicationID); known: \(MedicationType.known.map(\.id).joined(separator: ", "))"))
        }
        guard units.contains(entry.doseUnit) else {
            return .refused(.invalidMedication("the unit must be one of \(units.joined(separator: ", "))"))
        }
        if let problem = doseProblem(entry.doseValue, unit: entry.doseUnit, rules: rules) {
            return .refused(.invalidMedication("the dose \(problem)"))
        }
        let takenAt = entry.takenAt ?? now
        if let problem = takenAtProblem(takenAt, now: now, timeZone: timeZone, rules: rules) {
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
