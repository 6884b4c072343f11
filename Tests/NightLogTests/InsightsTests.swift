import DoseCore
import Foundation
import Testing
@testable import NightLog

/// SSOT 2.4.3, "Insights Screen": on-time %, Dose 1 → Dose 2 intervals, natural-wake %,
/// WASO, `insufficient_data`. Read from a real log of 60 nights, 2024-03-01 to 2024-04-29,
/// through `nightFacts` (the history/analytics query) and `Insights.summarize`.
@Suite struct InsightsTests {
    static let firstDate = "2024-03-01"

    /// Night `i` follows pattern `i % 10` (Dose 1 at +30 min; intervals from Dose 1):
    ///   0: Dose 2 at 165, one snooze, check-in quality 4            on time (0 off)
    ///   1: bathroom at 60, Dose 2 at 170, check-in quality 2          on time (5 off)
    ///   2: Dose 2 at 140 by early override                            missed, early
    ///   3: wake_temp at 60 (natural wake), Dose 2 at 160               on time (5 off)
    ///   4: Dose 2 skipped (drowsy)                                    missed
    ///   5: water 70, snack 80, two snoozes, Dose 2 at 175            on time (10 off: the edge)
    ///   6: Dose 2 at 245 by late override                             missed, late
    ///   7: Dose 2 at 155                                              on time (10 off: the edge)
    ///   8: no Dose 1 (a bathroom trip that must not count)            not a dosed night
    ///   9: wake_temp at 150 (not natural: the window is open), Dose 2 at 200, an extra dose at 230
    /// Every night ends with wake_final at 400 (never a night waking) and is closed.
    static func night(_ i: Int) -> [LogRecord] {
        let s = "N\(i)", date = SessionDate.adding(days: i, to: firstDate)!
        let m = Double(i) * 1440, d1 = m + 30
        func dose(_ tag: String, _ type: DoseEventType, _ after: Double, _ meta: DoseMetadata = .init()) -> LogRecord {
            Fixture.dose("\(s)-\(tag)", type, at: d1 + after, session: s, date: date, metadata: meta)
        }
        func event(_ tag: String, _ type: SleepEventType, _ after: Double) -> LogRecord {
            Fixture.sleepEvent("\(s)-\(tag)", type, at: d1 + after, session: s, date: date)
        }
        func checkIn(_ quality: Int) -> LogRecord {
            Fixture.checkIn("\(s)-ci", at: d1 + 450, session: s, date: date, answers: CheckInAnswers(sleepQuality: quality))
        }
        var out = [Fixture.open(s, date: date, at: m)]
        if i % 10 != 8 { out.append(dose("d1", .dose1, 0)) }
        switch i % 10 {
        case 0: out += [dose("sn1", .snooze, 160, DoseMetadata(snoozeNumber: 1)), dose("d2", .dose2, 165)]
        case 1: out += [event("bath", .bathroom, 60), dose("d2", .dose2, 170)]
        case 2: out += [dose("d2", .dose2, 140, DoseMetadata(isEarly: true))]
        case 3: out += [event("wt", .wakeTemp, 60), dose("d2", .dose2, 160)]
        case 4: out += [dose("skip", .dose2Skipped, 160, DoseMetadata(reason: SkipReason.drowsy.rawValue))]
        case 5: out += [event("water", .water, 70), event("snack", .snack, 80), dose("sn1", .snooze, 160, DoseMetadata(snoozeNumber: 1)),
                        dose("sn2", .snooze, 170, DoseMetadata(snoozeNumber: 2)), dose("d2", .dose2, 175)]
        case 6: out += [dose("d2", .dose2, 245, DoseMetadata(isLate: true))]
        case 7: out += [dose("d2", .dose2, 155)]
        case 8: out += [event("bath", .bathroom, 70)]
        default: out += [event("wt", .wakeTemp, 150), dose("d2", .dose2, 200), dose("x", .extraDose, 230, DoseMetadata(isExtraDose: true))]
        }
        out.append(event("wake", .wakeFinal, 400))
        if i % 10 == 0 { out.append(checkIn(4)) }
        if i % 10 == 1 { out.append(checkIn(2)) }
        let state: TerminalState = i % 10 == 8 ? .aborted : (i % 10 == 4 ? .skipped : .completed)
        out.append(Fixture.close(s, at: d1 + 451, state: state))
        return out
    }

    static func sixtyNights(_ dir: URL) throws -> NightLog {
        let log = try NightLog.open(stateDirectory: dir)
        for i in 0..<60 { try log.append(night(i)) }
        return log
    }

