import CMosquitto
import Foundation
import Synchronization

/// An MQTT client on libmosquitto 2.0 with its own network thread: it connects (TLS and a
/// password when configured), keeps reconnecting with a backoff while the broker is away,
/// and reports what happened as `Event`s on that thread, in order.
///
/// QoS 1 messages published while the broker is away are kept by libmosquitto and sent
/// again after the reconnect (with DUP set: at least once), so `acknowledged(mid)` is the
/// only proof a message reached the broker; a caller keeps its cursor on that.
///
/// The thread runs the network loop itself rather than `mosquitto_loop_start`, whose thread
/// ends silently on some TLS errors while the broker is down.
public final class MQTTClient: @unchecked Sendable {
    public struct TLS: Sendable, Hashable {
        public var caFile: String
        public var certFile: String?
        public var keyFile: String?
        public init(caFile: String, certFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }
    }

    /// What the broker publishes for a client that vanished, at QoS 1.
    public struct Will: Sendable, Hashable {
        public var topic: String
        public var payload: String
        public var retain: Bool
        public init(topic: String, payload: String, retain: Bool) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
        }
    }

    public struct Settings: Sendable, Hashable {
        public var host: String
        public var port: Int
        public var clientID: String
        public var keepaliveSeconds: Int
        public var username: String?
        public var password: String?
        public var tls: TLS?
        /// Published by the broker when this client vanishes (power cut, network gone).
        public var will: Will?
        /// Topics subscribed to (QoS 1) on every connect: the session is clean, so each
        /// connect subscribes again. What arrives there is reported as `.message`.
        public var subscriptions: [String] = []

        /// `keepaliveSeconds`: how soon a vanished client counts as gone (its will is sent);
        /// the bridge takes it from `[mqtt] keepalive_seconds`.
        public init(host: String, port: Int, clientID: String, keepaliveSeconds: Int) {
            self.host = host
            self.port = port
            self.clientID = clientID
            self.keepaliveSeconds = keepaliveSeconds
        }
    }

    public enum Event: Sendable, Hashable {
        case connected
        /// The broker answered and said no (bad password, not authorised …).
        case refused(String)
        /// Not connected now, and why; the client keeps trying.
        case disconnected(String)
        /// The broker has the message `mid` (PUBACK for QoS 1).
        case acknowledged(mid: Int32)
        /// The broker answered `mid` with an error (MQTT 5 reason code: not authorised to
        /// publish there, quota exceeded …): it does not have the message.
        case rejected(mid: Int32, reason: String)
        /// A message on one of `Settings.subscriptions`.
        case message(topic: String, payload: [UInt8])
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    private let handle: OpaquePointer
    private let settings: Settings
    private let onEvent: @Sendable (Event) -> Void
    private let running = Mutex(false)
    private let wake = NSCondition()
    private let finished = DispatchSemaphore(value: 0)
    /// Wakes the network thread's poll(2) when a message is queued from another thread.
    private let wakePipe: (read: Int32, write: Int32)
    static let backoff: ClosedRange<Double> = 0.5...30
    /// The broker refused this connection attempt (told as `.refused`): the connection's end
    /// that follows is that refusal, not news. Only the network thread touches it.
    private var refusedThisAttempt = false

    /// Sets everything up; nothing is connected until `start()`. Throws when a setting is
    /// refused (a TLS file that cannot be read, a keepalive under 5 s).
    public init(_ settings: Settings, onEvent: @escaping @Sendable (Event) -> Void) throws(Failure) {
        Self.initialiseLibrary
        if let why = box_mosquitto_unavailable() { throw Failure(description: "libmosquitto cannot be loaded: \(String(cString: why))") }
        guard let m = mosquitto_new(settings.clientID, true, nil) else { throw Failure(description: "mosquitto_new failed: out of memory") }
        handle = m
        self.settings = settings
        self.onEvent = onEvent
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            mosquitto_destroy(m)
            throw Failure(description: "cannot make the wake pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakePipe = (fds[0], fds[1])
        mosquitto_user_data_set(m, Unmanaged.passUnretained(self).toOpaque())
        _ = mosquitto_threaded_set(m, true) // publish comes from other threads
        // MQTT 5: a broker that refuses a publish (its ACL) says so in the PUBACK; with 3.1.1 it
        // acknowledges it all the same and drops it, and the sender would move on.
        try check(mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5), "protocol version")
        if let user = settings.username {
            try check(mosquitto_username_pw_set(m, user, settings.password), "username")
        }
        if let tls = settings.tls {
            try check(mosquitto_tls_set(m, tls.caFile, nil, tls.certFile, tls.keyFile, nil), "TLS files (\(tls.caFile))")
        }
        if let will = settings.will {
            try check(mosquitto_will_set(m, will.topic, Int32(will.payload.utf8.count), will.payload, 1, will.retain), "will")
        }
        mosquitto_connect_v5_callback_set(m) { _, obj, rc, _, _ in
            guard let obj else { return }
            let me = Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
            me.refusedThisAttempt = rc != 0
            if rc == 0 {
                for topic in me.settings.subscriptions {
                    // A refusal shows in the SUBACK, which nothing here waits for: a topic not
                    // subscribed only means its messages are not heard.
                    _ = mosquitto_subscribe(me.handle, nil, topic, 1)
                }
            }
            me.onEvent(rc == 0 ? .connected : .refused(String(cString: mosquitto_reason_string(rc))))
        }
        mosquitto_message_callback_set(m) { _, obj, message in
            guard let obj, let message, let topic = message.pointee.topic else { return }
            let count = Int(message.pointee.payloadlen)
            let payload = message.pointee.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue().onEvent(.message(topic: String(cString: topic), payload: payload))
        }
        mosquitto_publish_v5_callback_set(m) { _, obj, mid, reason, _ in
            guard let obj else { return }
            // Below 0x80 is success (0x10: nobody subscribed, which is no error for us).
            Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue().onEvent(
                reason < 0x80 ? .acknowledged(mid: mid) : .rejected(mid: mid, reason: String(cString: mosquitto_reason_string(reason))))
        }
        mosquitto_disconnect_callback_set(m) { _, obj, rc in
            // 0: we asked for it.
            guard let obj, rc != 0 else { return }
            let me = Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
            if !me.refusedThisAttempt { me.onEvent(.disconnected(MQTTClient.describe(rc))) }
        }
    }

    deinit {
        stop()
        mosquitto_destroy(handle)
        close(wakePipe.read)
        close(wakePipe.write)
    }

    private static let initialiseLibrary: Void = { _ = mosquitto_lib_init() }()

    private func check(_ rc: Int32, _ what: String) throws(Failure) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw Failure(description: "\(what): \(Self.describe(rc))") }
    }

    /// libmosquitto's words for an error, with its number (2.0.11 calls several "Unknown error").
    static func describe(_ rc: Int32) -> String {
        let errnoText = rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : nil
        return "\(errnoText ?? String(cString: mosquitto_strerror(rc))) (\(rc))"
    }

    /// Starts the network thread: connect, then keep the connection (or retry) until `stop()`.
    public func start() {
        guard running.withLock({ r -> Bool in
            defer { r = true }
            return !r
        }) else { return }
        let t = Thread { [self] in run() }
        t.name = "mqtt"
        t.start()
    }

    /// Disconnects cleanly (no will) and ends the thread.
    public func stop() {
        guard running.withLock({ r -> Bool in
            defer { r = false }
            return r
        }) else { return }
        _ = mosquitto_disconnect(handle)
        wakeNetworkThread()
        wake.lock()
        wake.broadcast()
        wake.unlock()
        finished.wait()
    }

    /// Queues a message; returns its mid. QoS 1 messages are kept while the broker is away.
    @discardableResult
    public func publish(topic: String, payload: [UInt8], qos: Int32 = 1, retain: Bool = false) throws(Failure) -> Int32 {
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes { mosquitto_publish(handle, &mid, topic, Int32($0.count), $0.baseAddress, qos, retain) }
        wakeNetworkThread()
        // NO_CONN: queued, sent after the reconnect (QoS > 0); anything else was refused.
        guard rc == MOSQ_ERR_SUCCESS.rawValue || (rc == MOSQ_ERR_NO_CONN.rawValue && qos > 0) else {
            throw Failure(description: "publish to \(topic): \(Self.describe(rc))")
        }
        return mid
    }

    private var isRunning: Bool { running.withLock { $0 } }

    private func wakeNetworkThread() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1) // a full pipe already wakes it
    }

    /// One turn of the network loop: poll(2) on the socket and the wake pipe, then read, write
    /// and keepalive. Not `mosquitto_loop`: its select(2) refuses (INVAL, for ever) a socket
    /// numbered 1024 or above, which a process with many files open gets.
    private func turn(timeoutMs: Int32) -> Int32 {
        let sock = mosquitto_socket(handle)
        guard sock >= 0 else { return MOSQ_ERR_NO_CONN.rawValue }
        var fds = [pollfd(fd: sock, events: Int16(POLLIN) | (mosquitto_want_write(handle) ? Int16(POLLOUT) : 0), revents: 0),
                   pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        if poll(&fds, 2, timeoutMs) < 0, errno != EINTR { return MOSQ_ERR_ERRNO.rawValue }
        if fds[1].revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 64)
            while read(wakePipe.read, &buffer, buffer.count) > 0 {}
        }
        if fds[0].revents != 0 && fds[0].revents != Int16(POLLOUT) {
            let rc = mosquitto_loop_read(handle, 1) // drains what TLS has buffered too
            if rc != MOSQ_ERR_SUCCESS.rawValue { return rc }
        }
        if mosquitto_want_write(handle) {
            let rc = mosquitto_loop_write(handle, 1)
            if rc != MOSQ_ERR_SUCCESS.rawValue { return rc }
        }
        return mosquitto_loop_misc(handle)
    }

    private func run() {
        defer { finished.signal() }
        var delay = Self.backoff.lowerBound
        var rc = mosquitto_connect(handle, settings.host, Int32(settings.port), Int32(settings.keepaliveSeconds))
        // The wake pipe ends a turn for a publish from another thread; keepalive needs a turn well within it.
        let turnMs = Int32(min(settings.keepaliveSeconds * 1000 / 2, 10_000))
        while isRunning {
            if rc == MOSQ_ERR_SUCCESS.rawValue {
                rc = turn(timeoutMs: turnMs)
                if rc == MOSQ_ERR_SUCCESS.rawValue { delay = Self.backoff.lowerBound }
                continue
            }
            if !isRunning { break }
            if !refusedThisAttempt { onEvent(.disconnected(Self.describe(rc))) }
            wake.lock()
            if isRunning { _ = wake.wait(until: Date(timeIntervalSinceNow: delay)) }
            wake.unlock()
            delay = min(delay * 2, Self.backoff.upperBound)
            refusedThisAttempt = false
            if isRunning { rc = mosquitto_reconnect(handle) }
        }
    }
}
