import Testing
import SupportBundle

/// Issue 29: the settings in `app_metadata.json` said where the box is and whose it is
/// (`box.time_zone = America/Chicago`, `mqtt.box_id = janes-bedroom`, `mqtt.base_topic =
/// smithhouse`). The zone goes as an offset, set elsewhere; these values go as `<redacted>`.
@Suite struct SettingsRedactionTests {
    @Test func theZoneNameTheBoxIdAndTheTopicsAreTakenOut() {
        let r = SettingsRedaction.redact([
            ("box.time_zone", "America/Chicago"), ("mqtt.box_id", "janes-bedroom"), ("mqtt.base_topic", "smithhouse"),
            ("mqtt.discovery_prefix", "smith/ha"), ("mqtt.host", "broker.smith.lan"), ("mqtt.tls_key", "/etc/boxd/jane.key"),
            ("mqtt.password_file", "/etc/boxd/mqtt-password"), ("box.target_minutes", "165"), ("voice.language", "en"),
        ])
        #expect(r.settings == [
            "box.time_zone": "<redacted>", "mqtt.box_id": "<redacted>", "mqtt.base_topic": "<redacted>",
            "mqtt.discovery_prefix": "<redacted>", "mqtt.host": "<redacted>", "mqtt.tls_key": "<redacted>",
            "mqtt.password_file": "<redacted>", "box.target_minutes": "165", "voice.language": "en",
        ])
        #expect(r.counts == ["setting": 7])
    }

    @Test func nothingTakenOutCountsNothing() {
        let r = SettingsRedaction.redact([("box.target_minutes", "165"), ("mqtt.enabled", "false")])
        #expect(r.settings == ["box.target_minutes": "165", "mqtt.enabled": "false"])
        #expect(r.counts.isEmpty)
    }
}
