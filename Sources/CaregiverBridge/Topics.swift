/// Where the bridge publishes: everything under `<base>/<box id>/`, and Home Assistant's
/// discovery config under its prefix. The names are checked by boxd's config reader
/// (letters, digits, `_`, `-`), so no topic holds a wildcard.
public struct BridgeTopics: Sendable, Hashable {
    public var base: String
    public var boxID: String
    public var discoveryPrefix: String

    public init(base: String, boxID: String, discoveryPrefix: String) {
        self.base = base
        self.boxID = boxID
        self.discoveryPrefix = discoveryPrefix
    }

    var root: String { "\(base)/\(boxID)" }
    /// Retained: where the night stands, republished on every change.
    public var state: String { "\(root)/state" }
    /// Not retained: one message per feed entry, in order, each with its id.
    public var event: String { "\(root)/event" }
    /// Retained `online`; the broker's last will sets `offline`.
    public var availability: String { "\(root)/availability" }
    /// Home Assistant's device-based discovery: one retained config for the whole box.
    public var discovery: String { "\(discoveryPrefix)/device/\(uniquePrefix)/config" }

    /// Home Assistant's birth and will (`online` when it starts): the bridge publishes its
    /// discovery again on `online`, so a Home Assistant that lost the retained config (a fresh
    /// broker, a deleted device) finds the box again without a restart of the bridge.
    public var homeAssistantStatus: String { "\(discoveryPrefix)/status" }

    /// The prefix of every unique_id, and the device's identifier.
    public var uniquePrefix: String { "dosetap_\(boxID)" }

    public static let online = "online"
    public static let offline = "offline"
}
