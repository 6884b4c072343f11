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

    static func components() throws -> [String: [String: Any]] {
        try #require(try payload()["components"] as? [String: [String: Any]])
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
        #expect(components.count == 9)
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
                #expect(c["options"] as? [String] == Phase.allCases.map(\.rawValue) && c["state_class"] == nil && c["unit_of_measurement"] == nil)
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
            let template = try #require(c["value_template"] as? String)
            let field = try #require(template.firstMatch(of: /value_json\.([a-z0-9_]+)/)?.1)
            #expect(state.keys.contains(String(field)), "\(key) reads \(field)")
        }
    }
}
