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
        supplyStale = false
        guard let supply = try? log.supplyStatus(rules: state.settings.rules) else { return }
        if supply != state.supply { transition(.supplyChanged(supply), source: .system) }
    }

    func changeSupply(_ change: SupplyChange, source: Source) -> Reply {
        guard let log else {
            return .failed(code: "507_NOT_RECORDED", message: "Not recorded: \(logFaultDetail ?? "the night log is not open")", status: nil)
        }
        let current: SupplyStatus?
        do { current = try log.supplyStatus(rules: state.settings.rules) } catch {
            return .failed(code: "507_NOT_RECORDED", message: "Not recorded: the night log cannot be read: \(error)", status: nil)
        }
        switch Supply.decide(change, current: current, at: clock.now(), id: UUID().uuidString.lowercased(), source: source,
                             rules: state.settings.rules) {
        case .refused(let refusal):
            return .refused(code: refusal.code, message: refusal.message(timeZone: state.settings.timeZone), status: nil)
        case .record(let record):
            if case .failed(let failure) = write([.supply(record)]) {
                return .failed(code: "507_NOT_RECORDED", message: "Not recorded: \(failure)", status: nil)
            }
            settleSupply()
            let what = record.kind == .refillLogged ? "Refill logged: +\(record.doses) doses." : "Supply corrected by \(record.doses) doses."
            return .done("\(what) Supply: \(state.supply?.text ?? "\(record.remainingAfter) doses").", status: status())
        }
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