    @Test func theFiguresOfSixtyNightsAreTheHandCountedOnes() throws {
        try withTempDir { dir throws in
            let facts = try Self.sixtyNights(dir).nightFacts()
            #expect(facts.count == 60)
            let i = Insights.summarize(facts)
            #expect(i.state == .ready)
            // 6 cycles of 10; pattern 8 has no Dose 1: 6 × 9 = 54 nights.
            #expect(i.nights == 54)
            // Dose 2 in patterns 0,1,2,3,5,6,7,9: 6 × 8 = 48.
            #expect(i.dose2Taken == 48)
            // On time in 0,1,3,5,7: 6 × 5 = 30 of 54 = 55.555…%.
            #expect(i.onTime == 30)
            #expect(abs(i.onTimePercent! - 55.5555555) < 1e-6)
            // Natural wake only in pattern 3 (pattern 9's wake_temp is at 150): 6 of 54 = 11.11…%.
            #expect(i.naturalWakes == 6)
            #expect(abs(i.naturalWakePercent! - 11.1111111) < 1e-6)
            // Skipped: pattern 4, drowsy, 6. Missed windows: 2, 4, 6 → 18. Early 6, late 6.
            #expect(i.skipped == 6)
            #expect(i.skipReasons == [.drowsy: 6])
            #expect(i.missedWindows == 18)
            #expect(i.earlyOverrides == 6)
            #expect(i.lateOverrides == 6)
            // Snoozes: 1 (pattern 0) + 2 (pattern 5) = 3 a cycle → 18. Extra doses: 6.
            #expect(i.snoozes == 18)
            #expect(i.extraDoses == 6)
            // Night wakings: bathroom (1) + wake_temp (3) + water, snack (5) + wake_temp (9) = 5 a
            // cycle → 30 (pattern 8's bathroom is not a dosed night); 30 / 54 = 0.5555… a night.
            #expect(i.nightWakings == 30)
            #expect(abs(i.wakingsPerNight! - 30.0 / 54) < 1e-9)
            // Intervals, 8 a cycle: 140 155 160 165 170 175 200 245 → sum 1410, mean 176.25.
            // 48 sorted values, 6 of each: the 24th is 165 and the 25th 170 → median 167.5.
            // In the window (150–240): all but 140 and 245 → 6 × 6 = 36.
            let iv = try #require(i.intervals)
            #expect(iv.count == 48)
            #expect(abs(iv.mean - 176.25) < 1e-9)
            #expect(iv.median == 167.5)
            #expect(iv.min == 140)
            #expect(iv.max == 245)
            #expect(iv.inWindow == 36)
            // Check-ins: qualities 4 and 2, 6 of each → 12, mean 3.
            #expect(i.checkIns == 12)
            #expect(i.sleepQualityMean == 3)
        }
    }

    @Test func theFactsOfOneNightAreTheLogs() throws {
        try withTempDir { dir throws in
            let facts = try Self.sixtyNights(dir).nightFacts(from: "2024-03-03", to: "2024-03-10")
            // 03-03 is night 2 … 03-10 is night 9.
            #expect(facts.map(\.sessionDate) == (2...9).map { SessionDate.adding(days: $0, to: Self.firstDate)! })
            let early = facts[0], skip = facts[2], late = facts[4], none = facts[6], extra = facts[7]
            #expect(early.earlyOverride && !early.lateOverride && early.intervalMinutes == 140 && early.missedWindow(DoseConstants.box.window))
            #expect(skip.skipped && skip.skipReason == .drowsy && skip.dose2 == nil && skip.terminalState == .skipped)
            #expect(late.lateOverride && late.intervalMinutes == 245)
            #expect(none.dose1 == nil && none.nightWakings == 1 && !none.missedWindow(DoseConstants.box.window))
            #expect(extra.extraDoses == 1 && extra.nightWakings == 1 && !extra.naturalWake)
            #expect(facts[1].naturalWake && facts[1].onTime && facts[1].intervalMinutes == 160)
        }
    }

    @Test func fewNightsAreInsufficientData() throws {
        try withTempDir { dir throws in
            let log = try NightLog.open(stateDirectory: dir)
            for i in 0..<3 { try log.append(Self.night(i)) }
            // Nights 0, 1, 2 have Dose 1 but an open night does not count: 2 < 3.
            try log.append(Array(Self.night(3).dropLast()))
            let i = Insights.summarize(try log.nightFacts())
            #expect(i.nights == 3)
            #expect(i.state == .ready)
            let two = Insights.summarize(Array(try log.nightFacts().dropFirst()))
            #expect(two.nights == 2, "nights 1 and 2; night 3 is open")
            #expect(two.state == .insufficientData)
            let none = Insights.summarize([])
            #expect(none.state == .insufficientData)
            #expect(none.onTimePercent == nil && none.intervals == nil && none.wakingsPerNight == nil)
        }
    }

    @Test func thePlannerReadsTheLastWeekOfTheLog() throws {
        try withTempDir { dir throws in
            let facts = try Self.sixtyNights(dir).nightFacts()
            // The week ending with night 59 (2024-04-29) is nights 53…59: dosed 53 (160), 54 (skip),
            // 55 (175), 56 (245), 57 (155), 59 (200) = 6. Average of the five intervals 935/5 = 187;
            // within ±15 (172…202): 175, 200 → 2 of 6 = 0.33 < 0.7 → too variable → 165.
            let s = Planner.suggestNextWeekTarget(nights: facts, currentTarget: 165, today: "2024-04-29")
            #expect(s.reason == .tooVariable)
            #expect(s.target == 165)
            #expect(s.nightsInWeek == 6)
            #expect(s.averageInterval == 187)
            #expect(s.missedInARow == 0)
        }
    }
}
