import BoxControl
@testable import CaregiverBridge
import DoseCore
import Foundation
import Testing

/// The discovery payload against Home Assistant's documented schema (Fixtures/
/// ha-mqtt-discovery.json says where each list comes from): required keys present, every
/// key one Home Assistant knows, device classes and units it accepts, the rules between
/// them (a timestamp has no unit or state class; an enum lists its options), and no
/// command topic anywhere: MQTT can never record, undo or skip a dose.
@Suite struct DiscoveryTests {
    static let topics = BridgeTopics(base: "dosetap", boxID: "bedroom", discoveryPrefix: "homeassistant")

    struct Schema: Decodable {
        var topic_pattern: String
        var root_required, root_allowed, device_allowed, origin_required, origin_allowed: [String]
        var component_required, common_allowed: [String]
        var platform_allowed, platform_required, device_classes: [String: [String]]
        var duration_units, entity_categories: [String]
    }

    static let schema: Schema = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/ha-mqtt-discovery.json")
        return try! JSONDecoder().decode(Schema.self, from: Data(contentsOf: url))
    }()

    static func payload() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(Discovery.payload(topics, version: "9.9.9"))) as? [String: Any])
    }

    static func allComponents() throws -> [String: [String: Any]] {
        try #require(try payload()["components"] as? [String: [String: Any]])
    }

    /// The entities (every component but the device triggers).
    static func components() throws -> [String: [String: Any]] {
        try allComponents().filter { $0.value["platform"] as? String != "device_automation" }
    }

    static func triggers() throws -> [String: [String: Any]] {
        try allComponents().filter { $0.value["platform"] as? String == "device_automation" }
    }

    @Test func theTopicIsOneHomeAssistantSubscribesTo() throws {
        #expect(Self.topics.discovery == "homeassistant/device/dosetap_bedroom/config")
        #expect(Self.topics.discovery.range(of: Self.schema.topic_pattern, options: .regularExpression) != nil)
    }

    @Test func theDeviceAndOriginCarryWhatIsRequiredAndNothingUnknown() throws {
        let p = try Self.payload()
        for key in Self.schema.root_required { #expect(p[key] != nil, "\(key) is required") }
        #expect(Set(p.keys).subtracting(Self.schema.root_allowed).isEmpty, "unknown root keys: \(Set(p.keys).subtracting(Self.schema.root_allowed))")
        let device = try #require(p["device"] as? [String: Any])
        #expect(Set(device.keys).subtracting(Self.schema.device_allowed).isEmpty)
        #expect((device["identifiers"] as? [String])?.first == "dosetap_bedroom")
        #expect(device["sw_version"] as? String == "9.9.9" && device["serial_number"] as? String == "bedroom")
        let origin = try #require(p["origin"] as? [String: Any])
        for key in Self.schema.origin_required { #expect(origin[key] != nil) }
        #expect(Set(origin.keys).subtracting(Self.schema.origin_allowed).isEmpty)
        // Availability is the bridge's last will: one form only, its payloads the ones published.
        #expect(p["availability_topic"] as? String == "dosetap/bedroom/availability" && p["availability"] == nil)
        #expect(p["payload_not_available"] as? String == BridgeTopics.offline && p["payload_available"] as? String == BridgeTopics.online)
        #expect(p["state_topic"] as? String == Self.topics.state)
    }

    @Test func everyComponentHasAUniqueIDAndOnlyKeysItsPlatformKnows() throws {
        let components = try Self.components()
        #expect(components.count == 16)
        var ids = Set<String>()
        for (key, c) in components {
            let platform = try #require(c["platform"] as? String)
            for k in Self.schema.component_required { #expect(c[k] != nil, "\(key): \(k) is required") }
            // State topic and availability come from the device's shared options unless set here.
            for k in Self.schema.platform_required[platform] ?? [] where k != "state_topic" { #expect(c[k] != nil, "\(key): \(k)") }
            let allowed = Set(Self.schema.common_allowed + (Self.schema.platform_allowed[platform] ?? []))
            #expect(Set(c.keys).subtracting(allowed).isEmpty, "\(key) (\(platform)): unknown keys \(Set(c.keys).subtracting(allowed))")
            let id = try #require(c["unique_id"] as? String)
            #expect(id == key && id.hasPrefix("dosetap_bedroom_"))
            #expect(ids.insert(id).inserted)
            if let dc = c["device_class"] as? String { #expect(Self.schema.device_classes[platform]?.contains(dc) == true, "\(key): \(dc)") }
            if let cat = c["entity_category"] as? String { #expect(Self.schema.entity_categories.contains(cat)) }
            #expect(!c.keys.contains { $0.contains("command") }, "read-only: \(key)")
        }
    }

    @Test func sensorsFollowHomeAssistantsRulesBetweenKeys() throws {
        for (key, c) in try Self.components() where c["platform"] as? String == "sensor" {
            switch c["device_class"] as? String {
            case "timestamp":
                #expect(c["unit_of_measurement"] == nil && c["state_class"] == nil, "\(key): a timestamp has no unit or state class")
            case "enum":
                #expect((c["options"] as? [String])?.isEmpty == false && c["state_class"] == nil && c["unit_of_measurement"] == nil)
            case "duration":
                #expect(Self.schema.duration_units.contains(c["unit_of_measurement"] as? String ?? ""))
            default:
                #expect(c["options"] == nil)
            }
        }
        for (key, c) in try Self.components() where c["platform"] as? String == "binary_sensor" {
            #expect(c["payload_on"] as? String == "ON" && c["payload_off"] as? String == "OFF", "\(key)")
        }
    }

    @Test func theEventEntityListsEveryKindTheFeedHasOnItsOwnTopic() throws {
        let events = try #require(try Self.components()["dosetap_bedroom_events"])
        #expect(events["platform"] as? String == "event")
        #expect(events["state_topic"] as? String == "dosetap/bedroom/event")
        #expect(events["event_types"] as? [String] == FeedEvent.Kind.allCases.map(\.rawValue))
    }

    /// The templates read keys the state message has (a renamed key would leave a sensor unknown).
    @Test func everyTemplateReadsAKeyTheStateHas() throws {
        let state = try #require(try JSONSerialization.jsonObject(with: Data(BridgeMessages.state(try MessagesTests.status()))) as? [String: Any])
        for (key, c) in try Self.components() where c["platform"] as? String != "event" {
            for template in [c["value_template"], c["json_attributes_template"]].compactMap({ $0 as? String }) {
                let fields = template.matches(of: /value_json\.([a-z0-9_]+)/).map { String($0.1) }
                #expect(!fields.isEmpty, "\(key): \(template)")
                for field in fields { #expect(state.keys.contains(field), "\(key) reads \(field)") }
            }
            if c["json_attributes_template"] != nil { #expect(c["json_attributes_topic"] as? String == Self.topics.state) }
        }
    }

    /// Home Assistant takes QoS from each component (not from the top level): every
    /// subscription it makes for the box is QoS 1, so an alarm sent while its link blips arrives.
    @Test func everyComponentAsksForQoS1() throws {
        for (key, c) in try Self.allComponents() { #expect(c["qos"] as? Int == 1, "\(key)") }
    }

    /// The phase in words, with the words as the enum's options; how the night ended.
    @Test func enumSensorsOfferWhatTheirTemplatesGive() throws {
        let c = try Self.components()
        let phase = try #require(c["dosetap_bedroom_phase"])
        #expect(phase["value_template"] as? String == "{{ value_json.phase_text }}")
        #expect(phase["options"] as? [String] == Phase.allCases.map { StatusReport.words(forPhase: $0.rawValue) })
        #expect((phase["options"] as? [String])?.contains("window open: take Dose 2") == true)
        let end = try #require(c["dosetap_bedroom_night_end"])
        #expect(end["options"] as? [String] == ["completed", "skipped", "expired", "aborted", "not ended"])
    }

    /// What a caregiver's dashboard should show: the fault (a first signal, not a
    /// diagnostic), its code and advice, the next alarm, the target, the window's opening.
    @Test func theCaregiversEntitiesAreThereAndTheFaultIsNotADiagnostic() throws {
        let c = try Self.components()
        for key in ["fault", "fault_code", "next_alarm", "target", "target_minutes", "window_opens", "snoozes_left", "night_end"] {
            #expect(c["dosetap_bedroom_\(key)"] != nil, "\(key)")
        }
        #expect(c.values.allSatisfy { $0["entity_category"] == nil }, "no entity hidden as a diagnostic")
        #expect(c["dosetap_bedroom_fault"]?["json_attributes_template"] as? String == "{{ {'codes': value_json.faults, 'advice': value_json.fault_advice} | tojson }}")
    }

    /// Two boxes are two devices with their own names.
    @Test func theDeviceIsNamedWithItsBox() throws {
        let device = try #require(try Self.payload()["device"] as? [String: Any])
        #expect(device["name"] as? String == "DoseTap Box bedroom")
        let other = BridgeTopics(base: "dosetap", boxID: "guest_room", discoveryPrefix: "homeassistant")
        #expect(Discovery.deviceName(other) == "DoseTap Box guest_room")
        #expect(other.discovery != Self.topics.discovery)
    }

    /// A device trigger for every kind of feed entry, matched on the event's `event_type`.
    @Test func everyKindIsADeviceTrigger() throws {
        let triggers = try Self.triggers()
        #expect(Set(triggers.compactMap { $0.value["payload"] as? String }) == Set(BridgeMessages.eventTypes))
        #expect(triggers.count == BridgeMessages.eventTypes.count)
        for (key, t) in triggers {
            let allowed = Set(Self.schema.common_allowed + (Self.schema.platform_allowed["device_automation"] ?? []))
            #expect(Set(t.keys).subtracting(allowed).isEmpty, "\(key): \(Set(t.keys).subtracting(allowed))")
            for k in Self.schema.platform_required["device_automation"] ?? [] { #expect(t[k] != nil, "\(key): \(k)") }
            #expect(t["automation_type"] as? String == "trigger" && t["topic"] as? String == Self.topics.event)
            #expect(t["value_template"] as? String == "{{ value_json.event_type }}" && t["type"] as? String == t["payload"] as? String)
        }
    }

    @Test func homeAssistantsStatusIsUnderTheDiscoveryPrefix() {
        #expect(Self.topics.homeAssistantStatus == "homeassistant/status")
    }
}
