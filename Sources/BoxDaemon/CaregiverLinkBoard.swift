import BoxControl
import Foundation
import Synchronization

/// What boxd knows of the caregiver link: the bridge's last `link` report while its watch
/// connection is open. boxd never touches the network; it only shows what the bridge says,
/// in `boxctl status` (a line and a fault, never a tone or an LED: the link is the
/// caregiver's concern, and the patient asleep beside the box can do nothing about it).
public final class CaregiverLinkBoard: Sendable {
    struct Seen: Sendable {
        var report: CaregiverLinkReport?
        /// When the reported state began (boxd's clock).
        var since: Date
        var connected = false
        /// The watch connection that reported last: only its end means the bridge is gone
        /// (a bridge that reconnected reports on a new one before the old one is closed).
        var reporter: UInt64?
        /// Since when no bridge is connected (boxd's start, or the last bridge's goodbye).
        var goneSince: Date
    }

    /// `[mqtt]` is enabled: a missing bridge is a fault.
    let expected: Bool
    private let seen: Mutex<Seen>

    init(expected: Bool, since: Date) {
        self.expected = expected
        seen = Mutex(Seen(since: since, goneSince: since))
    }

    /// A report from watch connection `connection`, or nil when that connection closed.
    func update(_ report: CaregiverLinkReport?, from connection: UInt64, now: Date) {
        seen.withLock { s in
            if let report {
                if !s.connected || s.report?.state != report.state { s.since = now }
                s.report = report
                s.connected = true
                s.reporter = connection
            } else if s.connected, s.reporter == connection {
                s.connected = false
                s.goneSince = now
            }
        }
    }

    /// The status part; `queued(acked)` counts the feed entries after a cursor (nil: unknown).
    func status(queued: (Int64) -> Int?) -> CaregiverLinkStatus? {
        let s = seen.withLock { $0 }
        guard expected || s.report != nil else { return nil }
        let count = s.report.flatMap { queued($0.acked) }
        guard s.connected, let r = s.report else {
            return CaregiverLinkStatus(state: CaregiverLinkStatus.noBridge, since: s.goneSince, detail: nil, queued: count)
        }
        return CaregiverLinkStatus(state: r.state.rawValue, since: s.since, detail: r.detail, queued: count)
    }

    /// The fault a link that is not up adds to the status's list.
    static func fault(_ link: CaregiverLinkStatus) -> StatusReport.FaultReport? {
        switch link.state {
        case "up": nil
        case CaregiverLinkStatus.noBridge:
            .init(code: "caregiver_link_down", advice: "boxd-mqtt is not running: caregivers hear nothing. Check `systemctl status boxd-mqtt`.")
        case "refused":
            .init(code: "caregiver_link_refused", advice: "The MQTT broker refused the bridge (user name, password or permission): check [mqtt] and the password file.")
        default:
            .init(code: "caregiver_link_down", advice: "The MQTT broker cannot be reached; events wait on the box and are sent when it is back. Check the network and [mqtt].")
        }
    }
}
