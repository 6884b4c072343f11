import DoseCore
import Foundation
import Testing
import TestSupport

/// SSOT 2.4.3, "Planner (Client-Only)": every rule of `suggestNextWeekTarget` and its
/// safety constraints, on hand-made weeks. "Today" is 2024-03-10; its week is 03-04…03-10.
@Suite struct PlannerTests {
    static let today = "2024-03-10"

    /// A closed night `daysAgo` before today: Dose 2 after `interval` minutes, or none.
    static func night(_ daysAgo: Int, _ interval: Double?, target: Int = 165, skipped: Bool = false,
                      dose1: Bool = true, closed: Bool = true) -> NightFacts {
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        return NightFacts(sessionDate: SessionDate.adding(days: -daysAgo, to: today)!, targetMinutes: target,
                          dose1: dose1 ? t0 : nil, dose2: interval.map { t0.addingTimeInterval($0 * 60) },
                          intervalMinutes: interval, skipped: skipped, terminalState: closed ? .completed : nil)
    }

    /// Seven nights, one a day up to today, at these intervals.
    static func week(_ intervals: [Double?], target: Int = 165) -> [NightFacts] {
        intervals.enumerated().map { night(intervals.count - 1 - $0.offset, $0.element, target: target) }
    }

    static func suggest(_ nights: [NightFacts], current: Int) -> Planner.Suggestion {
        Planner.suggestNextWeekTarget(nights: nights, currentTarget: current, today: today)
    }

    // MARK: insufficient data and the week

    @Test func fewerThanFiveNightsInTheWeekKeepTheTarget() {
        let four = Self.week([200, 200, 200, 200], target: 210)
        let s = Self.suggest(four, current: 210)
        #expect(s.reason == .insufficientData)
        #expect(s.target == 210, "no data is no reason to change (7-day stability)")
        #expect(s.nightsInWeek == 4)
        // The fifth night is enough to judge (and 200 in a 210 week is kept).
        #expect(Self.suggest(Self.week([200, 200, 200, 200, 200], target: 210), current: 210).reason == .keep)
    }

    @Test func theWeekIsTodayAndTheSixDatesBeforeIt() {
        // Four nights in the week and one eight days ago: still insufficient.
        let nights = Self.week([170, 170, 170, 170]) + [Self.night(7, 170)]
        #expect(Self.suggest(nights, current: 165).reason == .insufficientData)
        // Six days ago is in it.
        let inWeek = Self.week([170, 170, 170, 170]) + [Self.night(6, 170)]
        #expect(Self.suggest(inWeek, current: 165).reason == .keep)
    }

    @Test func nightsWithoutDose1OrStillOpenDoNotCount() {
        var nights = Self.week([170, 170, 170, 170])
        nights.append(Self.night(5, nil, dose1: false))
        nights.append(Self.night(0, nil, closed: false))
        let s = Self.suggest(nights, current: 165)
        #expect(s.reason == .insufficientData)
        #expect(s.nightsInWeek == 4)
        #expect(s.missedInARow == 0, "tonight, still open, has not missed its window")
    }

    // MARK: revert after 3 consecutive missed windows

    @Test func threeMissedWindowsInARowRevertTo165() {
        // Skipped, expired (no Dose 2), late (245): three misses, newest last.
        let nights = [Self.night(6, 195, target: 195), Self.night(5, 195, target: 195), Self.night(4, 195, target: 195),
                      Self.night(3, 195, target: 195), Self.night(2, nil, target: 195, skipped: true),
                      Self.night(1, nil, target: 195), Self.night(0, 245, target: 195)]
        let s = Self.suggest(nights, current: 195)
        #expect(s.reason == .revertAfterMissedWindows)
        #expect(s.target == 165)
        #expect(s.missedInARow == 3)
        // An early Dose 2 (149) misses too.
        let early = Self.week([195, 195, 195, 195, 149, 149, 149], target: 195)
        #expect(Self.suggest(early, current: 195).target == 165)
    }

    @Test func twoMissesOrABrokenStreakDoNotRevert() {
        let two = Self.week([195, 195, 195, 195, 195, nil, 241], target: 195)
        #expect(Self.suggest(two, current: 195).reason != .revertAfterMissedWindows)
        #expect(Self.suggest(two, current: 195).missedInARow == 2)
        // miss, in window, miss, miss: the streak is 2.
        let broken = Self.week([195, 195, 195, nil, 195, nil, nil], target: 195)
        #expect(Self.suggest(broken, current: 195).missedInARow == 2)
        // The window's own edges are not misses: 150 and 240 are inside it.
        let edges = Self.week([195, 195, 195, 195, 150, 240, 150], target: 195)
        #expect(Self.suggest(edges, current: 195).missedInARow == 0)
    }

