import Foundation

/// SSOT 2.4.3 "Data Management": delete a night, or clear the old ones, each with a
/// confirmation. Undo marks a dose (the row stays); forgetting removes the night's rows.
/// What the box keeps, for safety, whatever is asked:
/// - its latest night, open or closed: the two-dose guard, the doubt and status read it;
/// - any night with a dose taken less than `safety.newDose1AfterLastDoseMin` (240 min) ago:
///   the guard against a new Dose 1 too soon after the last dose needs it.
public enum Forgetting {
    /// One night the range holds, as the rule needs it.
    public struct Night: Sendable, Hashable {
        public var sessionID: String
        public var sessionDate: String
        /// The last dose taken in it (not undone), if any.
        public var lastDose: Date?
        public init(sessionID: String, sessionDate: String, lastDose: Date?) {
            self.sessionID = sessionID
            self.sessionDate = sessionDate
            self.lastDose = lastDose
        }
    }

    public enum KeptBecause: Sendable, Hashable {
        case latestNight
        case recentDose(Date)
    }

    public struct Kept: Sendable, Hashable {
        public var night: Night
        public var because: KeptBecause
        public init(night: Night, because: KeptBecause) {
            self.night = night
            self.because = because
        }
    }

    public struct Plan: Sendable, Hashable {
        public var forget: [Night]
        public var kept: [Kept]
    }

    /// The session dates asked for: `from` (nil: from the first night) to `to`, inclusive.
    public struct Range: Sendable, Hashable {
        public var from: String?
        public var to: String
        public init(from: String?, to: String) {
            self.from = from
            self.to = to
        }
    }

    /// What forgetting removes, table by table (the log counts them).
    public struct Counts: Sendable, Hashable {
        public var nights = 0
        public var doseEvents = 0
        public var sleepEvents = 0
        public var checkIns = 0
        public var notices = 0
        public var medications = 0
        public init() {}
    }

    public static func plan(_ nights: [Night], latestSessionID: String?, now: Date, rules: DoseConstants = .box) -> Plan {
        var plan = Plan(forget: [], kept: [])
        let recent = rules.safety.newDose1AfterLastDoseMin * 60
        for n in nights {
            if n.sessionID == latestSessionID {
                plan.kept.append(Kept(night: n, because: .latestNight))
            } else if let last = n.lastDose, now.timeIntervalSince(last) < recent {
                plan.kept.append(Kept(night: n, because: .recentDose(last)))
            } else {
                plan.forget.append(n)
            }
        }
        return plan
    }
}
