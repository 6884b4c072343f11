import BoxControl
import DoseCore
import Foundation
import NightLog

/// The supply (SSOT 1.1 "Inventory Management"): the count is the log's (`supplyStatus`),
/// the rules are `Supply` in the core, and the reminder at Dose 1 is the reducer's; the
/// engine keeps the core's copy of the count current.
extension Engine {
    /// Reads the count again after a write that may have changed it, and tells the core.
    func settleSupply() {
        guard supplyStale, let log else { return }
        do {
            let supply = try log.supplyStatus(rules: state.settings.rules)
            supplyStale = false
            if supply != state.supply { transition(.supplyChanged(supply), source: .system) }
        } catch {
            // Kept stale: read again after the next action. The night goes on; the count waits.
            logger.error("the supply could not be read: \(error)")
        }
    }

    /// A refill or a correction: an action of the core (`Action.changeSupply`) against the
    /// count the log holds now.
    func changeSupply(_ change: SupplyChange, source: Source) -> Reply {
        guard let log else {
            return notDone("Not recorded", logFaultDetail ?? "the night log is not open")
        }
        let current: SupplyStatus?
        do { current = try log.supplyStatus(rules: state.settings.rules) } catch {
            return notDone("Not recorded", "the night log cannot be read: \(error)")
        }
        return reply(apply(.changeSupply(change, current: current), source: source))
    }
}

extension Engine {
    /// A patient's-record command the log could not take (medication, supply, forget): 507,
    /// nothing changed, why in words.
    func notDone(_ what: String, _ why: String) -> Reply {
        .failed(code: "507_NOT_RECORDED", message: "\(what): \(why)", status: nil)
    }
}

extension LogRecord {
    /// Changes the count of doses left: a dose taken or undone, a refill or an adjustment.
    var changesSupply: Bool {
        switch self {
        case .dose, .undone, .supply: true
        default: false
        }
    }
}
