import BoxControl
import BoxWords
import DoseCore
import Foundation
import NightLog

/// Data management (SSOT 2.4.3): what may go is `Forgetting.plan`'s to decide; the engine
/// reads the nights, asks for the confirmation with the counts, then deletes.
extension Engine {
    func forget(from: String?, to: String, confirmed: Bool) -> Reply {
        let zone = state.settings.timeZone
        guard let log else {
            return notDone("Nothing deleted", logFaultDetail ?? "the night log is not open")
        }
        do {
            let nights = try log.nightsToForget(from: from, to: to)
            let plan = Forgetting.plan(nights, latestSessionID: state.night.session?.id, now: clock.now().wall, rules: state.settings.rules)
            let kept = plan.kept.map { "\($0.night.sessionDate) is kept: \(Written.keptReason($0.because, in: zone))." }
            let range = from.map { "\($0) to \(to)" } ?? "up to \(to)"
            guard !plan.forget.isEmpty else {
                return .refused(code: "404_NOTHING_TO_FORGET",
                                message: (["No night to forget \(range)."] + kept).joined(separator: " "), status: nil)
            }
            guard confirmed else {
                let counts = try log.forgetCounts(plan, from: from, to: to)
                return .refused(code: "428_CONFIRMATION_REQUIRED",
                                message: (["This deletes \(counts.text), \(range). It cannot be undone; export first if you want a copy. Add --confirm to delete."] + kept)
                                    .joined(separator: " "), status: nil)
            }
            let counts = try log.forget(plan, from: from, to: to)
            feedSignal.notify()
            logger.notice("forgot \(counts.text), \(range)")
            return .done((["Deleted \(counts.text), \(range)."] + kept).joined(separator: " "), status: nil)
        } catch {
            return notDone("Nothing deleted", "\(error)")
        }
    }
}
