import BoxControl
import BoxWords
import DoseCore
import Foundation

/// The JSON the bridge publishes, built from what boxd says (pure: no clock but the status's
/// own `now`). Keys are snake_case and sorted, so equal states are equal bytes and the
/// retained state is republished only when something changed.
public enum BridgeMessages {
    /// One feed entry as an `event` message. `event_type` is the feed's kind (Home
    /// Assistant's event entity needs it); `id` lets a consumer drop a message it already has.
    /// A fault event (fault_raised, fault_cleared) has no session and its fault's code as `type`.
    /// A sleep event's or check-in's notes stay on the box: a caregiver learns what happened,
    /// not what the patient wrote.
    public static func event(_ e: FeedEvent, boxID: String) -> [UInt8] {
        var o: [String: Any] = [
            "event_type": e.kind.rawValue, "id": e.id, "at": utc(fromStored: e.at), "box_id": boxID,
        ]
        o["session_id"] = e.sessionID
        o["session_date"] = e.sessionDate
        o["subject"] = e.subject
        o["source"] = e.source
        o["type"] = e.eventType
        o["is_early"] = e.isEarly
        o["is_late"] = e.isLate
        o["snooze_number"] = e.snoozeNumber
        o["reason"] = e.reason
        o["terminal_state"] = e.terminalState
        o["target_minutes"] = e.targetMinutes
        o["level"] = e.level
        // The supply's entries (refill_reminder above all): the change and the doses left.
        o["doses"] = e.doses
        o["remaining_doses"] = e.remainingDoses
        // A fault raised says what to do about it, in the box's own words.
        if e.kind == .faultRaised, let fault = e.eventType.flatMap(Fault.init(code:)) { o["advice"] = Written.advice(fault) }
        return json(o)
    }

    /// The feed's kinds: Home Assistant's event entity lists them (`event_types`).
    public static var eventTypes: [String] { FeedEvent.Kind.allCases.map(\.rawValue) }

    /// The retained `state`. `minutes_left` counts whole minutes to the window's close while
    /// Dose 2 is still due; the caregiver link's own fault is left out (a bridge that can
    /// publish this is connected).
    /// `phase_text` is the phase in the words `boxctl status` uses; `fault_code` and
    /// `fault_advice` are the first fault's (the order boxd lists them in), null without one.
    public static func state(_ s: StatusReport) -> [UInt8] {
        let faults = s.faults.filter { !$0.code.hasPrefix("caregiver_link") }
        var o: [String: Any] = [
            "phase": s.phase, "phase_text": StatusReport.words(forPhase: s.phase), "target_minutes": s.targetMinutes,
            "snoozes_used": s.snoozesUsed, "snoozes_remaining": s.snoozesRemaining, "alarm_ringing": s.alarmRinging,
            "fault": !faults.isEmpty, "faults": faults.map(\.code),
            "fault_code": faults.first?.code ?? NSNull(), "fault_advice": faults.first?.advice ?? NSNull(),
        ]
        o["session_date"] = s.sessionDate ?? NSNull()
        o["dose1_at"] = timestamp(s.dose1At)
        o["dose2_at"] = timestamp(s.dose2At)
        o["skipped_at"] = timestamp(s.skippedAt)
        o["window_opens_at"] = timestamp(s.windowOpensAt)
        o["window_closes_at"] = timestamp(s.windowClosesAt)
        o["target_at"] = timestamp(s.targetAt)
        o["terminal_state"] = s.terminalState ?? NSNull()
        o["minutes_left"] = minutesLeft(s).map { $0 as Any } ?? NSNull()
        if let n = s.nextAlarm {
            o["next_alarm"] = ["kind": n.kind, "level": n.level, "at": timestamp(n.at)]
        } else {
            o["next_alarm"] = NSNull()
        }
        return json(o)
    }

    /// Whole minutes until the window closes, while Dose 2 is due (neither taken nor skipped).
    public static func minutesLeft(_ s: StatusReport) -> Int? {
        guard s.dose2At == nil, s.skippedAt == nil, let close = s.windowClosesAt else { return nil }
        return max(0, Int((close.timeIntervalSince(s.now) / 60).rounded(.down)))
    }

    /// RFC 3339 in UTC with an explicit offset (Home Assistant's timestamp sensors refuse a
    /// time without a zone); null when absent.
    static func timestamp(_ d: Date?) -> Any {
        guard let d else { return NSNull() }
        return utc(fromStored: d.formatted(.iso8601))
    }

    /// The log's `…Z` time with `+00:00`, as the state's times are written.
    static func utc(fromStored at: String) -> String {
        at.hasSuffix("Z") ? String(at.dropLast()) + "+00:00" : at
    }

    static func json(_ object: Any) -> [UInt8] {
        // Only JSON types go in, so serialisation cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Array(data)
    }
}
