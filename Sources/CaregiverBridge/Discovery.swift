import BoxControl
import DoseCore
import Foundation

/// Home Assistant's MQTT discovery for the box: one retained device-based config
/// (`<prefix>/device/<id>/config`) with every entity and device trigger as a component,
/// availability wired to the bridge's last will. Keys are written out in full (no
/// abbreviations), and only keys Home Assistant's schema knows (it drops unknown keys
/// silently; the test checks a list). Nothing here has a command topic: MQTT can read the
/// night, never record, undo or skip.
///
/// Every component carries `qos: 1` itself: Home Assistant inherits only the availability
/// options and the state and command topics from the top level, so a top-level `qos` alone
/// left it subscribing at QoS 0 (its log, 2026.2.3). What is published while Home Assistant is
/// away is another matter (it connects with a clean session): `HomeAssistantPresence`.
public enum Discovery {
    public static func payload(_ topics: BridgeTopics, version: String) -> [UInt8] {
        let id = topics.uniquePrefix
        func component(_ key: String, _ platform: String, _ name: String, _ extra: [String: Any]) -> (String, [String: Any]) {
            var c: [String: Any] = ["platform": platform, "unique_id": "\(id)_\(key)", "name": name, "qos": 1]
            c.merge(extra) { $1 }
            return ("\(id)_\(key)", c)
        }
        func value(_ field: String) -> String { "{{ value_json.\(field) }}" }
        func timestamp(_ field: String) -> [String: Any] { ["device_class": "timestamp", "value_template": value(field)] }
        func minutes(_ field: String) -> [String: Any] {
            ["value_template": value(field), "device_class": "duration", "unit_of_measurement": "min"]
        }
        /// The state's fields as the entity's attributes (a template that always renders an object).
        func attributes(_ object: String) -> [String: Any] {
            ["json_attributes_topic": topics.state, "json_attributes_template": "{{ \(object) | tojson }}"]
        }
        let faultAttributes = attributes("{'codes': value_json.faults, 'advice': value_json.fault_advice}")
        var components = Dictionary(uniqueKeysWithValues: [
            component("phase", "sensor", "Phase", [
                "value_template": value("phase_text"), "device_class": "enum", "options": phaseOptions, "icon": "mdi:pill",
            ]),
            component("dose1", "sensor", "Dose 1", timestamp("dose1_at")),
            component("dose2", "sensor", "Dose 2", timestamp("dose2_at")),
            component("window_opens", "sensor", "Window opens", timestamp("window_opens_at")),
            component("window_closes", "sensor", "Window closes", timestamp("window_closes_at")),
            component("target", "sensor", "Dose 2 target", timestamp("target_at")),
            component("target_minutes", "sensor", "Target interval", minutes("target_minutes")),
            component("minutes_left", "sensor", "Minutes left", minutes("minutes_left").merging(["state_class": "measurement"]) { $1 }),
            component("next_alarm", "sensor", "Next alarm", [
                "device_class": "timestamp", "icon": "mdi:alarm",
                "value_template": "{{ value_json.next_alarm.at if value_json.next_alarm else None }}",
            ].merging(attributes("value_json.next_alarm or {}")) { $1 }),
            component("snoozes", "sensor", "Snoozes used", [
                "value_template": value("snoozes_used"), "state_class": "measurement", "icon": "mdi:alarm-snooze",
            ]),
            component("snoozes_left", "sensor", "Snoozes left", [
                "value_template": value("snoozes_remaining"), "state_class": "measurement", "icon": "mdi:alarm-snooze",
            ]),
            component("night_end", "sensor", "Night ended", [
                "value_template": "{{ value_json.terminal_state or '\(notEnded)' }}", "device_class": "enum",
                "options": nightEndOptions, "icon": "mdi:weather-night",
            ]),
            component("alarm", "binary_sensor", "Alarm ringing", [
                "value_template": "{{ 'ON' if value_json.alarm_ringing else 'OFF' }}", "payload_on": "ON",
                "payload_off": "OFF", "device_class": "sound",
            ]),
            // Not `diagnostic`: "alarms cannot sound" is a caregiver's first signal, and a
            // diagnostic entity is left off the dashboards Home Assistant makes.
            component("fault", "binary_sensor", "Fault", [
                "value_template": "{{ 'ON' if value_json.fault else 'OFF' }}", "payload_on": "ON", "payload_off": "OFF",
                "device_class": "problem",
            ].merging(faultAttributes) { $1 }),
            component("fault_code", "sensor", "Fault code", [
                "value_template": "{{ value_json.fault_code or 'none' }}", "icon": "mdi:alert-circle-outline",
            ].merging(faultAttributes) { $1 }),
            component("events", "event", "Night events", [
                "state_topic": topics.event, "event_types": BridgeMessages.eventTypes, "icon": "mdi:bell-ring",
            ]),
        ])
        // A device trigger per kind of feed entry ("DoseTap Box bedroom: alarm_unanswered"),
        // for automations made in Home Assistant's editor. Triggers have no unique_id and no
        // availability; their key is the discovery id.
        for kind in BridgeMessages.eventTypes {
            components["\(id)_on_\(kind)"] = [
                "platform": "device_automation", "automation_type": "trigger", "topic": topics.event,
                "type": kind, "subtype": "night_event", "value_template": "{{ value_json.event_type }}", "payload": kind,
                "qos": 1,
            ]
        }
        let o: [String: Any] = [
            "device": [
                "identifiers": [id], "name": deviceName(topics), "manufacturer": "DoseTap", "model": "DoseTap Box",
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

    /// Named with the box id, so two boxes make two devices told apart, and entity ids
    /// (`sensor.dosetap_box_bedroom_phase`) that say which box.
    public static func deviceName(_ topics: BridgeTopics) -> String { "DoseTap Box \(topics.boxID)" }

    /// The phase sensor's options: each phase in the words `boxctl status` uses.
    static var phaseOptions: [String] { Phase.allCases.map { StatusReport.words(forPhase: $0.rawValue) } }

    /// How the night ended (the log's terminal states), or not yet.
    static let notEnded = "not ended"
    static var nightEndOptions: [String] { TerminalState.allCases.map(\.rawValue) + [notEnded] }
}
