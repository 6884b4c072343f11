import DoseCore
import Foundation

/// The pacing engine run over the core's open evening: the shell calls this after every
/// batch of transitions (and the core's deadline wakes it at `nextCheck`), and applies the
/// action it returns. Pure: the same state and time give the same verdict.
public enum EveningPacing {
    /// `.paced` when the evening's drinks changed or a window or cooldown ended; nil otherwise.
    public static func action(for state: BoxState, settings: PacingSettings, at now: Moment) -> Action? {
        guard let evening = state.evening, evening.dueForLook(at: now.wall) else { return nil }
        let rules = state.settings.rules.pacing
        let logs = evening.drinks.map { DrinkLog(id: $0.id, at: $0.at, type: $0.type, units: $0.units, rules: rules) }
        let recent = evening.told.compactMap { r in PacingCode(rawValue: r.code).map { PacingEvent($0, at: r.at.wall) } }
        let result = PacingEngine.evaluate(logs, settings: settings, now: now.wall, recentEvents: recent, afterDrink: evening.drinkSinceLook,
                                           rules: rules)
        let notes = result.events.map { PacingNote(code: $0.code.rawValue, message: $0.code.message, severity: $0.code.severity) }
        return .paced(PacingVerdict(notes: notes, pace: result.pace, nextCheck: result.nextCheck))
    }
}
