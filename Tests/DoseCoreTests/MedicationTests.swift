import BoxWords
import DoseCore
import Foundation
import Testing

/// SSOT 2.4.2 "MedicationLogger": the duplicate guard (5-minute window, absolute delta
/// forward and backward, a confirmation to override), the session date by the 18:00 rule,
/// `local_offset_minutes`, and what an entry must be.
@Suite struct MedicationTests {
    static let ny = TimeZone(identifier: "America/New_York")!
    /// 2024-01-16 08:00 EST (13:00Z).
    static let morning = Date(timeIntervalSince1970: 1_705_410_000)

    static func record(_ id: String, _ medication: String = "adderall_ir", at: Date) -> MedicationRecord {
        MedicationRecord(id: id, sessionID: nil, sessionDate: "2024-01-15", medicationID: medication, doseValue: 10, doseUnit: "mg",
                         formulation: "ir", takenAt: at, localOffsetMinutes: -300, notes: nil, confirmedDuplicate: false,
                         createdAt: at, source: .cli(uid: 1000))
    }

    static func decide(_ entry: MedicationEntry, confirmed: Bool = false, nearby: [MedicationRecord] = [],
                       now: Date = morning.addingTimeInterval(3600)) -> MedicationLog.Decision {
        MedicationLog.decide(entry, confirmed: confirmed, nearby: nearby, now: now, timeZone: ny,
                             sessionID: { $0 == "2024-01-15" ? "S15" : nil }, id: "m1", source: .cli(uid: 1000))
    }

    static func entry(at: Date?, _ medication: String = "adderall_ir", dose: Double = 10, unit: String = "mg") -> MedicationEntry {
        MedicationEntry(medicationID: medication, doseValue: dose, doseUnit: unit, takenAt: at)
    }

    @Test(arguments: [-299.0, -1, 0, 1, 299])
    func withinFiveMinutesEitherSideIsADuplicate(seconds: Double) {
        // 4:59 before or after, or the same second: refused without a confirmation.
        let earlier = Self.record("a", at: Self.morning)
        let decision = Self.decide(Self.entry(at: Self.morning.addingTimeInterval(seconds)), nearby: [earlier])
        guard case .refused(let r) = decision else { Issue.record("\(seconds) s apart was logged: \(decision)"); return }
        #expect(r.code == "409_DUPLICATE_MEDICATION")
        #expect(Written.refusal(r, in: Self.ny).contains("Adderall IR was already logged at 08:00, less than 5 minutes from this one"))
    }

    @Test(arguments: [-300.0, 300, 301, -3600])
    func fiveMinutesApartOrMoreIsNot(seconds: Double) {
        let earlier = Self.record("a", at: Self.morning)
        guard case .record(let m) = Self.decide(Self.entry(at: Self.morning.addingTimeInterval(seconds)), nearby: [earlier]) else {
            Issue.record("\(seconds) s apart was refused"); return
        }
        #expect(!m.confirmedDuplicate)
    }

    @Test func aConfirmationLogsTheDuplicateAndMarksIt() {
        let earlier = Self.record("a", at: Self.morning)
        guard case .record(let m) = Self.decide(Self.entry(at: Self.morning.addingTimeInterval(120)), confirmed: true, nearby: [earlier]) else {
            Issue.record("a confirmed duplicate was refused"); return
        }
        #expect(m.confirmedDuplicate)
        // A confirmation with nothing nearby is an ordinary entry.
        guard case .record(let plain) = Self.decide(Self.entry(at: Self.morning), confirmed: true) else { Issue.record("refused"); return }
        #expect(!plain.confirmedDuplicate)
    }

    @Test func anotherMedicationIsNoDuplicate() {
        let ir = Self.record("a", "adderall_ir", at: Self.morning)
        guard case .record(let m) = Self.decide(Self.entry(at: Self.morning, "adderall_xr"), nearby: [ir]) else {
            Issue.record("XR refused beside IR"); return
        }
        #expect(m.formulation == "xr")
    }

    @Test func theEntryBelongsToItsNightByThe18HourRule() {
        // 08:00 the next morning is the night of the 15th (before 18:00), linked to its session.
        guard case .record(let m) = Self.decide(Self.entry(at: Self.morning)) else { Issue.record("refused"); return }
        #expect(m.sessionDate == "2024-01-15")
        #expect(m.sessionID == "S15")
        #expect(m.localOffsetMinutes == -300)
        #expect(m.formulation == "ir")
        // 18:00 that day starts the night of the 16th, which the box has no session for.
        let six = Self.morning.addingTimeInterval(10 * 3600)
        guard case .record(let evening) = Self.decide(Self.entry(at: six), now: six) else { Issue.record("refused"); return }
        #expect(evening.sessionDate == "2024-01-16")
        #expect(evening.sessionID == nil)
        // 17:59:59 is still the 15th.
        guard case .record(let before) = Self.decide(Self.entry(at: six.addingTimeInterval(-1)), now: six) else { Issue.record("refused"); return }
        #expect(before.sessionDate == "2024-01-15")
        // Summer: the offset is EDT's.
        let july = Date(timeIntervalSince1970: 1_720_000_000)
        guard case .record(let summer) = Self.decide(Self.entry(at: july), now: july) else { Issue.record("refused"); return }
        #expect(summer.localOffsetMinutes == -240)
    }

