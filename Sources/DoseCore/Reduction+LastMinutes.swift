import Foundation

// The last minutes of the window (#32): a soft tick each minute where no alert rings.
extension Reduction {
    /// The last minutes' tick that fell due, once: a soft tick (its words, "closing in N
    /// minutes", follow in `passTime`), never over a ringing alarm (the alarm wins), and not
    /// late (boxd was down at its minute). Returns the tick's offset when it played.
    mutating func giveMinuteTick() -> Duration? {
        guard let d1 = night.dose1, let elapsed = state.elapsedSinceDose1(at: now) else { return nil }
        let through = state.tickThrough
        guard let tick = state.minuteTicks.last(where: { tick in tick <= elapsed && through.map { tick > $0 } ?? true }) else { return nil }
        state.tickCursor = AlarmCursor(dose1ID: d1.id, through: tick)
        guard state.ringing == nil, elapsed - tick < .seconds(rules.alerts.minuteTickLateS) else { return nil }
        effects.append(.play(.minuteTick))
        return tick
    }
}
