import Foundation

/// SSOT 2.4.3, "Planner (Client-Only)": next week's target from the last week's nights.
/// It only suggests; the target changes only by a confirmed `setTarget` (the seed's
/// "Manual override: requires explicit confirmation", and "no auto-adjust in v1").
///
/// The rules, in the order they are tried (each with its reason on the suggestion):
/// 1. Revert: the last 3 closed nights with Dose 1 all missed the window (skipped, expired,
///    early or late) → the baseline, 165. Safety first: no week of data is needed.
/// 2. Insufficient data: fewer than 5 closed nights with Dose 1 in the last 7 session dates
///    → keep the target. (The seed's sketch returns the baseline here; its safety
///    constraint "require 7-day stability before any change" wins: no change on no data.)
/// 3. Stability: a night of that week began with another target → keep it; the new target
///    has not had its week yet.
/// 4. Too variable: under 70 % of the week's nights within ±15 min of the week's average
///    interval (a night without Dose 2 is not) → the baseline, as the seed says.
/// 5. Nudge down: average under 160 min and the target above 165 → 15 min earlier.
/// 6. Nudge up: average over target + 10 and the target under 225 → 15 min later.
/// 7. Otherwise keep it.
/// Whatever the rule, the suggestion is one of the valid targets {165, 180, 195, 210, 225},
/// so never under 150 or over 240.
public enum Planner {
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        case revertAfterMissedWindows = "revert_after_missed_windows"
        case insufficientData = "insufficient_data"
        case targetChangedThisWeek = "target_changed_this_week"
        case tooVariable = "too_variable"
        case nudgeDown = "nudge_down"
        case nudgeUp = "nudge_up"
        case keep
    }

    public struct Suggestion: Sendable, Hashable {
        public var current: Int
        public var target: Int
        public var reason: Reason
        /// Closed nights with Dose 1 in the week the rules looked at.
        public var nightsInWeek: Int
        public var averageInterval: Double?
        /// 0…1, nil with no nights in the week.
        public var consistency: Double?
        /// Consecutive missed windows, newest first.
        public var missedInARow: Int

        public var isChange: Bool { target != current }
    }

    /// `today` is tonight's session date (YYYY-MM-DD); the week is it and the 6 dates before.
    public static func suggestNextWeekTarget(nights: [NightFacts], currentTarget: Int, today: String,
                                             rules: DoseConstants = .box) -> Suggestion {
        let p = rules.planner
        let dosed = nights.filter { $0.isClosed && $0.dose1 != nil }.sorted { $0.sessionDate < $1.sessionDate }
        let missed = dosed.reversed().prefix { $0.missedWindow(rules.window) }.count
        let weekStart = SessionDate.adding(days: -(p.weekDays - 1), to: today) ?? today
        let week = dosed.filter { $0.sessionDate >= weekStart && $0.sessionDate <= today }
        let intervals = week.compactMap(\.intervalMinutes)
        let average = intervals.isEmpty ? nil : intervals.reduce(0, +) / Double(intervals.count)
        let consistency: Double? = week.isEmpty ? nil : Double(week.filter { n in
            guard let i = n.intervalMinutes, let average else { return false }
            return abs(i - average) <= p.consistencyBandMin
        }.count) / Double(week.count)

        func suggest(_ target: Int, _ reason: Reason) -> Suggestion {
            Suggestion(current: currentTarget, target: valid(target, rules.window), reason: reason, nightsInWeek: week.count,
                       averageInterval: average, consistency: consistency, missedInARow: missed)
        }
        if missed >= p.revertAfterMissedWindows { return suggest(p.baselineTargetMin, .revertAfterMissedWindows) }
        guard week.count >= p.minNightsInWeek else { return suggest(currentTarget, .insufficientData) }
        if week.contains(where: { $0.targetMinutes != currentTarget }) { return suggest(currentTarget, .targetChangedThisWeek) }
        guard let average, let consistency, consistency >= p.minConsistency else { return suggest(p.baselineTargetMin, .tooVariable) }
        let lowest = rules.window.validTargetsMin.min() ?? p.baselineTargetMin
        let highest = rules.window.validTargetsMin.max() ?? p.baselineTargetMin
        if average < p.nudgeDownBelowAvgMin && currentTarget > lowest { return suggest(currentTarget - p.nudgeStepMin, .nudgeDown) }
        if average > Double(currentTarget) + p.nudgeUpAboveTargetMin && currentTarget < highest {
            return suggest(currentTarget + p.nudgeStepMin, .nudgeUp)
        }
        return suggest(currentTarget, .keep)
    }

    /// The valid target nearest `minutes` (the earlier on a tie): a current target outside
    /// the set (an old config) never passes through.
    static func valid(_ minutes: Int, _ window: DoseConstants.Window) -> Int {
        window.validTargetsMin.min { abs($0 - minutes) < abs($1 - minutes) || (abs($0 - minutes) == abs($1 - minutes) && $0 < $1) }
            ?? window.defaultTargetMin
    }
}

/// Session dates (YYYY-MM-DD) as calendar days, zone-free.
public enum SessionDate {
    static let calendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()
    static let format = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).year().month().day().dateSeparator(.dash)

    /// The day, or nil unless `text` is a real calendar date written YYYY-MM-DD.
    public static func date(_ text: String) -> Date? {
        guard text.count == 10, let d = try? format.parse(text), format.format(d) == text else { return nil }
        return d
    }

    public static func text(_ date: Date) -> String { format.format(date) }

    public static func adding(days: Int, to text: String) -> String? {
        guard let d = date(text), let moved = calendar.date(byAdding: .day, value: days, to: d) else { return nil }
        return self.text(moved)
    }
}
