import BoxControl
import DoseCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// `watch`: the connection turns into a one-way stream of the night log's feed.
extension ControlServer {
    /// At most this many watchers at once (each holds one of `maxClients` slots); more are
    /// told busy, so watchers never crowd out the commands.
    public static let maxWatchers = 4
    /// A watcher that does not read its stream for this long (its socket buffer full) is
    /// dropped: boxd never waits on a slow reader. It reconnects with its cursor.
    static let watchSendTimeoutSeconds = 5
    /// Entries read from the log per page.
    static let watchPage = 256

    /// Serves one `watch` until the peer hangs up, a write fails or the log cannot be read.
    /// The signal is subscribed before the first read, so no commit falls between the
    /// replay and the wait.
    func follow(_ fd: Int32, after: Int64?) {
        guard let watch else {
            _ = send(.failed(code: "501_NOT_AVAILABLE", message: "this boxd has no event feed", status: nil), to: fd)
            return
        }
        guard watchers.withLock({ n -> Bool in
            guard n < Self.maxWatchers else { return false }
            n += 1
            return true
        }) else {
            _ = send(.busy("boxd is busy: \(Self.maxWatchers) watchers are connected"), to: fd)
            return
        }
        defer { watchers.withLock { $0 -= 1 } }
        guard let wake = watch.signal.subscribe() else {
            _ = send(.failed(code: "503_NO_DESCRIPTORS", message: "boxd cannot watch now: out of file descriptors", status: nil), to: fd)
            return
        }
        defer { watch.signal.unsubscribe(wake) }
        var timeout = timeval(tv_sec: Self.watchSendTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        var frames: [UInt8] = []
        var reportedLink = false
        let token = UInt64.random(in: 1...UInt64.max)
        defer { if reportedLink { watch.link(nil, token) } }
        var cursor: Int64
        if let after {
            cursor = after
        } else {
            guard let newest = read(watch, after: nil, fd: fd)?.newest else { return }
            cursor = newest
        }
        guard send(.watching(after: cursor), to: fd) else { return }
        while true {
            guard catchUp(watch, cursor: &cursor, fd: fd) else { return }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[0].revents != 0 {
                // A watcher may send `link` frames (the caregiver bridge); anything else is
                // ignored, and the end of its stream ends the watch.
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = chunk.withUnsafeMutableBytes({ Glibc.read(fd, $0.baseAddress, $0.count) })
                if n <= 0 { return }
                frames += chunk[..<n]
                reportLinks(in: &frames, to: watch, token: token, reported: &reportedLink)
                if frames.count > ControlProtocol.maxFrameBytes { return }
            }
            if fds[1].revents != 0 { FeedSignal.drain(wake) }
        }
    }

    /// Hands each complete `link` frame in `buffer` to the source and drops it from the buffer.
    private func reportLinks(in buffer: inout [UInt8], to watch: WatchSource, token: UInt64, reported: inout Bool) {
        while let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let frame = Array(buffer[..<nl])
            buffer.removeSubrange(...nl)
            if case .success(.link(let report)) = ControlProtocol.decodeCommand(frame) {
                watch.link(report, token)
                reported = true
            }
        }
    }

    /// Sends every entry after `cursor`, a page at a time, and moves the cursor past them.
    /// False when the log could not be read (the watcher was told) or the watcher is gone.
    private func catchUp(_ watch: WatchSource, cursor: inout Int64, fd: Int32) -> Bool {
        while true {
            guard let page = read(watch, after: cursor, fd: fd) else { return false }
            for event in page.events {
                guard send(.event(event), to: fd) else { return false }
                cursor = event.id
            }
            if page.events.count < Self.watchPage { return true }
        }
    }

    /// One read of the feed; on failure the watcher is told why, and nil is returned.
    private func read(_ watch: WatchSource, after: Int64?, fd: Int32) -> (newest: Int64, events: [FeedEvent])? {
        let limit = Self.watchPage
        switch blockingAwait({ await watch.read(after, limit) }) {
        case .success(let page): return page
        case .failure(let failure):
            _ = send(.failed(code: "500_LOG_UNREADABLE", message: "the event feed cannot be read: \(failure.message)", status: nil), to: fd)
            return nil
        }
    }
}
