import BoxWords
import DoseCore
import Foundation

/// The evening before (#33) in `boxctl status`: the open pacing session's drinks and pace,
/// and the alcoholic drinks the guard at Dose 1 counts (within `safety.alcohol_lookback_h`).
public struct EveningStatus: Codable, Sendable, Hashable {
    /// good, caution or slow_down; nil when no session is open.
    public var pace: String?
    /// The open session's alcoholic drinks and their standard units, and its water.
    public var drinks: Int
    public var units: Double
    public var water: Int
    public var lastDrinkAt: Date?
    /// When the session ends by itself (the timeout after the last drink), unless Dose 1 ends it first.
    public var endsAt: Date?
    /// The alcoholic drinks a Dose 1 now would ask about.
    public var drinksBeforeDose1: Int
    /// The alcoholic drinks logged since tonight's Dose 1, which Dose 2 asks about.
    public var drinksSinceDose1: Int?

    public init?(state: BoxState, at now: Moment) {
        // Only while the next press would be a Dose 1: after it, the drinks are on its record.
        let nextIsDose1 = [.noDose1, .completed].contains(state.phase(at: now))
        let guarded = nextIsDose1 ? state.drinksBefore(now) : 0
        let since = state.drinksSinceDose1(now)
        guard state.evening != nil || guarded > 0 || since > 0 else { return nil }
        drinksSinceDose1 = since > 0 ? since : nil
        let e = state.evening
        pace = e?.pace.rawValue
        drinks = e?.alcoholicDrinks ?? 0
        units = e?.alcoholicUnits ?? 0
        water = e?.drinks.filter { !$0.isAlcoholic }.count ?? 0
        lastDrinkAt = e?.drinks.map(\.at).max()
        endsAt = e?.endsAt(state.settings.rules.pacing)
        drinksBeforeDose1 = guarded
    }

    /// "Evening: 3 drinks (3.5 units), 1 water, last at 21:40; pace: slow down" and the guard's line.
    public func lines(in zone: TimeZone) -> [String] {
        var lines: [String] = []
        if let pace {
            let last = lastDrinkAt.map { ", last at \(LocalTime.hhmm($0, in: zone))" } ?? ""
            let waters = water > 0 ? ", \(water) water" : ""
            lines.append("Evening: \(Written.drinks(drinks)) (\(Written.units(units)))\(waters)\(last); pace: "
                + pace.replacingEvery("_", with: " "))
        }
        if drinksBeforeDose1 > 0 {
            lines.append("Dose 1 asks first: \(Written.drinks(drinksBeforeDose1)) logged today (XYWAV must not be taken with alcohol)")
        }
        if let n = drinksSinceDose1 {
            lines.append("Dose 2 asks first: \(Written.drinks(n)) logged since Dose 1 (XYWAV must not be taken with alcohol)")
        }
        return lines
    }
}
