import DoseCore
import Foundation

/// What one evaluation decided: the events to record (in the rules' order), the pace now, and
/// when to look again (a drink leaving a window, a cooldown or a quiet time ending).
public struct PacingResult: Sendable, Hashable {
    public var events: [PacingEvent]
    public var pace: PaceStatus
    public var nextCheck: Date?
}

/// Take Care's pacing engine (seed 002, "Pacing Engine"): pure and rule based, no BAC. It reads
/// the evening's drinks, the settings, the time and the recent events (for the cooldowns) and
/// says what to tell the person. Every number is constants.json's (`pacing`).
///
/// The rules, in order:
/// 1. rapid repeat: `rapid_repeat_drinks` alcoholic drinks within the preset's window: caution;
/// 2. fast pace: standard units in the last `fast_pace_window_min` above the preset's: slow down;
/// 3. escalation: units in the last `escalation_window_min` at or above the preset's: slow down,
///    with water in its words;
/// 4. shot stacking: `shot_stacking_shots` shots within the preset's window: "Take a break";
/// 5. water check: every `hydration_cadence` alcoholic drinks, once per such drink, unless
///    water was logged in the last `hydration_quiet_min` or a check came that recently;
/// 6. nice reset: a warning in the last `reset_after_warning_within_min` and no alcoholic drink
///    for `reset_quiet_min`, once in `reset_cooldown_min`.
/// Rules 1-4 are not repeated within `warning_cooldown_min` of their last event. The pace is
/// the worst among the pace rules whose condition holds now, told or not.
///
/// A drink is inside a window of N minutes while less than N minutes have passed since it.
public enum PacingEngine {
    /// `afterDrink` false: the look comes from time passing alone (a window or cooldown ended),
    /// and only the nice reset may be told; the pace still follows the windows. The seed's app
    /// looks when a drink is logged, so a warning or a water check answers a drink, never a
    /// quiet quarter of an hour.
    public static func evaluate(_ logs: [DrinkLog], settings: PacingSettings, now: Date, recentEvents: [PacingEvent],
                                afterDrink: Bool = true, rules: DoseConstants.Pacing = DoseConstants.box.pacing) -> PacingResult {
        let preset = settings.sensitivity.preset(rules)
        let w = Windows(logs: logs.filter { $0.at <= now }, now: now)
        func last(_ code: PacingCode) -> Date? { recentEvents.filter { $0.code == code && $0.at <= now }.map(\.at).max() }
        func cooled(_ code: PacingCode, _ minutes: Double) -> Bool {
            guard let at = last(code) else { return true }
            return now.timeIntervalSince(at) >= minutes * 60
        }

        var holding: [PacingCode] = []
        if w.alcoholicCount(within: preset.rapidRepeatWindowMin) >= rules.rapidRepeatDrinks { holding.append(.rapidRepeat) }
        if w.units(within: rules.fastPaceWindowMin) > preset.fastPaceUnits { holding.append(.fastPace) }
        if w.units(within: rules.escalationWindowMin) >= preset.escalationUnits { holding.append(.escalation) }
        if w.count(.shot, within: preset.shotStackingWindowMin) >= rules.shotStackingShots { holding.append(.shotStacking) }
        var events = afterDrink ? holding.filter { cooled($0, rules.warningCooldownMin) }.map { PacingEvent($0, at: now) } : []

        // The water check: the drink that made the count a multiple of the cadence, not yet checked.
        let alcoholic = w.logs.filter(\.isAlcoholic).sorted { $0.at < $1.at }
        if afterDrink, settings.hydrationReminders, settings.hydrationCadence > 0, !alcoholic.isEmpty, alcoholic.count % settings.hydrationCadence == 0,
           let due = alcoholic.last?.at, (last(.waterCheck) ?? .distantPast) < due,
           w.count(.water, within: rules.hydrationQuietMin) == 0, cooled(.waterCheck, rules.hydrationQuietMin) {
            events.append(PacingEvent(.waterCheck, at: now))
        }
        // Nice reset: after a warning, a quiet stretch.
        let lastWarning = recentEvents.filter { $0.code.isWarning && $0.at <= now }.map(\.at).max()
        let sinceDrink = w.sinceLastAlcoholic
        if let lastWarning, now.timeIntervalSince(lastWarning) < rules.resetAfterWarningWithinMin * 60,
           sinceDrink.map({ $0 >= rules.resetQuietMin * 60 }) ?? true, events.isEmpty, cooled(.niceReset, rules.resetCooldownMin) {
            events.append(PacingEvent(.niceReset, at: now))
        }

        let pace = holding.map(\.pace).max() ?? .good
        return PacingResult(events: events, pace: pace, nextCheck: nextCheck(w, preset: preset, rules: rules, recent: recentEvents + events))
    }

    /// The soonest instant after now at which a rule's answer may change.
    static func nextCheck(_ w: Windows, preset: DoseConstants.Pacing.Preset, rules: DoseConstants.Pacing, recent: [PacingEvent]) -> Date? {
        var at: [Date] = []
        for d in w.logs {
            for minutes in [preset.rapidRepeatWindowMin, rules.fastPaceWindowMin, rules.escalationWindowMin,
                            preset.shotStackingWindowMin, rules.hydrationQuietMin, rules.resetQuietMin] {
                at.append(d.at.addingTimeInterval(minutes * 60))
            }
        }
        for e in recent {
            let minutes = e.code.isWarning ? rules.warningCooldownMin : e.code == .waterCheck ? rules.hydrationQuietMin : rules.resetCooldownMin
            at.append(e.at.addingTimeInterval(minutes * 60))
        }
        return at.filter { $0 > w.now }.min()
    }
}

/// The seed's rolling-window helpers: counts over the last N minutes as of `now`.
struct Windows {
    let logs: [DrinkLog]
    let now: Date

    func inside(_ minutes: Double) -> [DrinkLog] { logs.filter { now.timeIntervalSince($0.at) < minutes * 60 } }
    func alcoholicCount(within minutes: Double) -> Int { inside(minutes).filter(\.isAlcoholic).count }
    func units(within minutes: Double) -> Double { inside(minutes).filter(\.isAlcoholic).map(\.units).reduce(0, +) }
    func count(_ type: DrinkType, within minutes: Double) -> Int { inside(minutes).filter { $0.type == type }.count }
    var sinceLastAlcoholic: TimeInterval? { logs.filter(\.isAlcoholic).map(\.at).max().map { now.timeIntervalSince($0) } }
    var totalAlcoholic: Int { logs.filter(\.isAlcoholic).count }
}
