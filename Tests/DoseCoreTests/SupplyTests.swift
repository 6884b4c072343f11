import BoxWords
import Foundation
import Testing
@testable import DoseCore

/// SSOT 1.1 "Inventory Management" (2.4.3: the refill reminder "repeats daily until
/// resolved"): the count in doses, the reminder threshold, refills and corrections, and the
/// reminder at Dose 1.
@Suite struct SupplyTests {
    @Test func theReminderIsDueAtSevenNightsOrFewer() {
        // Two doses a night: 16 doses is 8 nights (not due), 15 is 7 (due), 14 is 7 (due).
        #expect(!SupplyStatus(remainingDoses: 16).refillDue)
        #expect(SupplyStatus(remainingDoses: 16).remainingNights == 8)
        #expect(SupplyStatus(remainingDoses: 15).refillDue)
        #expect(SupplyStatus(remainingDoses: 15).remainingNights == 7)
        #expect(SupplyStatus(remainingDoses: 14).refillDue)
        #expect(SupplyStatus(remainingDoses: 0).refillDue)
        // Doses taken after the snapshot come off it; no snapshot, no count.
        #expect(Supply.status(snapshot: 20, dosesTakenSince: 5)?.remainingDoses == 15)
        #expect(Supply.status(snapshot: nil, dosesTakenSince: 5) == nil)
        #expect(Written.supply(SupplyStatus(remainingDoses: 15)) == "15 doses (7 nights); refill due: log it with boxctl supply refill")
    }

    @Test func refillsAndCorrections() {
        let at = Harness.start, cli = Source.cli(uid: 1000)
        func decide(_ c: SupplyChange, current: Int?) -> Supply.Decision {
            Supply.decide(c, current: current.map { SupplyStatus(remainingDoses: $0) }, at: at, id: "x", source: cli)
        }
        guard case .record(let first) = decide(.refill(doses: 60, notes: nil), current: nil) else { Issue.record("refused"); return }
        #expect(first.kind == .refillLogged && first.remainingAfter == 60)
        guard case .record(let more) = decide(.refill(doses: 60, notes: "pharmacy"), current: 4) else { Issue.record("refused"); return }
        #expect(more.remainingAfter == 64)
        guard case .record(let spilled) = decide(.adjust(doses: -2, notes: "spilled"), current: 10) else { Issue.record("refused"); return }
        #expect(spilled.kind == .inventoryAdjustment && spilled.remainingAfter == 8)
        for (change, current) in [(SupplyChange.refill(doses: 0, notes: nil), 4), (.refill(doses: 1001, notes: nil), 4),
                                  (.adjust(doses: 0, notes: nil), 4), (.adjust(doses: -5, notes: nil), 4)] {
            guard case .refused(let r) = decide(change, current: current) else { Issue.record("\(change) was logged"); continue }
            #expect(r.code == "400_INVALID_SUPPLY")
        }
    }

    @Test func aLowSupplyAddsTheReminderToDose1OnceANight() {
        var h = Harness()
        h.send(.supplyChanged(SupplyStatus(remainingDoses: 15)), from: .system)
        h.takeDose1()
        #expect(h.sounds == [.successRefillDue])
        #expect(h.lastEffects.contains(.flash(.confirmationRefillDue, duration: nil)))
        let reminders = h.persisted.compactMap { if case .supply(let s) = $0 { s } else { nil } }
        #expect(reminders.map(\.kind) == [.refillReminder])
        #expect(reminders.first?.remainingAfter == 14)
        #expect(reminders.first?.sessionID == h.state.night.session?.id)
        // Dose 2 is the plain chime: the reminder is Dose 1's, and no alarm is ringing then.
        h.at(minutesAfterDose1: 165)
        h.press(.single)
        #expect(!h.sounds.contains(.successRefillDue))
    }

    @Test func enoughSupplyOrNoCountIsThePlainDose1() {
        var counted = Harness()
        counted.send(.supplyChanged(SupplyStatus(remainingDoses: 16)), from: .system)
        counted.takeDose1()
        #expect(counted.sounds == [.success])
        var uncounted = Harness()
        uncounted.takeDose1()
        #expect(uncounted.sounds == [.success])
        #expect(!uncounted.persisted.contains { if case .supply = $0 { true } else { false } })
    }
}
