import BoxControl
import BoxHardware
import DoseCore
import Foundation
import NightLog

// Button edges in: the recognisers, their deadlines, the gestures they give.
extension Engine {
    // MARK: - Inputs

    /// One edge. `fromSource`: it came through the edge source's stream (the pump), and is
    /// counted against the source's `edgesYielded`.
    public func handle(_ e: ButtonEdge, fromSource: Bool = false) {
        if fromSource { edgesFromSource += 1 }
        guard var r = recognizers[e.button] else {
            logger.warning("edge from unknown button \(e.button)")
            return
        }
        let events = r.handle(e.edge, doubleEnabled: state.doubleIsMeaningful(button: e.button, at: clock.now()))
        recognizers[e.button] = r
        if !r.isPressed { lastReleaseEdge[e.button] = e.edge.at }
        deliver(events, button: e.button, edgeAt: e.edge.at)
        reschedule()
    }

    /// Fires the recognisers' deadlines that have passed on the edge clock, unless the source
    /// has yielded edges the pump has not handed over yet: those came first (the engine was
    /// busy, e.g. in an SD card's fsync), and a deadline decided before them would see a
    /// stale level (a bouncy release read as a second press; the virtual box caught it). The
    /// pump's next `handle` advances the recogniser in edge order and reschedules. A pump
    /// that stopped never holds the deadlines back longer than `edgeBacklogLimit`.
    func fireGestureDeadlines() {
        let now = clock.edgeNow()
        if let yielded = hardware.edgesYielded(), yielded > edgesFromSource {
            let since = edgeBacklogSince ?? now
            edgeBacklogSince = since
            if now - since < Self.edgeBacklogLimit { return }
        }
        edgeBacklogSince = nil
        for name in recognizers.keys.sorted() {
            guard var r = recognizers[name], let d = r.nextDeadline, d <= now else { continue }
            let events = r.advance(to: now, doubleEnabled: state.doubleIsMeaningful(button: name, at: clock.now()))
            recognizers[name] = r
            deliver(events, button: name, edgeAt: nil)
        }
    }

    func deliver(_ events: [GestureEvent], button: String, edgeAt: Duration?) {
        for ev in events {
            _ = apply(.gesture(ev.gesture, button: button), source: .button(button))
            // The ack flash is written synchronously inside apply, so this is after the LED write.
            if ev.gesture == .pressed, let edgeAt { pressLatencies.append(clock.edgeNow() - edgeAt) }
            if ev.gesture == .single, let released = lastReleaseEdge[button] { commitDelays.append(clock.edgeNow() - released) }
        }
    }
}
