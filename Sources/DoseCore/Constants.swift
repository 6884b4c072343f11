import Foundation

/// Every numeric rule of the box: the shape of the top-level constants.json. The build turns
/// that file into a value of this type (`box`, see Sources/ConstantsPlugin); nothing here is
/// typed in by hand. The build's generator compiles this file too (a link to it in
/// Sources/ConstantsEmbedder), so it must stand alone: the value lives in Constants+Box.swift.
public struct DoseConstants: Sendable, Hashable, Decodable {
    public struct Window: Sendable, Hashable, Decodable {
        public let openMin: Double
        public let closeMin: Double
        public let nearCloseRemainingMin: Double
        public let defaultTargetMin: Int
        public let validTargetsMin: [Int]
        public let onTimeThresholdMin: Double
    }
    public struct Snooze: Sendable, Hashable, Decodable {
        public let stepMin: Double
        public let maxPerNight: Int
        public let disabledBelowRemainingMin: Double
    }
    public struct Undo: Sendable, Hashable, Decodable {
        public let defaultS: Double
        public let choicesS: [Double]
    }
    public struct Alerts: Sendable, Hashable, Decodable {
        public let remainingWarningsBeforeCloseMin: [Double]
        public let hardStopWarningsBeforeCloseMin: [Double]
        /// Warnings this close to the close (or closer) ring at the critical level.
        public let criticalWithinMinOfClose: Double
        /// A soft tick each whole minute this close to the close, where no alert rings.
        public let minuteTicksWithinMinOfClose: Double
        /// A tick this late (boxd was down at its minute) is not given.
        public let minuteTickLateS: Double
    }
    public struct WakeAlarm: Sendable, Hashable, Decodable {
        public let preAlarmBeforeTargetMin: Double
        public let followUpsAfterTargetMin: [Double]
    }
    public struct Alarm: Sendable, Hashable, Decodable {
        public let ringS: Double
    }
    /// When a caregiver is told (DoseTap Box's own; see `CaregiverPlan`).
    public struct Caregiver: Sendable, Hashable, Decodable {
        /// "Alarm unanswered": this long after the wake alarm's last follow-up has rung out
        /// with Dose 2 still outstanding.
        public let unansweredGraceS: Double
        /// "Dose 2 missing": this many minutes before the window closes, Dose 2 outstanding.
        public let dose2MissingRemainingMin: Double
    }
    /// The night's schedule (SSOT 3.0). Settable: boxd.toml's `[schedule]` puts the
    /// person's own times in the settings' copy of the rules (`BoxConfig.settings`).
    public struct Session: Sendable, Hashable, Decodable {
        public var rolloverHour: Int
        public var sleepStart: ClockTime
        public var wakeTime: ClockTime
        public var prepTime: ClockTime
        public var missedCheckinCutoffH: Double
    }
    public struct Gestures: Sendable, Hashable, Decodable {
        public let debounceMs: Int
        public let doubleGapMs: Int
        public let holdMs: Int
        public let confirmHoldMs: Int
        /// Held this long on the dose button, in the window with Dose 2 owed: skip Dose 2.
        public let skipHoldMs: Int
        /// How long the voice waits for a skip's reason before it records `other`.
        public let skipReasonWaitS: Double
        public let confirmationWindowS: Double
        public let stuckGuardS: Double
    }
    /// The morning check-in by the button (#32): answers are counts of presses.
    public struct CheckIn: Sendable, Hashable, Decodable {
        /// This long after the last press, with no new one, the count is the answer. Longer
        /// than a hold, so that a hold is known for one before its press would count.
        public let answerGapMs: Int
        /// No press this long after a question: the check-in stops and saves nothing.
        public let questionWaitS: Double
        /// Each blink of the LED's count-back of an answer, on and off.
        public let countBlinkMs: Int
    }
    /// Take Care's drink pacing (seed 002, #33): the presets and the rules' windows and
    /// cooldowns. Read by PacingCore.
    public struct Pacing: Sendable, Hashable, Decodable {
        public struct Preset: Sendable, Hashable, Decodable {
            /// This many alcoholic drinks within it: rapid repeat.
            public let rapidRepeatWindowMin: Double
            /// Standard units in the fast-pace window above this: fast pace.
            public let fastPaceUnits: Double
            /// Standard units in the escalation window at or above this: escalation.
            public let escalationUnits: Double
            public let shotStackingWindowMin: Double
        }
        public struct Presets: Sendable, Hashable, Decodable {
            public let relaxed: Preset
            public let balanced: Preset
            public let strict: Preset
        }
        public struct DrinkDefault: Sendable, Hashable, Decodable {
            public let type: String
            public let units: Double
            public let alcoholic: Bool
        }
        public let presets: Presets
        public let fastPaceWindowMin: Double
        public let escalationWindowMin: Double
        public let rapidRepeatDrinks: Int
        public let shotStackingShots: Int
        public let warningCooldownMin: Double
        public let hydrationCadenceDrinks: Int
        /// No water check while water was logged this recently, nor within this of the last one.
        public let hydrationQuietMin: Double
        public let resetQuietMin: Double
        public let resetAfterWarningWithinMin: Double
        public let resetCooldownMin: Double
        /// An evening's pacing session ends this long after its last drink.
        public let sessionTimeoutMin: Double
        /// `boxctl drink add --units` above this is a typing error, not a drink.
        public let maxUnitsPerDrink: Double
        public let drinks: [DrinkDefault]
    }
    public struct SleepEventRule: Sendable, Hashable, Decodable {
        /// The schema's wire name, e.g. "bathroom" or "wake_final".
        public let event: String
        public let cooldownS: Double
    }
    public struct Feedback: Sendable, Hashable, Decodable {
        public let statusDisplayS: Double
    }
    public struct LED: Sendable, Hashable, Decodable {
        /// The LED turns yellow this close to the close (SSOT 2.4.3: "30 min warning, yellow indicator").
        public let yellowWithinMinOfClose: Double
    }
    /// The medication log (SSOT 2.4.2: "Duplicate guard (5-minute window, user confirmation
    /// for overrides)"); the dose's range and the time's bounds are the box's own.
    public struct Medication: Sendable, Hashable, Decodable {
        public let duplicateGuardMin: Double
        /// One entry's dose of Adderall (IR or XR), in mg: a quarter of the smallest tablet (5 mg,
        /// scored) to the label's most in a day (60 mg, for narcolepsy). The seed's picker
        /// offers 5 to 30 mg; outside this range is a slip of the keyboard, not a prescription.
        public let minDoseMg: Double
        public let maxDoseMg: Double
        /// An entry this far ahead of boxd's clock is still "now" (boxctl's clock may differ).
        public let futureToleranceS: Double
        /// An entry taken longer ago than this is refused: see `MedicationLog.takenAtProblem`.
        public let maxPastDays: Double
    }
    /// The supply of XYWAV (SSOT 1.1 "Inventory Management"), counted in doses.
    public struct Supply: Sendable, Hashable, Decodable {
        /// Dose 1 and Dose 2: a night's use.
        public let dosesPerNight: Int
        /// The refill reminder is due at this many nights left or fewer.
        public let refillReminderNights: Int
        /// The most one refill or adjustment may change the count by.
        public let maxChangeDoses: Int
    }
    /// When the insights have enough nights to say anything (DoseTap Box's own: SSOT 2.4.3
    /// names the `insufficient_data` state, not its threshold).
    public struct Insights: Sendable, Hashable, Decodable {
        public let minNights: Int
    }
    /// The weekly planner (SSOT 2.4.3, "Planner": `suggestNextWeekTarget` and its safety
    /// constraints; see `Planner`).
    public struct Planner: Sendable, Hashable, Decodable {
        public let baselineTargetMin: Int
        public let weekDays: Int
        public let minNightsInWeek: Int
        /// A night is consistent when its interval is this close to the week's average.
        public let consistencyBandMin: Double
        public let minConsistency: Double
        public let nudgeDownBelowAvgMin: Double
        public let nudgeUpAboveTargetMin: Double
        public let nudgeStepMin: Int
        public let revertAfterMissedWindows: Int
    }
    /// The box's own guards against two doses together (see README, "Never two doses together").
    public struct Safety: Sendable, Hashable, Decodable {
        /// No button sequence records Dose 2 earlier than this after Dose 1; before it only
        /// a confirmed take from the command line can, and a press is a repeat of Dose 1.
        public let dose2ButtonFloorMin: Double
        /// A new Dose 1 this soon after the last dose of a closed night needs a confirmation.
        public let newDose1AfterLastDoseMin: Double
        /// An alcoholic drink logged this recently makes a Dose 1 ask for a confirmation (#33).
        public let alcoholLookbackH: Double
    }

