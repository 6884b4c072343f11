import BoxMQTT
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// The MQTT client against a real mosquitto broker: TLS and a password, QoS 1 messages a
/// real subscriber reads, refusals worded, and messages published during an outage
/// delivered after it.
@Suite(.serialized) struct MQTTClientTests {
    /// The client's events as they come, and a wait for one with a deadline (no sleeps).
    final class Events: @unchecked Sendable {
        private let condition = NSCondition()
        private var seen: [MQTTClient.Event] = []

        func add(_ e: MQTTClient.Event) {
            condition.lock()
            seen.append(e)
            condition.broadcast()
            condition.unlock()
        }

        var all: [MQTTClient.Event] {
            condition.lock()
            defer { condition.unlock() }
            return seen
        }

        /// The first event (after the first `skip`) that `matches`, waiting up to `seconds`.
        func first(within seconds: Double = 15, after skip: Int = 0, _ matches: (MQTTClient.Event) -> Bool) -> MQTTClient.Event? {
            let deadline = Date(timeIntervalSinceNow: seconds)
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let e = seen.dropFirst(skip).first(where: matches) { return e }
                guard condition.wait(until: deadline) else { return nil }
            }
        }

        func acknowledged(_ mids: Set<Int32>, within seconds: Double = 15) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            condition.lock()
            defer { condition.unlock() }
            while true {
                let acked = Set(seen.compactMap { if case .acknowledged(let m) = $0 { m } else { nil } })
                if mids.isSubset(of: acked) { return true }
                guard condition.wait(until: deadline) else { return false }
            }
        }
    }

    static func settings(_ broker: TestBroker, password: String = TestBroker.password, ca: String? = nil) -> MQTTClient.Settings {
        var s = MQTTClient.Settings(host: "127.0.0.1", port: broker.port, clientID: "boxd-mqtt-test-\(UUID().uuidString.prefix(6))", keepaliveSeconds: 30)
        s.username = TestBroker.user
        s.password = password
        if broker.tls { s.tls = MQTTClient.TLS(caFile: ca ?? broker.caFile) }
        return s
    }

    @Test func overTLSWithAPasswordAMessageReachesARealSubscriber() throws {
        let broker = try TestBroker(tls: true)
        defer { broker.cleanup() }
        let events = Events()
        let client = try MQTTClient(Self.settings(broker)) { events.add($0) }
        client.start()
        defer { client.stop() }
        #expect(events.first { $0 == .connected } != nil, "\(events.all)")
        let mid = try client.publish(topic: "dosetap/test/state", payload: Array(#"{"phase":"active"}"#.utf8), retain: true)
        #expect(events.acknowledged([mid]), "PUBACK for \(mid): \(events.all)")
        #expect(try broker.retained("dosetap/test/#", count: 1) == [#"dosetap/test/state {"phase":"active"}"#])
    }

    /// A process with many files open gets a socket numbered 1024 or above, which select(2)
    /// (and so `mosquitto_loop`) refuses with INVAL for ever; the client's poll(2) loop does not.
    @Test func aSocketNumberedAbove1024StillConnectsAndPublishes() throws {
        let broker = try TestBroker(tls: true)
        defer { broker.cleanup() }
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        while held.count < 1100 {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { break }
            held.append(fd)
        }
        try #require((held.max() ?? 0) >= 1024, "could not open enough files to test this")
        let events = Events()
        let client = try MQTTClient(Self.settings(broker)) { events.add($0) }
        client.start()
        defer { client.stop() }
        #expect(events.first { $0 == .connected } != nil, "\(events.all)")
        let mid = try client.publish(topic: "dosetap/test/high", payload: Array("{}".utf8), retain: true)
        #expect(events.acknowledged([mid]), "\(events.all)")
    }

    @Test func aWrongPasswordIsRefusedInWords() throws {
        let broker = try TestBroker(tls: false)
        defer { broker.cleanup() }
        let events = Events()
        let client = try MQTTClient(Self.settings(broker, password: "wrong")) { events.add($0) }
        client.start()
        defer { client.stop() }
        let refused = events.first { if case .refused = $0 { true } else { false } }
        #expect(refused == .refused("Not authorized"), "MQTT 5 reason 0x87: \(events.all)")
        #expect(!events.all.contains(.connected))
    }

    /// MQTT 5: a publish the broker's ACL forbids is answered with a reason, not acknowledged
    /// (with 3.1.1 it would be PUBACKed and dropped, and the bridge's cursor would move past it).
    @Test func aPublishTheBrokerForbidsIsRejectedNotAcknowledged() throws {
        let broker = try TestBroker(tls: false, acl: "user \(TestBroker.user)\ntopic read dosetap/#\ntopic readwrite open/#\n")
        defer { broker.cleanup() }
        let events = Events()
        let client = try MQTTClient(Self.settings(broker)) { events.add($0) }
        client.start()
        defer { client.stop() }
        #expect(events.first { $0 == .connected } != nil, "\(events.all)")
        let denied = try client.publish(topic: "dosetap/test/event", payload: Array("{}".utf8))
        let allowed = try client.publish(topic: "open/test", payload: Array("{}".utf8))
        #expect(events.acknowledged([allowed]), "\(events.all)")
        let rejected = events.first { if case .rejected(denied, _) = $0 { true } else { false } }
        #expect(rejected == .rejected(mid: denied, reason: "Not authorized"), "\(events.all)")
        #expect(!events.all.contains(.acknowledged(mid: denied)))
    }

    @Test func aBrokerWhoseCertificateTheCADidNotSignIsNeverTrusted() throws {
        let broker = try TestBroker(tls: true)
        defer { broker.cleanup() }
        let events = Events()
        let client = try MQTTClient(Self.settings(broker, ca: broker.otherCAFile)) { events.add($0) }
        client.start()
        defer { client.stop() }
        let failed = events.first { if case .disconnected = $0 { true } else { false } }
        #expect(failed.map { "\($0)" }?.contains("TLS") == true || failed.map { "\($0)" }?.contains("(8)") == true, "\(events.all)")
        #expect(!events.all.contains(.connected))
    }

    @Test func anUnreachableBrokerIsReportedAndRetried() throws {
        let port = try TestBroker.freePort() // nothing listens there
        let events = Events()
        let client = try MQTTClient(MQTTClient.Settings(host: "127.0.0.1", port: port, clientID: "boxd-mqtt-nobody", keepaliveSeconds: 30)) { events.add($0) }
        client.start()
        defer { client.stop() }
        let first = events.first { if case .disconnected = $0 { true } else { false } }
        #expect(first.map { "\($0)" }?.contains("Connection refused") == true, "\(events.all)")
        // Still trying: a second attempt after the backoff.
        #expect(events.first(after: 1) { if case .disconnected = $0 { true } else { false } } != nil)
    }

    @Test func messagesPublishedWhileTheBrokerIsDownArriveAfterItComesBack() throws {
        let broker = try TestBroker(tls: false)
        defer { broker.cleanup() }
        let events = Events()
        let client = try MQTTClient(Self.settings(broker)) { events.add($0) }
        client.start()
        defer { client.stop() }
        #expect(events.first { $0 == .connected } != nil)
        broker.kill()
        let lost = events.all.count
        #expect(events.first(after: lost - 1) { if case .disconnected = $0 { true } else { false } } != nil, "the loss is noticed")
        let mids = try (1...3).map { try client.publish(topic: "dosetap/test/event/\($0)", payload: Array("event \($0)".utf8), retain: true) }
        try broker.start() // same port, empty: nothing retained survived
        #expect(events.first(after: lost) { $0 == .connected } != nil, "reconnected: \(events.all)")
        #expect(events.acknowledged(Set(mids)), "every message queued during the outage acknowledged: \(events.all)")
        #expect(try broker.retained("dosetap/test/event/#", count: 3)
                == ["dosetap/test/event/1 event 1", "dosetap/test/event/2 event 2", "dosetap/test/event/3 event 3"])
    }
}
