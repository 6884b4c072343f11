import DoseCore
import Foundation
import NightLog
import PacingCore

/// The evening before (#33): the core keeps the evening's drinks; PacingCore's engine
/// looks at them after every batch of transitions that changed them, and when a window or
/// a cooldown ends (the core's deadline); what it says is an action of the core.
extension Engine {
    /// Runs the pacing engine if the evening needs a look, and gives the core its verdict.
    func settleEvening() {
        let settings = PacingSettings(sensitivity: config.evening.sensitivity, hydrationReminders: config.evening.hydrationReminders)
        guard let action = EveningPacing.action(for: state, settings: settings, at: clock.now()) else { return }
        transition(action, source: .system)
    }

    /// At start (and when the log opens late, or its times were re-derived after a clock step):
    /// the evening's open session, the alcoholic drinks within the guard's look-back and the
    /// latest pre-sleep log, as the log holds them. Unreadable: the guard cannot know; the
    /// journal says so and the read is tried again on the retry schedule (`needsRetry`).
    func restoreEvening() {
        guard let log else { return }
        let now = clock.now()
        do {
            let since = now.wall.addingTimeInterval(-state.settings.rules.safety.alcoholLookbackH * 3600)
            let drinks = try log.alcoholicDrinks(since: since)
            if drinks != state.drinks { transition(.drinksChanged(drinks), source: .system) }
            let evening = try log.latestEvening(), preSleep = try log.preSleepLog()
            if evening != state.evening { transition(.restoreEvening(evening), source: .system) }
            if preSleep != state.preSleep { transition(.restorePreSleep(preSleep), source: .system) }
            eveningUnread = false
        } catch {
            if !eveningUnread { logger.error("the evening's drinks could not be read (tried again every \(Self.retryInterval)): \(error)") }
            eveningUnread = true
        }
    }
}
