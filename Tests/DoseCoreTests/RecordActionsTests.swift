import DoseCore
import Foundation
import Testing

/// The patient's record beyond the night (SSOT 2.4.2 medications, SSOT 1.1 supply) changes
/// by actions of the reducer like a dose: a record to persist first, or a refusal with nothing.
@Suite struct RecordActionsTests {
    static let entry = MedicationEntry(medicationID: "adderall_ir", doseValue: 10)

    @Test func aMedicationIsARecordToPersistAndItsNight() {
        var h = Harness()
        h.takeDose1()
        let night = h.state.night.session?.id
        let outcome = h.cli(.logMedication(Self.entry, confirmed: false, nearby: [], night: night))
        guard case .accepted(.medicationLogged(let record)) = outcome else { Issue.record("\(outcome)"); return }
        #expect(h.lastEffects.first == .persist([.medication(record)]), "persisted before anything else")
        #expect(record.sessionID == night && record.takenAt == h.now.wall && record.source == .cli(uid: 1000))
        #expect(h.liveDoses.count == 1, "not a dose of the night")
    }

    @Test func aDuplicateIsRefusedWithNothingToPersistUntilConfirmed() {
        var h = Harness()
        guard case .accepted(.medicationLogged(let first)) = h.cli(.logMedication(Self.entry, confirmed: false, nearby: [], night: nil))
        else { Issue.record("not logged"); return }
        h.advance(minutes: 4)
        let again = h.cli(.logMedication(Self.entry, confirmed: false, nearby: [first], night: nil))
        #expect(again == .refused(.duplicateMedication(name: "Adderall IR", at: first.takenAt)))
        #expect(!h.lastEffects.contains { if case .persist = $0 { true } else { false } })
        guard case .accepted(.medicationLogged(let second)) = h.cli(.logMedication(Self.entry, confirmed: true, nearby: [first], night: nil))
        else { Issue.record("not logged when confirmed"); return }
        #expect(second.confirmedDuplicate)
    }

    @Test func aRefillSetsTheCountAtOnceAndAnAdjustmentBelowZeroIsRefused() {
        var h = Harness()
        let refill = h.cli(.changeSupply(.refill(doses: 18, notes: nil), current: nil))
        guard case .accepted(.supplyLogged(let record)) = refill else { Issue.record("\(refill)"); return }
        #expect(h.lastEffects.first == .persist([.supply(record)]))
        #expect(h.state.supply == SupplyStatus(remainingDoses: 18))
        let below = h.cli(.changeSupply(.adjust(doses: -20, notes: nil), current: h.state.supply))
        #expect(below == .refused(.invalidSupply(.belowZero(wouldBe: -2, now: 18))))
        #expect(h.state.supply?.remainingDoses == 18)
    }

    /// Forgetting: a confirmation first, nothing deleted until then; the latest night is kept
    /// whatever the range; the deletion is an effect the shell performs before the state counts.
    @Test func forgettingAsksFirstKeepsTheLatestNightAndThenDeletes() {
        var h = Harness()
        h.takeDose1()
        let tonight = Forgetting.Night(sessionID: h.state.night.session!.id, sessionDate: h.state.night.session!.date,
                                       lastDose: h.now.wall)
        let old = Forgetting.Night(sessionID: "old", sessionDate: "2026-10-01", lastDose: h.now.wall.addingTimeInterval(-50 * 86_400))
        let range = Forgetting.Range(from: nil, to: "2026-11-30")
        let only = h.cli(.forget(range, nights: [tonight], confirmed: true))
        #expect(only == .refused(.nothingToForget(range, kept: [.init(night: tonight, because: .latestNight)])))
        guard case .refused(.forgetNeedsConfirmation(let plan, _)) = h.cli(.forget(range, nights: [old, tonight], confirmed: false))
        else { Issue.record("deleted without a confirmation"); return }
        #expect(plan.forget == [old])
        #expect(!h.lastEffects.contains { if case .forget = $0 { true } else { false } })
        #expect(h.cli(.forget(range, nights: [old, tonight], confirmed: true)) == .accepted(.forgot(plan, range)))
        #expect(h.lastEffects.first == .forget(plan, range))
    }
}
