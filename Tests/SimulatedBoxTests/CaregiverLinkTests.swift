import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The caregiver link as a caregiver meets it: the real boxd (sim clock), the real
/// boxd-mqtt, a real mosquitto broker with a password file and TLS (CA made by openssl),
/// and a real subscriber (`mosquitto_sub`). Waits are on output lines with deadlines.
@Suite(.serialized) struct CaregiverLinkTests {
    static let boxID = "hil"

    /// A box (not started) whose config has `[mqtt]` for this broker, and that config's path;
    /// `password`, `ca` and `port` can be wrong on purpose.
    static func box(_ broker: TestBroker, password: String = TestBroker.password, ca: String? = nil,
                    port: Int? = nil) throws -> (BoxRig, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mqtt-box-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = try config(in: dir, broker, password: password, ca: ca, port: port)
        return (try BoxRig(args: ["--config", path]), path)
    }

    /// A box launched with [mqtt] on a TLS broker, a subscriber on everything it publishes,
    /// and the bridge running; all stopped and removed after `body`.
    static func withLinkedBox(_ body: (TestBroker, BoxRig, Subscriber, Bridge) throws -> Void) throws {
        let broker = try TestBroker(tls: true)
        defer { broker.cleanup() }
        let (rig, config) = try box(broker)
        defer { cleanup(rig, config) }
        try rig.launch()
        let sub = try Subscriber(broker)
        defer { sub.stop() }
        let bridge = try Bridge(rig, config: config)
        defer { bridge.kill9() }
        try body(broker, rig, sub, bridge)
    }

