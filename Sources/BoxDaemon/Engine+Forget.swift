import BoxControl
import BoxWords
import DoseCore
import Foundation
import NightLog

/// Data management (SSOT 2.4.3): an action of the core (`Action.forget`, its rule
/// `Forgetting.plan`). The engine reads the nights of the range, applies it, and deletes only
/// when the core's `.forget` effect says so (`perform`); the reply counts what went.
extension Engine {
    func forget(from: String?, to: String, confirmed: Bool, source: Source) -> Reply {
        guard let log else {
            return notDone("Nothing deleted", logFaultDetail ?? "the night log is not open")
        }
        let range = Forgetting.Range(from: from, to: to)
        let nights: [Forgetting.Night]
        do { nights = try log.nightsToForget(from: from, to: to) } catch {
            return notDone("Nothing deleted", "the night log cannot be read: \(error)")
        }
        forgotten = nil
        let zone = state.settings.timeZone
        switch apply(.forget(range, nights: nights, confirmed: confirmed), source: source) {
        case .done(.refused(.forgetNeedsConfirmation(let plan, _))):
            // The confirmation says what would go, table by table.
            var counts: Forgetting.Counts?
            do { counts = try log.forgetCounts(plan, from: from, to: to) } catch {
                logger.warning("forget: the counts could not be read (the reply gives nights only): \(error)")
            }
            return .refused(code: Refusal.forgetNeedsConfirmation(plan, range).code,
                            message: Written.forgetting(plan, range, counts: counts, done: false, in: zone), status: nil)
        case .done(.accepted(.forgot(let plan, _))):
            return .done(Written.forgetting(plan, range, counts: forgotten, done: true, in: zone), status: nil)
        case let other:
            return reply(other)
        }
    }

    /// The `.forget` effect: deletes the plan's nights (before the state counts, like a write).
    func erase(_ plan: Forgetting.Plan, _ range: Forgetting.Range) -> String? {
        guard let log else { return logFaultDetail ?? "the night log is not open" }
        do {
            let counts = try log.forget(plan, from: range.from, to: range.to)
            forgotten = counts
            feedSignal.notify()
            logger.notice("forgot \(Written.counts(counts)), \(Written.range(range))")
            return nil
        } catch {
            return "\(error)"
        }
    }
}