    @Test func theRevertNeedsNoWeekOfData() {
        // Three nights, all missed, the target changed during them: revert anyway.
        let nights = [Self.night(2, nil, target: 225), Self.night(1, 120, target: 210), Self.night(0, nil, target: 210)]
        let s = Self.suggest(nights, current: 210)
        #expect(s.reason == .revertAfterMissedWindows)
        #expect(s.target == 165)
        #expect(s.isChange)
    }

    // MARK: 7-day stability

    @Test func aTargetChangedThisWeekIsKept() {
        // Nudge-down figures, but two nights of the week began at 180, not 195.
        var nights = Self.week([150, 150, 150, 150, 150, 150, 150], target: 195)
        nights[0].targetMinutes = 180
        nights[1].targetMinutes = 180
        let s = Self.suggest(nights, current: 195)
        #expect(s.reason == .targetChangedThisWeek)
        #expect(s.target == 195)
        // The same week all at 195 moves.
        #expect(Self.suggest(Self.week([150, 150, 150, 150, 150, 150, 150], target: 195), current: 195).reason == .nudgeDown)
    }

    // MARK: consistency

    @Test func aVariableWeekGoesBackToTheBaseline() {
        // Average 190; within ±15 of it: 180, 195, 200, 205 → 4 of 7 = 0.57 < 0.7.
        let variable = Self.week([150, 180, 195, 200, 205, 230, 170], target: 210)
        let s = Self.suggest(variable, current: 210)
        #expect(s.reason == .tooVariable)
        #expect(s.target == 165)
        #expect(s.consistency.map { abs($0 - 4.0 / 7) < 1e-9 } == true)
    }

    @Test func seventyPercentIsConsistentEnough() {
        // 7 nights with 5 consistent = 0.714 ≥ 0.7; with 4, 0.571 is not. Average of [180×5, 150, 210] = 180; 150 and 210 are 30 away.
        let five = Self.week([180, 180, 180, 180, 180, 150, 210], target: 180)
        #expect(Self.suggest(five, current: 180).reason == .keep)
        // A night without Dose 2 is never consistent: 5 of 7 → 4 of 7.
        let withSkip = Self.week([180, 180, 180, 180, nil, 150, 210], target: 180)
        #expect(Self.suggest(withSkip, current: 180).reason == .tooVariable)
    }

    @Test func consistencyBandEdgeIsInclusive() {
        // Average 180: 165 and 195 are exactly 15 away and count.
        let edge = Self.week([165, 195, 165, 195, 180, 180, 180], target: 180)
        #expect(Self.suggest(edge, current: 180).consistency == 1)
    }

    // MARK: nudges and bounds

    @Test func anAverageUnder160NudgesDownOneStep() {
        #expect(Self.suggest(Self.week(Array(repeating: 159, count: 7), target: 180), current: 180).target == 165)
        #expect(Self.suggest(Self.week(Array(repeating: 159, count: 7), target: 180), current: 180).reason == .nudgeDown)
        // 160 is not under 160.
        #expect(Self.suggest(Self.week(Array(repeating: 160, count: 7), target: 180), current: 180).reason == .keep)
        // Already at 165: nowhere lower to go.
        #expect(Self.suggest(Self.week(Array(repeating: 150, count: 7)), current: 165).reason == .keep)
    }

    @Test func anAverageOverTargetPlus10NudgesUpOneStep() {
        let up = Self.suggest(Self.week([190.5, 190.5, 190.5, 190.5, 190.5, 190.5, 190.5], target: 180), current: 180)
        #expect(up.reason == .nudgeUp)
        #expect(up.target == 195)
        // Exactly target + 10 stays.
        #expect(Self.suggest(Self.week(Array(repeating: 190, count: 7), target: 180), current: 180).reason == .keep)
        // At 225: nowhere higher to go, even at the window's edge.
        #expect(Self.suggest(Self.week(Array(repeating: 240, count: 7), target: 225), current: 225).target == 225)
    }

    @Test func aSuggestionIsAlwaysAValidTargetInsideTheWindow() {
        // Random weeks, any current value (even one outside the set): never under 150 or
        // over 240, always one of the five.
        var rng = SplitMix64(seed: 14)
        let valid = DoseConstants.box.window.validTargetsMin
        for _ in 0..<2000 {
            let current = Int.random(in: 120...300, using: &rng)
            let nights = (0..<Int.random(in: 0...12, using: &rng)).map { i -> NightFacts in
                let interval: Double? = Bool.random(using: &rng) ? nil : Double.random(in: 100...300, using: &rng)
                return Self.night(i % 9, interval, target: valid.randomElement(using: &rng)!)
            }
            let s = Self.suggest(nights, current: current)
            #expect(valid.contains(s.target), "\(s)")
            #expect(s.target >= 150 && s.target <= 240)
        }
    }
}
