import BoxWords
import DoseCore
import Foundation

extension FeedEvent {
    /// One line for `boxctl watch`: id, local time in `zone`, what happened, who did it.
    ///     #42  01:12  Dose 2 (late)  by button:dose
    public func text(in zone: TimeZone) -> String {
        let time = Date(iso8601: at).map { LocalTime.hhmm($0, in: zone) } ?? at
        let by = source.map { "  by \($0)" } ?? ""
        return "#\(id)  \(time)  \(what)\(by)"
    }

    /// What happened, as people say it.
    public var what: String {
        switch kind {
        case .nightStarted: return "night \(sessionDate ?? "?") started" + (targetMinutes.map { " (target \($0) min)" } ?? "")
        case .dose1, .dose2, .extraDose:
            let name = kind == .extraDose ? "extra dose" : kind == .dose1 ? "Dose 1" : "Dose 2"
            let flags = [isEarly == true ? "early" : nil, isLate == true ? "late" : nil].compactMap { $0 }
            return name + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))")
        case .dose2Skipped: return "Dose 2 skipped" + (reason.map { " (\($0))" } ?? "")
        case .snooze: return "snooze" + (snoozeNumber.map { " \($0)" } ?? "")
        case .undo:
            let undone = eventType.flatMap(DoseEventType.init(rawValue:)).map(Written.label) ?? eventType ?? "an event"
            return "undo of \(undone)"
        case .sleepEvent: return "sleep event \(eventType ?? "?")" + (notes.map { ": \($0)" } ?? "")
        case .checkIn: return "morning check-in"
        case .nightClosed:
            return "night \(sessionDate ?? "?") closed" + (terminalState.map { ": \($0)" } ?? "") + (reason.map { " (\($0))" } ?? "")
        case .alarmRang: return "alarm rang: " + alarmName
        // Loud like the escalations: nobody was woken, and someone elsewhere must know now.
        case .alarmSilent: return "ALARM COULD NOT SOUND: \(alarmName): the box cannot wake them (speaker failed)"
        case .alarmUnanswered: return "ALARM UNANSWERED: no Dose 2 after the last follow-up"
        case .dose2Missing: return "DOSE 2 MISSING: the window closes in \(DoseConstants.number(DoseConstants.box.caregiver.dose2MissingRemainingMin)) min"
        case .windowClosedWithoutDose2: return "WINDOW CLOSED WITHOUT DOSE 2"
        case .faultRaised:
            return "FAULT \(eventType ?? "?")" + (eventType.flatMap(Fault.init(code:)).map { ": \(Written.advice($0))" } ?? "")
        case .faultCleared: return "fault cleared: \(eventType ?? "?")"
        case .refillLogged: return "refill logged: +\(doses ?? 0) doses, \(remainingDoses ?? 0) left" + (notes.map { " (\($0))" } ?? "")
        case .inventoryAdjustment:
            return "supply corrected by \(doses.map { $0 > 0 ? "+\($0)" : "\($0)" } ?? "?") doses, \(remainingDoses ?? 0) left" + (notes.map { " (\($0))" } ?? "")
        case .refillReminder: return "REFILL DUE: \(remainingDoses ?? 0) doses left"
        case .drinkLogged: return "drink: \(eventType ?? "?")" + (units.map { " (\(Written.units($0)))" } ?? "")
        case .drinkUndone: return "drink taken back: \(eventType ?? "?")"
        case .pacing: return "pace: \(notes ?? eventType ?? "?")"
        }
    }

    /// An alarm's alert and level as people say them: "main alarm (critical)".
    var alarmName: String {
        (eventType?.replacingEvery("_", with: " ") ?? "?") + (level.map { " (\($0))" } ?? "")
    }
}
