import BoxControl
import DoseCore
import Foundation

// `watch`: the connection turns into a one-way stream of the night log's feed, in the
// control loop: the feed signal's pipe says there is something new, a task reads the next
// page, and the loop sends it. One page at a time, and only once the last one was sent, so a
// slow watcher holds at most a page.
extension ControlServer {
    /// At most this many watchers at once (each holds one of `maxClients` slots); more are
    /// told busy, so watchers never crowd out the commands.
    public static let maxWatchers = 4
    /// A watcher that does not read its stream for this long (its socket buffer full) is
    /// dropped: boxd never waits on a slow reader. It reconnects with its cursor.
    static let watchSendTimeoutSeconds = 5
    /// Entries read from the log per page.
    static let watchPage = 256

    /// Reads a page of the feed in a task and hands it to the loop.
    func readFeed(_ watch: WatchSource, after: Int64?, for id: UInt64) {
        Task(executorPreference: ControlExecutor.shared) { [self] in
            deliver(.page(await watch.read(after, Self.watchPage)), to: id)
        }
    }
}

/// A connection following the feed.
struct FeedWatcher {
    /// The feed signal's read end: readable once the log committed something.
    let wake: Int32
    /// Names the connection in its `link` reports (a bridge that reconnects has a new one).
    let token: UInt64
    /// The newest entry sent (or the one the watcher asked to start after).
    var cursor: Int64?
    /// `watching` was sent: the cursor is known.
    var announced: Bool
    /// There may be entries after the cursor: a page is asked once the last one was sent.
    var behind = true
    var reportedLink = false
}

extension ControlLoop {
    /// Turns a command connection into a watcher. The signal is subscribed before the first
    /// read, so no commit falls between the replay and the wait.
    mutating func startWatching(_ c: inout ControlConnection, after: Int64?) {
        guard let watch = server.watch else {
            c.queue(.failed(code: "501_NOT_AVAILABLE", message: "this boxd has no event feed", status: nil))
            c.closing = true
            return
        }
        guard watcherCount < ControlServer.maxWatchers else {
            c.queue(.busy("boxd is busy: \(ControlServer.maxWatchers) watchers are connected"))
            c.closing = true
            return
        }
        guard let wake = watch.signal.subscribe() else {
            c.queue(.failed(code: "503_NO_DESCRIPTORS", message: "boxd cannot watch now: out of file descriptors", status: nil))
            c.closing = true
            return
        }
        watcherCount += 1
        // Without a cursor the first read only finds the newest entry: the stream starts there.
        if let after { c.queue(.watching(after: after)) }
        c.role = .watching(FeedWatcher(wake: wake, token: UInt64.random(in: 1...UInt64.max), cursor: after, announced: after != nil))
    }

    /// Asks for the next page when the watcher is behind, nothing is being read for it, and
    /// it has taken what was sent.
    func askPage(_ c: inout ControlConnection) {
        guard case .watching(var w) = c.role, let watch = server.watch, w.behind, !c.awaiting, !c.closing, c.output.isEmpty
        else { return }
        w.behind = false
        c.awaiting = true
        server.readFeed(watch, after: w.announced ? w.cursor : nil, for: c.id)
        c.role = .watching(w)
    }

    func pageCame(_ page: Result<(newest: Int64, events: [FeedEvent]), WatchSource.WatchFailure>, on c: inout ControlConnection) {
        guard case .watching(var w) = c.role else { return }
        switch page {
        case .failure(let failure):
            c.queue(.failed(code: "500_LOG_UNREADABLE", message: "the event feed cannot be read: \(failure.message)", status: nil))
            c.closing = true
        case .success(let page) where !w.announced:
            w.cursor = page.newest
            w.announced = true
            w.behind = true
            c.queue(.watching(after: page.newest))
        case .success(let page):
            for event in page.events {
                c.queue(.event(event))
                w.cursor = event.id
            }
            if page.events.count >= ControlServer.watchPage { w.behind = true }
        }
        c.role = .watching(w)
    }

    /// The log committed something.
    func watcherRang(_ c: inout ControlConnection) {
        guard case .watching(var w) = c.role else { return }
        FeedSignal.drain(w.wake)
        w.behind = true
        c.role = .watching(w)
    }

    /// A watcher may send `link` frames (the caregiver bridge); anything else is ignored.
    func linkFrame(_ decoded: Result<Command, ProtocolError>, on c: inout ControlConnection) {
        guard case .watching(var w) = c.role, case .success(.link(let report)) = decoded, let watch = server.watch else { return }
        watch.link(report, w.token)
        w.reportedLink = true
        c.role = .watching(w)
    }

    mutating func stopWatching(_ w: FeedWatcher) {
        server.watch?.signal.unsubscribe(w.wake)
        if w.reportedLink { server.watch?.link(nil, w.token) }
        watcherCount -= 1
    }
}
