import BoxControl
import CaregiverBridge
import Foundation

/// The bridge's side of Home Assistant's absences (`HomeAssistantPresence` says what to do):
/// the events it missed, read back from boxd and sent again.
extension Bridge {
    /// After Home Assistant's birth, the wait before the missed events go: a Home Assistant that
    /// lost the discovery subscribes to the event topic only once the discovery just published
    /// again is processed (its discovery cooldown, about 2 s).
    static let resendDelaySeconds = 5.0

    /// Sends feed entries `after`+1 through `through` again, read back from boxd on a thread of
    /// its own (this is libmosquitto's). They were acknowledged before or are in flight, so the
    /// cursor does not follow them; their PUBACKs are nobody's.
    func resendToHomeAssistant(after: Int64, through: Int64) {
        let t = Thread { [self] in
            lock.lock()
            let until = Date(timeIntervalSinceNow: Self.resendDelaySeconds)
            while !stopping, lock.wait(until: until) {}
            lock.unlock()
            do {
                let watch = try ControlClient(path: options.socketPath).openWatch(after: after)
                defer { watch.shutdown() }
                guard case .watching? = try watch.next(timeoutMs: 10_000) else { throw Refused(description: "boxd did not answer the watch") }
                var id = after
                while id < through, !isStopping {
                    guard case .event(let e)? = try watch.next(timeoutMs: 10_000) else { throw Refused(description: "boxd did not give event #\(id + 1) again") }
                    id = e.id
                    guard e.id <= through else { break }
                    try mqtt.publish(topic: options.topics.event, payload: BridgeMessages.event(e, boxID: options.topics.boxID), qos: 1, retain: false)
                }
                logger.info("sent events #\(after + 1)-#\(through) again for Home Assistant")
            } catch {
                logger.error("could not send Home Assistant the events it missed (#\(after + 1)-#\(through)): \(error)")
            }
        }
        t.name = "resend"
        t.start()
    }
}
