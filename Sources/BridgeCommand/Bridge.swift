import BoxControl
import BoxMQTT
import CaregiverBridge
import DoseCore
import Foundation
import Logging

/// The bridge's imperative shell: follows boxd's event feed (`watch` from the saved cursor)
/// and publishes each entry at QoS 1; the cursor moves, and is saved, only over entries the
/// broker acknowledged (`AckCursor`). Publishes the retained state after each entry and once
/// a minute while Dose 2 is due, and tells boxd how the link stands (`link` frames on the
/// watch connection) for `boxctl status`.
///
/// Two threads: this one reads the feed; libmosquitto's (MQTTClient's) reports connects and
/// acknowledgements. `lock` guards everything below it.
final class Bridge: @unchecked Sendable {
    struct Options {
        var topics: BridgeTopics
        var socketPath: String
        var cursorFile: CursorFile
        /// Published and not yet acknowledged, at most: beyond it the feed waits (boxd drops a
        /// watcher that stops reading; the bridge comes back from its cursor).
        var maxInFlight = 1000
    }

    let options: Options
    let logger: Logger
    private(set) var mqtt: MQTTClient!
    let lock = NSCondition()
    private var cursor: AckCursor
    private var link: CaregiverLinkReport
    private var connection: WatchConnection?
    /// The last state published (retained), republished after a reconnect.
    private var lastState: [UInt8]?
    private(set) var stopping = false
    private var cursorFault: String?
    /// The `offline` published by a clean stop, until the broker has it.
    private var goodbyeMid: Int32?
    /// Connected to the broker now (the link's state may say REFUSED while connected).
    private var connected = false
    /// Entries the broker refused (MQTT 5 PUBACK reason): libmosquitto dropped them, so this
    /// process sends them again, every `retryRefusedSeconds`, until the broker takes them.
    private var refusedIDs: Set<Int64> = []
    static let retryRefusedSeconds = 10.0
    private var retryRefusedAt = Date.distantPast
    /// Home Assistant's birth and will, and what it missed while away.
    private var homeAssistant = HomeAssistantPresence()
    /// boxd's side: the delay before the next watch (reset once boxd answers one).
    private var retryDelay = 0.5

    init(options: Options, mqtt settings: MQTTClient.Settings, cursor saved: Int64?, logger: Logger) throws(MQTTClient.Failure) {
        self.options = options
        self.logger = logger
        cursor = AckCursor(acked: saved ?? -1)
        link = CaregiverLinkReport(state: .down, detail: "connecting to \(settings.host):\(settings.port)",
                                   acked: max(saved ?? 0, 0))
        var s = settings
        s.will = .init(topic: options.topics.availability, payload: BridgeTopics.offline, retain: true)
        s.subscriptions = [options.topics.homeAssistantStatus]
        mqtt = try MQTTClient(s) { [unowned self] event in self.handle(event) }
    }

    // MARK: - The broker's side (libmosquitto's thread)