    @Test func nowIsTheDefaultAndTheFutureIsRefused() {
        let now = Self.morning
        guard case .record(let m) = Self.decide(Self.entry(at: nil), now: now) else { Issue.record("refused"); return }
        #expect(m.takenAt == now && m.createdAt == now)
        // A minute ahead is boxctl's clock; more is a dose not yet taken.
        guard case .record = Self.decide(Self.entry(at: now.addingTimeInterval(60)), now: now) else { Issue.record("60 s ahead refused"); return }
        guard case .refused(let r) = Self.decide(Self.entry(at: now.addingTimeInterval(61)), now: now) else { Issue.record("future logged"); return }
        #expect(r.code == "400_INVALID_MEDICATION")
    }

    @Test func whatAnEntryMustBe() {
        for bad in [Self.entry(at: nil, "ritalin"), Self.entry(at: nil, dose: 0), Self.entry(at: nil, dose: -5),
                    Self.entry(at: nil, dose: 1000.5), Self.entry(at: nil, dose: .nan), Self.entry(at: nil, unit: "pills")] {
            guard case .refused(let r) = Self.decide(bad) else { Issue.record("\(bad) was logged"); continue }
            #expect(r.code == "400_INVALID_MEDICATION")
        }
        guard case .record(let decimal) = Self.decide(Self.entry(at: nil, dose: 7.5)) else { Issue.record("7.5 mg refused"); return }
        #expect(decimal.doseValue == 7.5)
    }

    /// Issue 29: 1e-10 mg was logged. A dose is what a prescription of Adderall can give: a
    /// quarter of a 5 mg tablet (1.25 mg) to the label's most in a day (60 mg), in any weight.
    @Test(arguments: [(1e-10, "mg"), (1.24, "mg"), (60.01, "mg"), (1000, "mg"), (1, "g"), (1000, "mcg"), (61_000, "mcg"),
                      (10, "ml"), (-5, "mg"), (0, "mg"), (Double.infinity, "mg")])
    func aDoseNoPrescriptionGivesIsRefused(dose: Double, unit: String) {
        guard case .refused(let r) = Self.decide(Self.entry(at: nil, dose: dose, unit: unit)) else {
            Issue.record("\(dose) \(unit) was logged"); return
        }
        #expect(r.code == "400_INVALID_MEDICATION")
    }

    @Test(arguments: [(1.25, "mg"), (5, "mg"), (30, "mg"), (60, "mg"), (1250, "mcg"), (0.06, "g")])
    func aDoseInTheRangeIsLogged(dose: Double, unit: String) {
        guard case .record = Self.decide(Self.entry(at: nil, dose: dose, unit: unit)) else { Issue.record("\(dose) \(unit) refused"); return }
    }

    @Test func theDoseRefusalSaysWhatIsWrong() {
        #expect(MedicationLog.doseProblem(-5, unit: "mg").map(Written.doseProblem) == "must be positive")
        #expect(MedicationLog.doseProblem(0, unit: "mg").map(Written.doseProblem) == "must be positive")
        #expect(MedicationLog.doseProblem(1e-10, unit: "mg").map(Written.doseProblem) == "must be from 1.25 to 60 mg, the range of a real dose of Adderall")
        #expect(MedicationLog.doseProblem(5, unit: "mcg").map(Written.doseProblem) == "must be from 1.25 to 60 mg (1250 to 60000 mcg), the range of a real dose of Adderall")
        #expect(MedicationLog.doseProblem(10, unit: "mg") == nil)
        guard case .refused(let r) = Self.decide(Self.entry(at: nil, dose: -5)) else { Issue.record("-5 mg logged"); return }
        #expect(Written.refusal(r, in: Self.ny) == "Not logged: the dose must be positive.")
    }

    /// Issue 29: an entry taken at 0001-01-01T00:00:00Z was filed under the night of
    /// 0001-12-31, where `med list` never looks. Up to 30 days back is logged; older is refused.
    @Test func anEntryFromLongAgoIsRefused() {
        let now = Self.morning
        let thirtyDays = now.addingTimeInterval(-30 * 86_400)
        guard case .record(let m) = Self.decide(Self.entry(at: thirtyDays), now: now) else { Issue.record("30 days back refused"); return }
        #expect(m.sessionDate == "2023-12-16")
        for old in [thirtyDays.addingTimeInterval(-1), Date(iso8601: "0001-01-01T00:00:00Z")!, Date(iso8601: "2023-01-16T13:00:00Z")!] {
            guard case .refused(let r) = Self.decide(Self.entry(at: old), now: now) else { Issue.record("\(old) was logged"); continue }
            #expect(r.code == "400_INVALID_MEDICATION")
        }
        guard case .refused(let r) = Self.decide(Self.entry(at: Date(iso8601: "0001-01-01T00:00:00Z")!), now: now) else { return }
        #expect(Written.refusal(r, in: Self.ny).contains("is more than 30 days ago; only what was taken in the last 30 days is logged"),
                "\(Written.refusal(r, in: Self.ny))")
        // The time is shown in the box's zone with its date: 2023-01-16 13:00Z is 08:00 in New York.
        guard case .refused(let year) = Self.decide(Self.entry(at: Date(iso8601: "2023-01-16T13:00:00Z")!), now: now) else { return }
        #expect(Written.refusal(year, in: Self.ny).hasPrefix("Not logged: 2023-01-16 08:00 is more than 30 days ago"))
    }
}
