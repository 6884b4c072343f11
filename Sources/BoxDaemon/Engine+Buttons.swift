import BoxHardware
import DoseCore
import Foundation

// Buttons in: the edge source hands its inputs (a real chip's or the simulated one's) to the
// engine's one input stream (Engine+Inputs): edges into the recognisers, whose gestures
// become actions, and the gesture deadlines the engine asked for, each after every edge
// stamped before it.
extension Engine {
    /// A source that ended has reported its fault: show it; the alarms keep running, and a
    /// gesture under way is decided on the engine's own timer (no edge can come now). (Not
    /// when boxd is stopping: then the buttons were let go first.)
    func sourceEnded() {
        guard buttonsLive else { return }
        buttonsLive = false
        resumeEdgeWaiters(all: true)
        tick()
    }

    /// One edge, in the source's order.
    func edgeCame(_ e: ButtonEdge) {
        lastEdgeAt[e.button] = e.edge.at
        defer { resumeEdgeWaiters() }
        guard var r = recognizers[e.button] else {
            logger.warning("edge from unknown button \(e.button)")
            return
        }
        // Every raw edge with its own timestamp (the edge clock: the kernel's, on GPIO), for
        // --verbose only: the virtual box judges chatter by what the kernel stamped.
        logger.debug("""
            edge \(e.button) \(e.edge.direction.isPressed(activeLow: r.activeLow) ? "down" : "up") \
            t=\(String(format: "%.6f", Double(e.edge.at.components.seconds) + Double(e.edge.at.components.attoseconds) / 1e18))
            """)
        let events = r.handle(e.edge, doubleEnabled: state.doubleIsMeaningful(button: e.button, at: clock.now()))
        recognizers[e.button] = r
        acknowledger?.handled(e.button, recognizer: r)
        if !r.isPressed { metrics.released(e.button, at: e.edge.at) }
        deliver(events, button: e.button, edgeAt: e.edge.at)
        // A gesture's answer ended with the timers set (afterTransitions), this recogniser's among them.
        if events.isEmpty { reschedule() }
    }

    /// The deadline asked for has come, after every edge before it.
    func deadlineCame(_ d: Duration) {
        if wakeAsked == d { wakeAsked = nil }
        fireGestureDeadlines()
        reschedule()
    }

    /// Edges that come from now on are boxd stopping, not news; whoever waits for one is let go.
    public func letGoOfButtons() {
        buttonsLive = false
        resumeEdgeWaiters(all: true)
    }

    /// Returns once `button`'s edge stamped `at` was handled (a simulated press waits for its
    /// own edges), or when the buttons have ended.
    func handled(button: String, at: Duration) async {
        guard buttonsLive, !(lastEdgeAt[button].map { $0 >= at } ?? false) else { return }
        await withCheckedContinuation { edgeWaiters.append((button, at, $0)) }
    }

    func resumeEdgeWaiters(all: Bool = false) {
        let done = { (w: EdgeWaiter) in all || (self.lastEdgeAt[w.button].map { $0 >= w.at } ?? false) }
        let ready = edgeWaiters.filter(done)
        edgeWaiters.removeAll(where: done)
        for w in ready { w.resume.resume() }
    }

    /// Fires the recognisers' deadlines that have passed on the edge clock. On a real or fast
    /// clock it runs when the source yields the deadline asked for (`deadlineCame`), so every
    /// edge stamped before it was handled first; on the simulated clock `advance` runs it,
    /// and a simulated press waits until its edges were handled before the clock moves on.
    func fireGestureDeadlines() {
        let now = clock.edgeNow()
        for name in recognizers.keys.sorted() {
            guard var r = recognizers[name], let d = r.nextDeadline, d <= now else { continue }
            let events = r.advance(to: now, doubleEnabled: state.doubleIsMeaningful(button: name, at: clock.now()))
            recognizers[name] = r
            acknowledger?.handled(name, recognizer: r, edge: false)
            deliver(events, button: name, edgeAt: nil)
        }
    }

    func deliver(_ events: [GestureEvent], button: String, edgeAt: Duration?) {
        for ev in events {
            let started = clock.edgeNow()
            metrics.taking()
            // Its flash may be on already, written by the reader (PressAcknowledger).
            pressFlashedAt = ev.gesture == .pressed ? edgeAt.flatMap { acknowledger?.takeFlash(button: button, edge: $0) } : nil
            apply(.gesture(ev.gesture, button: button), source: .button(button))
            pressFlashedAt = nil
            let answered = clock.edgeNow()
            metrics.delivered(ev.gesture, button: button, edgeAt: edgeAt, takenUp: started, now: answered)
            // For --verbose: where a slow answer's time went (the wait for the actor, or the
            // answer itself: the commit, logged by `write`, and the effects).
            if let edgeAt {
                logger.debug("""
                    gesture \(ev.gesture) \(button): taken up \(Self.ms(started - edgeAt)) after its edge, \
                    answered in \(Self.ms(answered - started))
                    """)
            }
        }
    }

    /// A duration in milliseconds to 0.1, for --verbose.
    static func ms(_ d: Duration) -> String { String(format: "%.1f ms", d.seconds * 1000) }
}