    static func cleanup(_ rig: BoxRig, _ config: String) {
        rig.cleanup()
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: config).deletingLastPathComponent())
    }

    static func config(in dir: URL, _ broker: TestBroker, password: String = TestBroker.password, ca: String? = nil,
                       port: Int? = nil) throws -> String {
        let pw = dir.appendingPathComponent("mqtt-password")
        try (password + "\n").write(to: pw, atomically: true, encoding: .utf8)
        let path = dir.appendingPathComponent("boxd.toml").path
        try """
            [mqtt]
            enabled = true
            host = "127.0.0.1"
            port = \(port ?? broker.port)
            tls_ca = "\(ca ?? broker.caFile)"
            username = "\(TestBroker.user)"
            password_file = "\(pw.path)"
            box_id = "\(boxID)"
            keepalive_seconds = 5

            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The built boxd-mqtt, its log read line by line.
    final class Bridge {
        let process = Process()
        private let reader: LineReader
        private(set) var seen: [String] = []

        init(_ rig: BoxRig, config: String) throws {
            let out = Pipe()
            reader = LineReader(fd: out.fileHandleForReading.fileDescriptor)
            process.executableURL = BoxRig.buildDir.appendingPathComponent("boxd-mqtt")
            process.arguments = ["--config", config, "--socket", rig.socket, "--state-dir", rig.dir.appendingPathComponent("bridge").path]
            process.standardOutput = out
            process.standardError = out
            try process.run()
        }

        /// Reads the log until a line contains `text`; false if none did within `seconds`.
        func waitLog(_ text: String, within seconds: Double = 15) -> Bool {
            if seen.contains(where: { $0.contains(text) }) { return true }
            let deadline = Date(timeIntervalSinceNow: seconds)
            while let line = reader.line(within: max(0.1, deadline.timeIntervalSinceNow)) {
                seen.append(line)
                if line.contains(text) { return true }
                if deadline.timeIntervalSinceNow <= 0 { break }
            }
            return false
        }

        func kill9() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// `mosquitto_sub` on everything the box publishes, as "retained topic payload" lines. With a
    /// session kept by the broker (`-c`, QoS 1), so messages sent while it reconnects wait for it.
    final class Subscriber {
        let process = Process()
        private let reader: LineReader

        init(_ broker: TestBroker, session: String? = nil) throws {
            let out = Pipe()
            reader = LineReader(fd: out.fileHandleForReading.fileDescriptor)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
            var args = ["-h", "127.0.0.1", "-p", String(broker.port), "-u", TestBroker.user, "-P", TestBroker.password,
                        "--cafile", broker.caFile, "-q", "1", "-t", "dosetap/\(boxID)/#", "-t", "homeassistant/#", "-F", "%r %t %p"]
            if let session { args += ["-c", "-i", session] }
            process.arguments = args
            process.standardOutput = out
            process.standardError = out
            try process.run()
        }

        /// The next message as (retained, topic, payload); nil when none came within `seconds`.
        func next(within seconds: Double = 15) -> (retained: Bool, topic: String, payload: String)? {
            guard let line = reader.line(within: seconds) else { return nil }
            // An empty payload (a retained message cleared) leaves the line ending in the space.
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { return (false, line, "") }
            return (parts[0] == "1", parts[1], parts[2])
        }

        /// Messages until one on `topic` satisfies `done`; the ones seen on the way are returned too.
        /// A deadline, not a wait: 60 s by default, for CI's lane at the lowest priority beside two
        /// guests (a state that follows its discovery at once took over 15 s there).
        func until(_ topic: String, within seconds: Double = 60, _ done: ([String: Any]) -> Bool) -> [(topic: String, json: [String: Any])]? {
            var out: [(String, [String: Any])] = []
            let deadline = Date(timeIntervalSinceNow: seconds)
            while deadline.timeIntervalSinceNow > 0, let m = next(within: deadline.timeIntervalSinceNow) {
                let json = (try? JSONSerialization.jsonObject(with: Data(m.payload.utf8))) as? [String: Any] ?? ["raw": m.payload]
                out.append((m.topic, json))
                if m.topic == topic, done(json) { return out }
            }
            return nil
        }

        /// Messages until each of `wanted` (a topic and a test) was met, in any order: retained
        /// messages come in the broker's order, not in the order they were published.
        func untilEach(_ wanted: [(topic: String, done: ([String: Any]) -> Bool)], within seconds: Double = 60) -> Bool {
            var left = wanted
            let deadline = Date(timeIntervalSinceNow: seconds)
            while !left.isEmpty, deadline.timeIntervalSinceNow > 0, let m = next(within: deadline.timeIntervalSinceNow) {
                let json = (try? JSONSerialization.jsonObject(with: Data(m.payload.utf8))) as? [String: Any] ?? ["raw": m.payload]
                left.removeAll { $0.topic == m.topic && $0.done(json) }
            }
            return left.isEmpty
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    static var eventTopic: String { "dosetap/\(boxID)/event" }
    static var stateTopic: String { "dosetap/\(boxID)/state" }

    /// Feed ids and kinds of the event messages among `messages`.
    /// Feed ids and kinds (an alarm's with the alert that rang) of the event messages among `messages`.
    static func events(_ messages: [(topic: String, json: [String: Any])]) -> [(id: Int, kind: String)] {
        messages.filter { $0.topic == eventTopic }.compactMap { m in
            guard let id = m.json["id"] as? Int, let kind = m.json["event_type"] as? String else { return nil }
            return (id, kind == "alarm_rang" ? "alarm:\(m.json["type"] as? String ?? "?")" : kind)
        }
    }

    /// The status's caregiver link, asked until `done` holds (each ask is a boxctl run; the
    /// bridge reports on its own thread, so the first ask may come a moment early).
    static func link(_ rig: BoxRig, within seconds: Double = 10, until done: ([String: Any]) -> Bool) throws -> [String: Any]? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var last: [String: Any]?
        repeat {
            last = try rig.statusJSON()["caregiver_link"] as? [String: Any]
            if let l = last, done(l) { return l }
        } while deadline.timeIntervalSinceNow > 0
        return last
    }

    @Test func aWholeNightReachesTheBrokerInOrderAndTheRetainedStateEndsIt() throws {
        let broker = try TestBroker(tls: true)
        defer { broker.cleanup() }
        let (rig, config) = try Self.box(broker)
        defer { Self.cleanup(rig, config) }
        try rig.launch()
        // Before the bridge runs, status says so.
        #expect(try Self.link(rig) { _ in true }?["state"] as? String == "no_bridge")
        let sub = try Subscriber(broker)
        defer { sub.stop() }
        let bridge = try Bridge(rig, config: config)
        defer { bridge.kill9() }
        // Online, Home Assistant's discovery and the state, in whatever order the connect brings them.
        var first: [(topic: String, json: [String: Any])] = []
        for (topic, check) in [("dosetap/\(Self.boxID)/availability", { (j: [String: Any]) in j["raw"] as? String == "online" }),
                               ("homeassistant/device/dosetap_\(Self.boxID)/config", { (j: [String: Any]) in j["components"] != nil }),
                               (Self.stateTopic, { (j: [String: Any]) in j["phase"] as? String == "noDose1" })]
        where !first.contains(where: { $0.topic == topic && check($0.json) }) {
            first += sub.until(topic, check) ?? []
        }
        #expect(first.contains { $0.topic == "dosetap/\(Self.boxID)/availability" && $0.json["raw"] as? String == "online" })
        #expect(first.contains { $0.topic == "homeassistant/device/dosetap_\(Self.boxID)/config" })
        #expect(first.contains { $0.topic == Self.stateTopic })
        #expect(try Self.link(rig) { $0["state"] as? String == "up" }?["state"] as? String == "up")

        #expect(try rig.boxctl(["take"]).exit == 0)
        #expect(try rig.boxctl(["sim", "advance", "162m"]).exit == 0)
        #expect(try rig.boxctl(["snooze"]).exit == 0)
        #expect(try rig.boxctl(["sim", "advance", "20m"]).exit == 0)
        #expect(try rig.boxctl(["take"]).exit == 0)
        // The state is a snapshot read after each event, so it may say "completed" before the
        // Dose 2 event itself is read from the feed: wait for both.
        var night = sub.until(Self.stateTopic) { $0["phase"] as? String == "completed" } ?? []
        if !night.contains(where: { $0.topic == Self.eventTopic && $0.json["event_type"] as? String == "dose2" }) {
            night += sub.until(Self.eventTopic) { $0["event_type"] as? String == "dose2" } ?? []
        }
        let events = Self.events(night)
        // Window opens at 150, pre-alarm at 160; snoozed at 162 (target 165 -> 175): pre-alarm at 170,
        // the alarm at 175, follow-ups at 177, 179, 181; Dose 2 at 182.
        #expect(events.map(\.kind) == ["night_started", "dose1", "alarm:window_open", "alarm:pre_alarm", "snooze", "alarm:pre_alarm",
                                       "alarm:main_alarm", "alarm:follow_up", "alarm:follow_up", "alarm:follow_up", "dose2"], "\(events)")
        #expect(events.map(\.id) == Array(1...events.count), "ids in order, none missing, none twice")
        let last = night.last { $0.topic == Self.stateTopic }?.json ?? [:]
        #expect(last["dose2_at"] is String && last["dose1_at"] is String && last["snoozes_used"] as? Int == 1)
        #expect(last["minutes_left"] is NSNull && last["alarm_ringing"] as? Bool == false && last["fault"] as? Bool == false)

        // A caregiver who opens the app now gets the night's end (retained), and the box online.
        let retained = try broker.retained("dosetap/\(Self.boxID)/#", count: 2)
        #expect(retained.contains("dosetap/\(Self.boxID)/availability online"))
        #expect(retained.contains { $0.hasPrefix("dosetap/\(Self.boxID)/state ") && $0.contains("\"phase\":\"completed\"") }, "\(retained)")
    }

    /// A speaker that fails and comes back: an event for each, with what to do, no session
    /// (it is the box's, not the night's), and the retained state says fault while it lasts.
    @Test func aSpeakerThatFailsAndComesBackIsAnEventEachAndTheStateFollows() throws {
        try Self.withLinkedBox { _, rig, sub, _ throws in
            #expect(sub.until(Self.stateTopic) { $0["phase"] as? String == "noDose1" } != nil)

            #expect(try rig.boxctl(["sim", "fault", "audio-fail"]).exit == 0)
            let raised = sub.until(Self.stateTopic) { $0["fault"] as? Bool == true } ?? []
            let event = raised.first { $0.topic == Self.eventTopic }?.json ?? [:]
            #expect(event["event_type"] as? String == "fault_raised" && event["type"] as? String == "audio_unavailable", "\(raised)")
            #expect((event["advice"] as? String)?.hasPrefix("Alarms cannot sound") == true)
            #expect(!event.keys.contains("session_id") && !event.keys.contains("session_date"), "\(event)")
            #expect(raised.last?.json["faults"] as? [String] == ["audio_unavailable"])

            #expect(try rig.boxctl(["sim", "fault", "audio-ok"]).exit == 0)
            let cleared = sub.until(Self.stateTopic) { $0["fault"] as? Bool == false } ?? []
            #expect(Self.events(cleared).map(\.kind) == ["fault_cleared"], "\(cleared)")
            #expect((Self.events(raised) + Self.events(cleared)).map(\.id) == [1, 2])
        }
    }

    /// The refill reminder reaches the caregiver's phone through a real broker: a supply of
    /// 14 doses (7 nights), then Dose 1 on the button.
    @Test func theRefillReminderIsAnEventWithTheDosesLeft() throws {
        try Self.withLinkedBox { _, rig, sub, _ throws in
            #expect(sub.until(Self.stateTopic) { $0["phase"] as? String == "noDose1" } != nil)
            #expect(try rig.boxctl(["supply", "refill", "--doses", "14"]).exit == 0)
            #expect(try rig.boxctl(["sim", "press", "dose"]).exit == 0)
            // Every message until the reminder (the state's and discovery's included).
            var got: [(topic: String, json: [String: Any])] = []
            let deadline = Date(timeIntervalSinceNow: 15)
            while let m = sub.next(within: max(0.1, deadline.timeIntervalSinceNow)) {
                got.append((m.topic, (try? JSONSerialization.jsonObject(with: Data(m.payload.utf8))) as? [String: Any] ?? [:]))
                if m.topic == Self.eventTopic, got.last?.json["event_type"] as? String == "refill_reminder" { break }
            }
            got = got.filter { $0.topic == Self.eventTopic }
            let reminder = got.last?.json ?? [:]
            #expect(reminder["remaining_doses"] as? Int == 13 && reminder["session_date"] as? String == "2026-11-21", "\(got)")
            #expect(Self.events(got).map(\.kind) == ["refill_logged", "night_started", "dose1", "refill_reminder"], "\(got)")
            let refill = got.first { $0.json["event_type"] as? String == "refill_logged" }?.json ?? [:]
            #expect(refill["doses"] as? Int == 14 && refill["remaining_doses"] as? Int == 14, "\(refill)")
        }
    }

    /// The broker stopped for two simulated hours mid-night, then the bridge killed -9 with
    /// events made while it was dead: every event reaches a subscriber, in order, none twice.
    @Test func aBrokerOutageAndAKilledBridgeLoseNothingAndDoubleNothing() throws {
        let broker = try TestBroker(tls: true, persistent: true)
        defer { broker.cleanup() }
        let (rig, config) = try Self.box(broker)
        defer { Self.cleanup(rig, config) }
        try rig.launch()
        let sub = try Subscriber(broker, session: "caregiver-phone")
        defer { sub.stop() }
        var bridge = try Bridge(rig, config: config)
        defer { bridge.kill9() }
        var seen = sub.until(Self.stateTopic) { $0["phase"] as? String == "noDose1" } ?? []

        #expect(try rig.boxctl(["take"]).exit == 0)
        #expect(try rig.boxctl(["sim", "advance", "100m"]).exit == 0)
        seen += sub.until(Self.eventTopic) { $0["event_type"] as? String == "dose1" } ?? []

        // The broker goes away for two hours of the night: the window opens, alarms ring, nobody answers.
        broker.stop()
        #expect(bridge.waitLog("lost the broker"))
        #expect(try Self.link(rig) { $0["state"] as? String == "down" }?["state"] as? String == "down")
        #expect(try rig.boxctl(["sim", "advance", "120m"]).exit == 0)
        let down = try Self.link(rig) { ($0["queued"] as? Int ?? 0) > 0 }
        #expect(down?["state"] as? String == "down")
        let queued = down?["queued"] as? Int ?? 0
        #expect(queued >= 5, "window open, pre-alarm, alarm, follow-ups and the unanswered escalation wait on the box: \(String(describing: down))")
        let text = try rig.boxctl(["status"]).out
        #expect(text.contains("Caregiver link: DOWN since") && text.contains("\(queued) events queued"), "\(text)")

        try broker.start()
        seen += sub.until(Self.eventTopic, within: 60) { $0["event_type"] as? String == "alarm_unanswered" } ?? []
        #expect(try Self.link(rig) { $0["state"] as? String == "up" && $0["queued"] as? Int == 0 }?["queued"] as? Int == 0)

        // The bridge dies (kill -9); the night goes on without it; it comes back from its cursor.
        bridge.kill9()
        #expect(try Self.link(rig) { $0["state"] as? String == "no_bridge" }?["state"] as? String == "no_bridge")
        #expect(try rig.boxctl(["take"]).exit == 0)
        #expect(try rig.boxctl(["sim", "advance", "30m"]).exit == 0)
        bridge = try Bridge(rig, config: config)
        seen += sub.until(Self.eventTopic, within: 30) { $0["event_type"] as? String == "night_closed" || $0["event_type"] as? String == "dose2" } ?? []

        let events = Self.events(seen)
        let ids = events.map(\.id)
        #expect(ids == Array(1...(ids.last ?? 0)), "every event, in order, none twice: \(events)")
        #expect(events.contains { $0.kind == "alarm:main_alarm" } && events.contains { $0.kind == "dose2" })
    }

    /// Home Assistant lost the box's discovery (a fresh broker, the device deleted: the retained
    /// config is gone) and starts: its birth message, `online` on `homeassistant/status`, brings
    /// the discovery back, with the state, without a restart of the bridge. Anything else
    /// heard there is ignored.
    @Test func homeAssistantsBirthMessageBringsTheDiscoveryBack() throws {
        try Self.withLinkedBox { broker, _, sub, bridge throws in
            let discovery = "homeassistant/device/dosetap_\(Self.boxID)/config"
            #expect(sub.untilEach([(discovery, { $0["components"] != nil }), (Self.stateTopic, { $0["phase"] as? String == "noDose1" })]))
            try broker.publish(discovery, nil, retain: true)
            #expect(sub.until(discovery) { $0["raw"] as? String == "" } != nil, "the retained config cleared")
            try broker.publish("homeassistant/status", "offline")
            try broker.publish("homeassistant/status", "online")
            // Deadlines, not waits: generous for CI's lowest-priority lane.
            let back = sub.until(discovery, within: 60) { $0["components"] != nil } ?? []
            #expect(back.contains { $0.topic == "homeassistant/status" && $0.json["raw"] as? String == "online" }, "\(back.map(\.topic))")
            #expect(!back.isEmpty && bridge.waitLog("Home Assistant is online"))
            #expect(sub.until(Self.stateTopic) { $0["phase"] as? String == "noDose1" } != nil, "the state again")
            // Retained again: a Home Assistant that starts later finds it too.
            let retained = try broker.retained(discovery, count: 1)
            #expect(retained.count == 1 && retained[0].contains("\"name\":\"DoseTap Box \(Self.boxID)\""), "\(retained)")
            // `offline` brought nothing: the one discovery seen after the clearing came after `online`.
            let online = back.firstIndex { $0.topic == "homeassistant/status" && $0.json["raw"] as? String == "online" } ?? 0
            #expect(!back[..<online].contains { $0.topic == discovery && $0.json["components"] != nil })
        }
    }

    /// Home Assistant connects with a clean session: what is published while it is away never
    /// reaches it through the broker. Its will (`offline`) and birth (`online`) frame the gap,
    /// and the bridge sends the events of the gap again when it is back, with their ids.
    @Test func eventsPublishedWhileHomeAssistantWasAwayAreSentAgainWhenItIsBack() throws {
        try Self.withLinkedBox { broker, rig, sub, bridge throws in
            #expect(sub.until(Self.stateTopic) { $0["phase"] as? String == "noDose1" } != nil)
            try broker.publish("homeassistant/status", "offline")
            #expect(bridge.waitLog("Home Assistant went away after event #0"))
            #expect(try rig.boxctl(["take"]).exit == 0)
            let gap = sub.until(Self.eventTopic) { $0["event_type"] as? String == "dose1" } ?? []
            #expect(Self.events(gap).map(\.kind) == ["night_started", "dose1"], "\(gap)")
            try broker.publish("homeassistant/status", "online")
            // After the bridge's 5 s wait for Home Assistant's subscriptions; a deadline generous for CI's lane.
            let again = sub.until(Self.eventTopic, within: 60) { $0["event_type"] as? String == "dose1" } ?? []
            #expect(Self.events(again).map(\.kind) == ["night_started", "dose1"], "\(again)")
            #expect(Self.events(again).map(\.id) == Self.events(gap).map(\.id), "the same ids: a consumer that had them drops them")
            #expect(bridge.waitLog("sent events #1-#2 again for Home Assistant", within: 30))
            // Back, nothing missed: the next birth sends nothing again.
            try broker.publish("homeassistant/status", "online")
            #expect(sub.until("homeassistant/device/dosetap_\(Self.boxID)/config") { $0["components"] != nil } != nil)
            #expect(try rig.boxctl(["sim", "advance", "150m"]).exit == 0)
            let later = sub.until(Self.eventTopic) { $0["event_type"] as? String == "alarm_rang" } ?? []
            #expect(Self.events(later).map(\.kind) == ["alarm:window_open"], "\(later)")
        }
    }

    /// A clean stop (SIGTERM, as systemd stops it) says so and nothing else: no "trying again".
    @Test func aCleanStopIsQuiet() throws {
        try Self.withLinkedBox { _, _, sub, bridge throws in
            #expect(sub.until("dosetap/\(Self.boxID)/availability") { $0["raw"] as? String == "online" } != nil)
            #expect(bridge.waitLog("following boxd's feed"))
            kill(bridge.process.processIdentifier, SIGTERM)
            bridge.process.waitUntilExit()
            _ = bridge.waitLog("\u{0}", within: 1) // drain what it wrote
            #expect(bridge.process.terminationStatus == 0)
            #expect(bridge.seen.contains { $0.contains("stopping") })
            #expect(!bridge.seen.contains { $0.contains("trying again") }, "\(bridge.seen.suffix(5))")
            #expect(sub.until("dosetap/\(Self.boxID)/availability") { $0["raw"] as? String == "offline" } != nil)
        }
    }

    /// The bridge's host "loses power" (kill -9 with the broker up): the broker's last will
    /// says `offline`, retained, within the keepalive (5 s here; the broker allows 1.5 times it).
    @Test func aBridgeThatVanishesShowsOfflineWithinTheKeepalive() throws {
        try Self.withLinkedBox { broker, _, sub, bridge throws in
            #expect(sub.until("dosetap/\(Self.boxID)/availability") { $0["raw"] as? String == "online" } != nil)
            let killed = ContinuousClock.now
            bridge.kill9()
            #expect(sub.until("dosetap/\(Self.boxID)/availability", within: 7.5) { $0["raw"] as? String == "offline" } != nil)
            #expect(ContinuousClock.now - killed < .milliseconds(7500))
            #expect(try broker.retained("dosetap/\(Self.boxID)/availability", count: 1) == ["dosetap/\(Self.boxID)/availability offline"])
        }
    }

    /// A wrong password, a CA that did not sign the broker, a host with no broker: each is a
    /// clear fault in `boxctl status`, and the box goes on (a dose is recorded, no tone plays).
    @Test(arguments: ["password", "ca", "unreachable"])
    func aLinkThatCannotConnectIsAFaultInStatusAndTheBoxGoesOn(_ wrong: String) throws {
        let broker = try TestBroker(tls: true)
        defer { broker.cleanup() }
        let (rig, config) = try Self.box(broker, password: wrong == "password" ? "not-the-password" : TestBroker.password,
                                         ca: wrong == "ca" ? broker.otherCAFile : nil,
                                         port: wrong == "unreachable" ? try TestBroker.freePort() : nil)
        defer { Self.cleanup(rig, config) }
        try rig.launch()
        let bridge = try Bridge(rig, config: config)
        defer { bridge.kill9() }
        let expected = wrong == "password" ? "refused" : "down"
        let link = try Self.link(rig) { $0["state"] as? String == expected }
        _ = bridge.waitLog("\u{0}", within: link?["state"] as? String == expected ? 0 : 1) // what it said, to see why
        #expect(link?["state"] as? String == expected, "\(String(describing: link)); bridge: \(bridge.seen.suffix(6))")
        let status = try rig.boxctl(["status"])
        let line = status.out.split(separator: "\n").first { $0.hasPrefix("Caregiver link:") } ?? ""
        switch wrong {
        // mosquitto 2.0 answers a wrong password "Not authorized" (MQTT 5 reason 0x87).
        case "password": #expect(line.contains("REFUSED by the broker") && line.contains("Not authorized"), "\(line)")
        case "ca": #expect(line.contains("DOWN since") && line.lowercased().contains("tls"), "\(line)")
        default: #expect(line.contains("DOWN since") && line.contains("Connection refused"), "\(line)")
        }
        #expect(status.out.contains("FAULT caregiver_link_"), "\(status.out)")

        // The bedroom is undisturbed: the dose is recorded, and the only sound is the dose's own.
        #expect(try rig.boxctl(["take"]).exit == 0)
        let sounds = try rig.boxctl(["sim", "sounds", "--json"]).out
        #expect(!sounds.contains("error") && !sounds.contains("warning"), "\(sounds)")
        #expect(rig.isAlive && bridge.process.isRunning)
    }

    /// A broker whose ACL lets the box read its topics but not publish events: each refusal is
    /// told (MQTT 5's PUBACK reason), the link shows REFUSED in status, and the cursor does not
    /// move past the refused event, so nothing is skipped once the ACL is mended.
    @Test func aBrokerThatRefusesTheEventsIsAFaultAndTheCursorWaits() throws {
        let broker = try TestBroker(tls: true, acl: "user \(TestBroker.user)\ntopic readwrite homeassistant/#\ntopic readwrite dosetap/\(Self.boxID)/state\ntopic readwrite dosetap/\(Self.boxID)/availability\ntopic read dosetap/\(Self.boxID)/event\n")
        defer { broker.cleanup() }
        let (rig, config) = try Self.box(broker)
        defer { Self.cleanup(rig, config) }
        try rig.launch()
        let bridge = try Bridge(rig, config: config)
        defer { bridge.kill9() }
        #expect(try Self.link(rig) { $0["state"] as? String == "up" }?["state"] as? String == "up")
        let cursorBefore = try String(contentsOf: rig.dir.appendingPathComponent("bridge/cursor"), encoding: .utf8)
        #expect(try rig.boxctl(["take"]).exit == 0)
        let link = try Self.link(rig) { $0["state"] as? String == "refused" }
        #expect(link?["state"] as? String == "refused" && (link?["detail"] as? String ?? "").contains("refused event #"), "\(String(describing: link))")
        #expect((link?["queued"] as? Int ?? 0) >= 2, "night_started and dose1 wait on the box: \(String(describing: link))")
        #expect(bridge.waitLog("check its ACL"))
        #expect(try String(contentsOf: rig.dir.appendingPathComponent("bridge/cursor"), encoding: .utf8) == cursorBefore)

        // The ACL mended (the broker reads it again): the refused events are sent again, in
        // the bridge's next try, and the link is up with nothing queued.
        try broker.reload(acl: "user \(TestBroker.user)\ntopic readwrite #\n")
        let mended = try Self.link(rig, within: 25) { $0["state"] as? String == "up" && $0["queued"] as? Int == 0 }
        #expect(mended?["state"] as? String == "up" && mended?["queued"] as? Int == 0, "\(String(describing: mended)); bridge: \(bridge.seen.suffix(8))")
    }
}
