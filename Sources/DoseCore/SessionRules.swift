import Foundation

/// Where a night begins and ends on the wall clock (SSOT 3.0, "Time Boundary Model" and
/// "Closure rules"). These are calendar rules by nature; the dose window never uses them.
public enum SessionRules {
    /// The session's grouping key, YYYY-MM-DD: the local date, where times before the
    /// rollover hour (18:00) still belong to the previous evening's night.
    public static func sessionKey(for date: Date, timeZone: TimeZone, rolloverHour: Int) -> String {
        let cal = calendar(timeZone)
        let hour = cal.component(.hour, from: date)
        let day = hour < rolloverHour ? (cal.date(byAdding: .day, value: -1, to: date) ?? date) : date
        let c = cal.dateComponents([.year, .month, .day], from: day)
        return pad(c.year ?? 0, 4) + "-" + pad(c.month ?? 0, 2) + "-" + pad(c.day ?? 0, 2)
    }

    /// The night an evening's time leads into (#33: drinks, the pre-sleep log): from the wake
    /// time on, the night that begins that day's evening; before it, the night still running.
    /// (A night's own date rolls over at prep_time, so an afternoon's drink, before 18:00,
    /// would otherwise be put down to last night.)
    public static func eveningKey(for date: Date, timeZone: TimeZone, rules: DoseConstants.Session) -> String {
        sessionKey(for: date, timeZone: timeZone, rolloverHour: rules.wakeTime.hour)
    }

    /// The first local occurrence of `time` strictly after `date`.
    public static func nextOccurrence(of time: ClockTime, after date: Date, timeZone: TimeZone) -> Date {
        let cal = calendar(timeZone)
        let match = DateComponents(hour: time.hour, minute: time.minute, second: 0)
        return cal.nextDate(after: date, matching: match, matchingPolicy: .nextTime) ?? date.addingTimeInterval(86_400)
    }

    /// Fallback A: the missed check-in cutoff, the wake time after the session started plus the cutoff hours.
    public static func missedCheckInCutoff(sessionStart: Date, timeZone: TimeZone, rules: DoseConstants.Session) -> Date {
        nextOccurrence(of: rules.wakeTime, after: sessionStart, timeZone: timeZone)
            .addingTimeInterval(rules.missedCheckinCutoffH * 3600)
    }

    /// Fallback B: the prep-time soft rollover, the first prep time (18:00) after the session started.
    public static func prepRollover(sessionStart: Date, timeZone: TimeZone, rules: DoseConstants.Session) -> Date {
        nextOccurrence(of: rules.prepTime, after: sessionStart, timeZone: timeZone)
    }

    /// The earliest fallback boundary of a session and why it closes there; `prepRollover`
    /// when the night's rollover is not the first after its start (BoxState.nightRollover).
    public static func fallbackClose(sessionStart: Date, prepRollover given: Date? = nil, timeZone: TimeZone,
                                     rules: DoseConstants.Session) -> (at: Date, reason: CloseReason) {
        let cutoff = missedCheckInCutoff(sessionStart: sessionStart, timeZone: timeZone, rules: rules)
        let prep = given ?? prepRollover(sessionStart: sessionStart, timeZone: timeZone, rules: rules)
        return cutoff <= prep ? (cutoff, .missedCheckInCutoff) : (prep, .prepTimeRollover)
    }

    public static func calendar(_ timeZone: TimeZone) -> Calendar {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        return cal
    }

    public static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
