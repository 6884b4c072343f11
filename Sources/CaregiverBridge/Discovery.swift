import DoseCore
import Foundation

/// Home Assistant's MQTT discovery for the box: one retained device-based config
/// (`<prefix>/device/<id>/config`) with every entity as a component, availability wired to
/// the bridge's last will. Keys are written out in full (no abbreviations), and only keys
/// Home Assistant's schema knows (it drops unknown keys silently; the test checks a list).
/// Nothing here has a command topic: MQTT can read the night, never record, undo or skip.
public enum Discovery {
    public static func payload(_ topics: BridgeTopics, version: String) -> [UInt8] {
        let id = topics.uniquePrefix
        func component(_ key: String, _ platform: String, _ name: String, _ extra: [String: Any]) -> (String, [String: Any]) {
            var c: [String: Any] = ["platform": platform, "unique_id": "\(id)_\(key)", "name": name]
            c.merge(extra) { $1 }
            return ("\(id)_\(key)", c)
        }
        func value(_ field: String) -> String { "{{ value_json.\(field) }}" }
        let timestamp: [String: Any] = ["device_class": "timestamp"]
        let components = Dictionary(uniqueKeysWithValues: [
            component("phase", "sensor", "Phase", [
                "value_template": value("phase"), "device_class": "enum", "options": phases, "icon": "mdi:pill",
            ]),
            component("dose1", "sensor", "Dose 1", timestamp.merging(["value_template": value("dose1_at")]) { $1 }),
            component("dose2", "sensor", "Dose 2", timestamp.merging(["value_template": value("dose2_at")]) { $1 }),
            component("window_closes", "sensor", "Window closes",
                      timestamp.merging(["value_template": value("window_closes_at")]) { $1 }),
            component("minutes_left", "sensor", "Minutes left", [
                "value_template": value("minutes_left"), "device_class": "duration", "unit_of_measurement": "min",
                "state_class": "measurement",
            ]),
            component("snoozes", "sensor", "Snoozes used", [
                "value_template": value("snoozes_used"), "state_class": "measurement", "icon": "mdi:alarm-snooze",
            ]),
            component("alarm", "binary_sensor", "Alarm ringing", [
                "value_template": "{{ 'ON' if value_json.alarm_ringing else 'OFF' }}", "payload_on": "ON",
                "payload_off": "OFF", "device_class": "sound",
            ]),
            component("fault", "binary_sensor", "Fault", [
                "value_template": "{{ 'ON' if value_json.fault else 'OFF' }}", "payload_on": "ON", "payload_off": "OFF",
                "device_class": "problem", "entity_category": "diagnostic",
            ]),
            component("events", "event", "Night events", [
                "state_topic": topics.event, "event_types": BridgeMessages.eventTypes, "icon": "mdi:bell-ring",
            ]),
        ])
        let o: [String: Any] = [
            "device": [
                "identifiers": [id], "name": "DoseTap Box", "manufacturer": "DoseTap", "model": "DoseTap Box",
                "sw_version": version, "serial_number": topics.boxID,
            ],
            "origin": ["name": "boxd-mqtt", "sw_version": version],
            "availability_topic": topics.availability,
            "payload_available": BridgeTopics.online,
            "payload_not_available": BridgeTopics.offline,
            "state_topic": topics.state,
            "qos": 1,
            "components": components,
        ]
        return BridgeMessages.json(o)
    }

    /// The phases `state.phase` takes, for the enum sensor's options.
    static var phases: [String] { Phase.allCases.map(\.rawValue) }
}
