import Foundation

/// One finished or open night as the insights, the planner and the report read it. The log
/// decides these facts once (NightLog's `nightFacts`, the same query as history and
/// analytics.csv), so an interval or a natural wake means the same thing everywhere.
public struct NightFacts: Sendable, Hashable {
    public var sessionDate: String
    /// The target the night began with.
    public var targetMinutes: Int
    public var dose1: Date?
    public var dose2: Date?
    /// Dose 1 to Dose 2, as `Moment.elapsed` measures it.
    public var intervalMinutes: Double?
    /// Dose 2 within ±10 min of the night's target (`DoseWindow.isOnTime`).
    public var onTime: Bool
    /// Woke by themselves before the window opened (analytics.csv's NaturalWake).
    public var naturalWake: Bool
    public var snoozeCount: Int
    public var skipped: Bool
    public var skipReason: SkipReason?
    /// Dose 2 taken before the window with a confirmed take, or after it.
    public var earlyOverride: Bool
    public var lateOverride: Bool
    public var extraDoses: Int
    /// Sleep events that mean the patient was up in the night (`SleepEventType.isNightWaking`).
    public var nightWakings: Int
    /// The morning check-in's answers and flags (its latest), if one was given (notes aside).
    public var checkIn: CheckInAnswers?
    /// Its sleep quality (1–5).
    public var sleepQuality: Int? { checkIn?.sleepQuality }
    /// Nil while the night is open.
    public var terminalState: TerminalState?
    /// The evening before it (drinks, the pre-sleep log), if anything was logged (#33).
    public var evening: EveningFacts?

    public init(sessionDate: String, targetMinutes: Int, dose1: Date? = nil, dose2: Date? = nil, intervalMinutes: Double? = nil,
                onTime: Bool = false, naturalWake: Bool = false, snoozeCount: Int = 0, skipped: Bool = false,
                skipReason: SkipReason? = nil, earlyOverride: Bool = false, lateOverride: Bool = false, extraDoses: Int = 0,
                nightWakings: Int = 0, checkIn: CheckInAnswers? = nil, terminalState: TerminalState? = .completed,
                evening: EveningFacts? = nil) {
        self.sessionDate = sessionDate
        self.targetMinutes = targetMinutes
        self.dose1 = dose1
        self.dose2 = dose2
        self.intervalMinutes = intervalMinutes
        self.onTime = onTime
        self.naturalWake = naturalWake
        self.snoozeCount = snoozeCount
        self.skipped = skipped
        self.skipReason = skipReason
        self.earlyOverride = earlyOverride
        self.lateOverride = lateOverride
        self.extraDoses = extraDoses
        self.nightWakings = nightWakings
        self.checkIn = checkIn
        self.terminalState = terminalState
        self.evening = evening
    }

    public var isClosed: Bool { terminalState != nil }

    /// Dose 2 was taken inside the window (150–240 min after Dose 1).
    public func tookDose2InWindow(_ window: DoseConstants.Window) -> Bool {
        guard let interval = intervalMinutes else { return false }
        return interval >= window.openMin && interval <= window.closeMin
    }

    /// A night with Dose 1 whose Dose 2 was not taken inside the window: skipped, expired,
    /// or taken early or late by override. The planner's "missed window".
    public func missedWindow(_ window: DoseConstants.Window) -> Bool {
        dose1 != nil && !tookDose2InWindow(window)
    }
}

extension SleepEventType {
    /// Up in the night: the box's measure of WASO. It has no sleep sensor, so it counts the
    /// wakings the patient logged (a wake, the bathroom, a drink, a snack); the final wake
    /// ends the night and is not one of them.
    public var isNightWaking: Bool {
        switch self {
        case .wakeTemp, .bathroom, .water, .snack: true
        default: false
        }
    }
}

/// SSOT 2.4.3, "Insights Screen": on-time %, Dose 1 → Dose 2 intervals, natural-wake %,
/// WASO, with `ready` and `insufficient_data` states. Closed nights with Dose 1 only: an
/// open night is not over, and a night without Dose 1 has no timing to judge.
public struct Insights: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        case ready
        case insufficientData = "insufficient_data"
    }
    public struct Intervals: Sendable, Hashable {
        public var count: Int
        public var mean: Double
        public var median: Double
        public var min: Double
        public var max: Double
        /// Intervals inside the 150–240 window.
        public var inWindow: Int
    }

    public var state: State
    /// Closed nights with Dose 1: the denominator of every percentage.
    public var nights: Int
    public var dose2Taken: Int
    public var onTime: Int
    public var naturalWakes: Int
    public var skipped: Int
    public var skipReasons: [SkipReason: Int]
    public var missedWindows: Int
    public var earlyOverrides: Int
    public var lateOverrides: Int
    public var snoozes: Int
    public var extraDoses: Int
    public var nightWakings: Int
    public var intervals: Intervals?
    /// Morning check-ins given, and their mean sleep quality (1–5).
    public var checkIns: Int
    public var sleepQualityMean: Double?

    /// Percent of nights, nil with no nights.
    public var onTimePercent: Double? { percent(onTime) }
    public var naturalWakePercent: Double? { percent(naturalWakes) }
    /// WASO as the box can know it: logged wakings per night.
    public var wakingsPerNight: Double? { nights == 0 ? nil : Double(nightWakings) / Double(nights) }

    private func percent(_ n: Int) -> Double? { nights == 0 ? nil : 100 * Double(n) / Double(nights) }

    public static func summarize(_ all: [NightFacts], rules: DoseConstants = .box) -> Insights {
        let nights = all.filter { $0.isClosed && $0.dose1 != nil }
        let intervals = nights.compactMap(\.intervalMinutes).sorted()
        let qualities = nights.compactMap(\.sleepQuality)
        var reasons: [SkipReason: Int] = [:]
        for n in nights where n.skipped { reasons[n.skipReason ?? .other, default: 0] += 1 }
        func count(_ p: (NightFacts) -> Bool) -> Int { nights.reduce(0) { $0 + (p($1) ? 1 : 0) } }
        func sum(_ v: (NightFacts) -> Int) -> Int { nights.reduce(0) { $0 + v($1) } }
        return Insights(
            state: nights.count >= rules.insights.minNights ? .ready : .insufficientData,
            nights: nights.count, dose2Taken: count { $0.dose2 != nil }, onTime: count(\.onTime),
            naturalWakes: count(\.naturalWake), skipped: count(\.skipped), skipReasons: reasons,
            missedWindows: count { $0.missedWindow(rules.window) }, earlyOverrides: count(\.earlyOverride),
            lateOverrides: count(\.lateOverride), snoozes: sum(\.snoozeCount), extraDoses: sum(\.extraDoses),
            nightWakings: sum(\.nightWakings),
            intervals: intervals.isEmpty ? nil : Intervals(
                count: intervals.count, mean: intervals.reduce(0, +) / Double(intervals.count),
                median: median(intervals), min: intervals[0], max: intervals[intervals.count - 1],
                inWindow: intervals.filter { $0 >= rules.window.openMin && $0 <= rules.window.closeMin }.count),
            checkIns: qualities.count,
            sleepQualityMean: qualities.isEmpty ? nil : Double(qualities.reduce(0, +)) / Double(qualities.count))
    }

    /// Of sorted values: the middle one, or the mean of the two middle ones.
    static func median(_ sorted: [Double]) -> Double {
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