    /// The pre-sleep log's answers (schema v6 `pre_sleep_logs`, #33): stress is the seed's
    /// 1-10; the other limits are the box's, to catch a typing error, not to judge an evening.
    public struct PreSleep: Sendable, Hashable, Decodable {
        public let maxCaffeineCups: Int
        public let maxAlcoholDrinks: Int
        public let maxExerciseMin: Int
        public let stressMin: Int
        public let stressMax: Int
    }

    public let schemaVersion: Int
    public let window: Window
    public let snooze: Snooze
    public let undo: Undo
    public let alerts: Alerts
    public let wakeAlarm: WakeAlarm
    public let alarm: Alarm
    public let caregiver: Caregiver
    public var session: Session
    /// Every sleep event type the box knows, with its cooldown.
    public let sleepEvents: [SleepEventRule]
    public let gestures: Gestures
    public let checkin: CheckIn
    public let feedback: Feedback
    public let safety: Safety
    public let preSleep: PreSleep
    public let led: LED
    public let medication: Medication
    public let supply: Supply
    public let insights: Insights
    public let planner: Planner
    public let pacing: Pacing

    /// Decodes constants.json text. Keys are snake_case in the file.
    public static func decode(_ data: Data) throws -> DoseConstants {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(DoseConstants.self, from: data)
    }

    /// The window in words, "150–240", for the texts people read.
    public var windowText: String { "\(Self.number(window.openMin))–\(Self.number(window.closeMin))" }

    /// 150.0 -> "150", 0.5 -> "0.5".
    public static func number(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }
}

/// A local wall-clock time of day such as "18:00".
public struct ClockTime: Sendable, Hashable, Decodable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = ClockTime(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected HH:MM, got \(text)"))
        }
        self = parsed
    }

    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        hour = h
        minute = m
    }

    public var description: String {
        (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }
}
