/// What the bridge does with Home Assistant's status (`<discovery prefix>/status`): `online`
/// when it connects (its birth message, at every connect), `offline` when it goes (its will,
/// which the broker publishes when Home Assistant's link breaks or it stops).
///
/// Home Assistant connects with a clean session, so the broker keeps nothing for it while it is
/// away: QoS 1 cannot bring it an event published then. So the bridge notes the newest entry it
/// had handed over when `offline` came, and when `online` comes it publishes the discovery again
/// and sends again every entry after that one (with their ids: a consumer drops one it has). A
/// link that dies silently is noticed by the broker only after 1.5 times Home Assistant's
/// keepalive (60 s): entries sent in that time are not sent again.
public struct HomeAssistantPresence: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        case nothing
        /// Publish availability, discovery and state again.
        case announce
        /// Announce, and send the feed's entries after `after` through `through` again.
        case announceAndResend(after: Int64, through: Int64)
    }

    /// The newest entry handed over when Home Assistant went away; nil while it is here (or
    /// was never seen to go).
    public private(set) var awayAfter: Int64?

    public init() {}

    /// Home Assistant said `payload`; `published` is the newest entry handed to the broker now.
    public mutating func heard(_ payload: [UInt8], published: Int64) -> Action {
        switch String(decoding: payload, as: UTF8.self) {
        case BridgeTopics.offline:
            // The first `offline` marks it; another before `online` changes nothing.
            if awayAfter == nil { awayAfter = published }
            return .nothing
        case BridgeTopics.online:
            defer { awayAfter = nil }
            guard let after = awayAfter, published > after else { return .announce }
            return .announceAndResend(after: after, through: published)
        default:
            return .nothing
        }
    }
}