    private func handle(_ event: MQTTClient.Event) {
        lock.lock()
        defer { lock.unlock() }
        switch event {
        case .connected:
            connected = true
            logger.info("connected to the broker; \(cursor.inFlight.count) event(s) in flight are sent again")
            announce()
            // A refusal stands until the refused entries are taken.
            if refusedIDs.isEmpty { setLink(.up, detail: nil) }
        case .message(let topic, let payload):
            // The only subscription: Home Assistant's status. Nothing heard here touches the night.
            guard topic == options.topics.homeAssistantStatus else { return }
            switch homeAssistant.heard(payload, published: cursor.published) {
            case .nothing:
                if payload == Array(BridgeTopics.offline.utf8), let after = homeAssistant.awayAfter {
                    logger.info("Home Assistant went away after event #\(after)")
                }
            case .announce:
                logger.info("Home Assistant is online: the discovery is published again")
                announce()
            case .announceAndResend(let after, let through):
                logger.info("Home Assistant is online: the discovery is published again, and events #\(after + 1)-#\(through), sent while it was away")
                announce()
                resendToHomeAssistant(after: after, through: through)
            }
        case .refused(let why):
            connected = false
            // Once per refusal, not at every retry.
            if link.state != .refused || link.detail != why { logger.error("the broker refused the connection: \(why)") }
            setLink(.refused, detail: why)
        case .disconnected(let why):
            connected = false
            if link.state == .up { logger.warning("lost the broker: \(why); events wait on the box") }
            setLink(.down, detail: why)
        case .rejected(let mid, let reason):
            // The broker does not have it, and libmosquitto will not send it again: the cursor
            // stays before it, and the feed thread sends it again until the broker takes it.
            let sent = cursor.inFlight.first { $0.mid == mid }
            if let sent { refusedIDs.insert(sent.id) }
            retryRefusedAt = Date(timeIntervalSinceNow: Self.retryRefusedSeconds)
            let what = sent.map { "event #\($0.id)" } ?? "a message"
            if link.state != .refused {
                logger.error("the broker refused \(what): \(reason); check its ACL for \(options.topics.base)/\(options.topics.boxID)/#")
            }
            setLink(.refused, detail: "the broker refused \(what): \(reason)")
            lock.broadcast()
        case .acknowledged(let mid):
            if mid == goodbyeMid {
                goodbyeMid = nil
                lock.broadcast()
            }
            guard let moved = cursor.acknowledged(mid: mid) else { return }
            do {
                try options.cursorFile.save(moved)
                cursorFault = nil
            } catch {
                // The broker has them; a restart would only send them again.
                if cursorFault == nil { logger.error("\(error)") }
                cursorFault = error.description
            }
            link.acked = moved
            // The broker takes what it refused before: the refusal is over.
            if connected, refusedIDs.isEmpty, link.state == .refused { setLink(.up, detail: nil) }
            report()
            // After the report: one who sees this line knows boxd has been told too.
            logger.info("the broker has every event up to #\(moved)")
            lock.broadcast() // the feed may go on
        }
    }

    /// Availability, discovery and the last state, all retained, so a new subscriber (Home
    /// Assistant) sees them at once. Called under `lock`.
    private func announce() {
        publish(options.topics.availability, Array(BridgeTopics.online.utf8), retain: true)
        publish(options.topics.discovery, Discovery.payload(options.topics, version: BoxVersion.current), retain: true)
        if let lastState { publish(options.topics.state, lastState, retain: true) }
    }

    private func setLink(_ state: CaregiverLinkReport.State, detail: String?) {
        link.state = state
        link.detail = detail
        report()
    }

    /// Tells boxd (on the watch connection) how the link stands. Called under `lock`.
    private func report() { connection?.send(.link(link)) }

    /// Called under `lock`. QoS 1; libmosquitto keeps it while the broker is away.
    @discardableResult
    private func publish(_ topic: String, _ payload: [UInt8], retain: Bool) -> Int32? {
        do {
            return try mqtt.publish(topic: topic, payload: payload, qos: 1, retain: retain)
        } catch {
            logger.error("\(error)")
            return nil
        }
    }

    // MARK: - boxd's side (this thread)

    /// Runs until `stop()`: follows the feed, reconnecting to boxd whenever it goes away.
    func run() {
        mqtt.start()
        while !isStopping {
            do {
                try follow()
            } catch {
                // A stop shuts the watch connection: that ending is no failure to retry.
                if !isStopping { logger.warning("\(error); trying again in \(retryDelay) s") }
            }
            lock.lock()
            connection = nil
            if !stopping { _ = lock.wait(until: Date(timeIntervalSinceNow: retryDelay)) }
            lock.unlock()
            retryDelay = min(retryDelay * 2, 30)
        }
    }

    var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// One watch connection, from the newest entry handed to libmosquitto (what it has in
    /// flight is its to resend), or from now on a first start.
    private func follow() throws {
        lock.lock()
        let after: Int64? = cursor.published >= 0 ? cursor.published : nil
        lock.unlock()
        let client = ControlClient(path: options.socketPath)
        let watch = try client.openWatch(after: after)
        guard let first = try watch.next(timeoutMs: 10_000) else { throw Refused(description: "boxd did not answer the watch") }
        guard case .watching(let from) = first else { throw Refused(description: "boxd refused the watch: \(first.message)") }
        lock.lock()
        if after == nil {
            // First start: the feed from now on; nothing before it is the bridge's to send.
            cursor = AckCursor(acked: from)
            do { try options.cursorFile.save(from) } catch {
                // Not fatal: the first PUBACK saves it again; a restart before that starts from now again.
                logger.error("\(error)")
            }
            link.acked = from
        }
        connection = watch
        report()
        lock.unlock()
        retryDelay = 0.5
        logger.info("following boxd's feed after event #\(from)")
        refreshState()
        while !isStopping {
            try resendRefused()
            // While Dose 2 is due the minutes left change: look again each minute; refused
            // entries are tried again every 10 s.
            let timeout: Int32? = hasRefused ? Int32(Self.retryRefusedSeconds * 1000) / 4 : minuteRefresh ? 60_000 : nil
            guard let reply = try watch.next(timeoutMs: timeout) else {
                refreshState()
                continue
            }
            switch reply {
            case .event(let e):
                try send(e)
                refreshState()
            case .failed, .busy, .usage, .refused:
                throw Refused(description: "boxd ended the watch: \(reply.message)")
            default:
                continue
            }
        }
    }

