import Foundation
import DoseCore

/// What the caregiver bridge (boxd-mqtt) tells boxd about its link to the MQTT broker, as a
/// `link` frame on its `watch` connection. boxd keeps the last one while that connection is
/// open, and times the changes on its own clock (the one `boxctl status` shows); when the
/// connection closes, the bridge is gone.
public struct CaregiverLinkReport: Sendable, Hashable {
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Connected; the broker acknowledges what is published.
        case up
        /// Not connected (broker unreachable, connection lost, TLS failed): retrying.
        case down
        /// The broker answered and said no (bad password, not authorised): retrying.
        case refused
    }

    public var state: State
    /// Why it is down or refused, in the library's words.
    public var detail: String?
    /// Every feed entry up to this id is on the broker (the bridge's cursor).
    public var acked: Int64

    public init(state: State, detail: String?, acked: Int64) {
        self.state = state
        self.detail = detail
        self.acked = acked
    }
}

/// The caregiver link as `boxctl status` shows it: present when `[mqtt]` is enabled or a
/// bridge has reported.
public struct CaregiverLinkStatus: Codable, Sendable, Hashable {
    /// `up`, `down`, `refused`, or `no_bridge` (no boxd-mqtt connected).
    public var state: String
    public var since: Date
    public var detail: String?
    /// Feed entries the broker does not have yet; nil when no bridge ever said its cursor.
    public var queued: Int?

    public static let noBridge = "no_bridge"

    public init(state: String, since: Date, detail: String?, queued: Int?) {
        self.state = state
        self.since = since
        self.detail = detail
        self.queued = queued
    }

    enum CodingKeys: String, CodingKey { case state, since, detail, queued }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(state, forKey: .state)
        try c.encode(since, forKey: .since)
        try c.encode(detail, forKey: .detail)
        try c.encode(queued, forKey: .queued)
    }

    /// The status line: "Caregiver link: down since 01:12 (Connection refused), 3 events queued".
    public func text(timeZone: TimeZone) -> String {
        let at = LocalTime.hhmm(since, in: timeZone)
        let queuedText = queued.map { $0 == 0 ? "" : ", \($0) event\($0 == 1 ? "" : "s") queued" } ?? ""
        let why = detail.map { " (\($0))" } ?? ""
        switch state {
        case "up": return "Caregiver link: up since \(at)\(queuedText)"
        case Self.noBridge: return "Caregiver link: DOWN, boxd-mqtt is not connected (since \(at))\(queuedText)"
        case "refused": return "Caregiver link: REFUSED by the broker since \(at)\(why)\(queuedText)"
        default: return "Caregiver link: DOWN since \(at)\(why)\(queuedText)"
        }
    }
}
