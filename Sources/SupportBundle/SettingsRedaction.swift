/// The box's settings as `app_metadata.json` shows them: a value that is a secret, or says
/// who or where one is, becomes `<redacted>` and is counted for the manifest.
public enum SettingsRedaction {
    /// Keys whose name says they hold a secret, an account, a machine or a file of keys
    /// (`mqtt.password_file`, `mqtt.username`, `mqtt.host`, `mqtt.tls_key`, ...).
    public static let secretish = ["password", "username", "user", "host", "secret", "token", "tls_", "cafile", "certfile", "keyfile"]

    /// Keys whose value says where one lives or whose box it is, whatever it is set to: the
    /// zone's name (America/Chicago; the bundle has the UTC offset instead), and the MQTT box
    /// id and topics, which a person names after a room or a family ("janes-bedroom",
    /// "smithhouse") and which default to the host name.
    public static let identifying: Set<String> = ["box.time_zone", "mqtt.box_id", "mqtt.base_topic", "mqtt.discovery_prefix"]

    public struct Result: Sendable, Hashable {
        public var settings: [String: String]
        /// "setting" -> how many values were taken out, for the manifest.
        public var counts: [String: Int]
    }

    public static func redact(_ entries: [(key: String, value: String)]) -> Result {
        var settings: [String: String] = [:]
        var taken = 0
        for e in entries where settings[e.key] == nil {
            let key = e.key.lowercased()
            if identifying.contains(key) || secretish.contains(where: { key.contains($0) }) {
                settings[e.key] = "<redacted>"
                taken += 1
            } else {
                settings[e.key] = e.value
            }
        }
        return Result(settings: settings, counts: taken == 0 ? [:] : ["setting": taken])
    }
}
