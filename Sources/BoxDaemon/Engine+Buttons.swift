import BoxHardware
import DoseCore
import Foundation

// Edges in: one pump reads the edge source (GPIO or simulated buttons alike) into the
// recognisers; their gestures become actions.
extension Engine {
    /// Starts reading the edge source. Every edge of every source arrives here, and only here.
    func startPump() {
        guard pump == nil else { return }
        let source = hardware.edges
        // Detached: the stream is read off the actor, so edges already read wait at its door
        // in order, counted, while it is busy (an fsync).
        pump = Task.detached { [weak self] in
            for await edge in source.edges() { await self?.handle(edge, fromSource: true) }
            await self?.sourceEnded()
        }
    }

    /// A source that ended has reported its fault: show it; the alarms keep running. (Not
    /// when boxd is stopping: then the pump was stopped first.)
    func sourceEnded() {
        guard pump != nil else { return }
        pump = nil
        resumePumpWaiters(all: true)
        tick()
    }

    /// One edge. `fromSource`: it came through the pump, and is counted against the source's
    /// `edgesYielded` (a test may hand edges over directly).
    func handle(_ e: ButtonEdge, fromSource: Bool = false) {
        if fromSource {
            edgesFromSource += 1
            edgeBacklogSince = nil // the pump moves: the limit is for one that stopped
        }
        defer { if fromSource { resumePumpWaiters() } }
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
        if !r.isPressed { metrics.released(e.button, at: e.edge.at) }
        deliver(events, button: e.button, edgeAt: e.edge.at)
        reschedule()
    }

    /// Stops reading edges; whoever waits for the pump is let go.
    func stopPump() {
        pump?.cancel()
        pump = nil
        resumePumpWaiters(all: true)
    }

    /// Returns once the pump has handed over the source's first `count` edges (a simulated
    /// press waits for its own edges), or when the pump has ended.
    func pumped(upTo count: Int) async {
        guard edgesFromSource < count, pump != nil else { return }
        await withCheckedContinuation { pumpWaiters.append((count, $0)) }
    }

    func resumePumpWaiters(all: Bool = false) {
        let ready = pumpWaiters.filter { all || $0.upTo <= edgesFromSource }
        pumpWaiters.removeAll { all || $0.upTo <= edgesFromSource }
        for w in ready { w.resume.resume() }
    }

    /// Fires the recognisers' deadlines that have passed on the edge clock, unless edges are
    /// still on their way: yielded by the source but not handed over by the pump (the engine
    /// was busy, e.g. in an SD card's fsync), or still in the kernel's queue (the reader
    /// thread not scheduled yet). Those may have come first, and a deadline decided before
    /// them would see a stale level and take them late (a bouncy release read as a second
    /// press, a bouncy press as a double). The pump's next
    /// `handle` advances the recogniser in edge order and reschedules; meanwhile the timer
    /// looks again every `edgeBacklogRecheck`. A source that stopped never holds the
    /// deadlines back longer than `edgeBacklogLimit`.
    func fireGestureDeadlines() {
        let now = clock.edgeNow()
        let behind = hardware.edgesYielded().map { $0 > edgesFromSource } ?? false
        if behind || hardware.unreadEdges() {
            if edgeBacklogSince == nil {
                logger.debug("edges on their way (\(behind ? "in the stream" : "in the kernel")): gesture deadlines held")
            }
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
            let started = clock.edgeNow()
            apply(.gesture(ev.gesture, button: button), source: .button(button))
            // The ack flash is written synchronously inside apply, so this is after the LED write.
            let answered = clock.edgeNow()
            metrics.delivered(ev.gesture, button: button, edgeAt: edgeAt, now: answered)
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