    private var minuteRefresh = false

    /// Publishes one feed entry, waiting first while too many are unacknowledged (or the
    /// broker refused one and a retry is due). Throws when libmosquitto would not take it: the
    /// watch then starts again after what it has, so no entry is ever skipped.
    private func send(_ e: FeedEvent) throws {
        lock.lock()
        defer { lock.unlock() }
        while cursor.inFlight.count >= options.maxInFlight, !stopping {
            if refusedIDs.isEmpty { lock.wait() } else { try resendRefusedLocked(waiting: true) }
        }
        guard e.id > cursor.published else { return } // already handed over (a replay overlapping what is in flight)
        try hand(e)
    }

    /// Under the lock: the PUBACK's handler cannot run before the mid is recorded.
    private func hand(_ e: FeedEvent) throws {
        let payload = BridgeMessages.event(e, boxID: options.topics.boxID)
        let mid = try mqtt.publish(topic: options.topics.event, payload: payload, qos: 1, retain: false)
        if !cursor.republished(id: e.id, mid: mid) { cursor.published(id: e.id, mid: mid) }
    }

    private var hasRefused: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !refusedIDs.isEmpty
    }

    /// Sends the refused entries again, read back from boxd (the feed after id - 1), while connected.
    private func resendRefused() throws {
        lock.lock()
        defer { lock.unlock() }
        try resendRefusedLocked(waiting: false)
    }

    /// `waiting`: the feed is blocked on these, so wait for the broker when it is away.
    private func resendRefusedLocked(waiting: Bool) throws {
        if waiting, retryRefusedAt > Date() { _ = lock.wait(until: retryRefusedAt) }
        guard connected, retryRefusedAt <= Date(), let first = refusedIDs.min() else {
            if waiting { _ = lock.wait(until: Date(timeIntervalSinceNow: Self.retryRefusedSeconds)) }
            return
        }
        // One watch from the first refused entry, read until the last one.
        let watch = try ControlClient(path: options.socketPath).openWatch(after: first - 1)
        guard case .watching = try watch.next(timeoutMs: 10_000) else { throw Refused(description: "boxd did not give event #\(first) again") }
        while let id = refusedIDs.min() {
            guard case .event(let e)? = try watch.next(timeoutMs: 10_000), e.id <= id else {
                throw Refused(description: "boxd did not give event #\(id) again")
            }
            guard e.id == id else { continue }
            refusedIDs.remove(id)
            try hand(e)
            logger.info("sent refused event #\(id) again")
        }
    }

    /// Asks boxd for its status and publishes the retained state when it changed.
    private func refreshState() {
        let reply: Reply
        do { reply = try ControlClient(path: options.socketPath).send(.status) } catch {
            logger.warning("could not read boxd's status: \(error)")
            return
        }
        guard case .status(let status) = reply else { return }
        minuteRefresh = BridgeMessages.minutesLeft(status) != nil
        let state = BridgeMessages.state(status)
        lock.lock()
        defer { lock.unlock() }
        guard state != lastState else { return }
        lastState = state
        publish(options.topics.state, state, retain: true)
    }

    /// A clean stop (systemctl stop): `offline` is published and acknowledged first, since a
    /// clean disconnect does not fire the last will.
    func stop() {
        lock.lock()
        stopping = true
        connection?.shutdown()
        lock.broadcast()
        if connected {
            goodbyeMid = publish(options.topics.availability, Array(BridgeTopics.offline.utf8), retain: true)
            let deadline = Date(timeIntervalSinceNow: 2)
            while goodbyeMid != nil, lock.wait(until: deadline) {}
        }
        lock.unlock()
        mqtt.stop()
    }
}
