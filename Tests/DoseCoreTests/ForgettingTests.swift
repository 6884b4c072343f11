import BoxWords
import DoseCore
import Foundation
import Testing

/// SSOT 2.4.3 "Data Management", and what the box keeps for safety whatever is asked.
@Suite struct ForgettingTests {
    static let now = Date(timeIntervalSince1970: 1_764_000_000)

    static func night(_ id: String, lastDoseMinutesAgo: Double?) -> Forgetting.Night {
        Forgetting.Night(sessionID: id, sessionDate: "2026-11-\(id)", lastDose: lastDoseMinutesAgo.map { now.addingTimeInterval(-$0 * 60) })
    }

    @Test func theLatestNightAndARecentDoseAreKept() {
        let nights = [Self.night("10", lastDoseMinutesAgo: 20_000), Self.night("11", lastDoseMinutesAgo: nil),
                      Self.night("12", lastDoseMinutesAgo: 240), Self.night("13", lastDoseMinutesAgo: 239.9),
                      Self.night("14", lastDoseMinutesAgo: 30)]
        let plan = Forgetting.plan(nights, latestSessionID: "14", now: Self.now)
        // 240 min ago is old enough; 239.9 is not (safety.newDose1AfterLastDoseMin).
        #expect(plan.forget.map(\.sessionID) == ["10", "11", "12"])
        #expect(plan.kept.map(\.night.sessionID) == ["13", "14"])
        #expect(plan.kept.map(\.because) == [.recentDose(Self.now.addingTimeInterval(-239.9 * 60)), .latestNight])
        #expect(Written.keptReason(.latestNight, in: .gmt).contains("latest night"))
    }

    @Test func aNewBoxHasNothingLatest() {
        let plan = Forgetting.plan([Self.night("10", lastDoseMinutesAgo: 5000)], latestSessionID: nil, now: Self.now)
        #expect(plan.forget.count == 1 && plan.kept.isEmpty)
    }
}
