import Foundation

/// Schema v6's exercise intensities (`pre_sleep_logs.exercise_type`).
public enum ExerciseType: String, Sendable, Hashable, CaseIterable, Codable {
    case none, light, moderate, intense
}

/// What `boxctl presleep` gives: each answer, or nil to leave it as it is (an edit).
public struct PreSleepAnswers: Sendable, Hashable, Codable {
    public var caffeineCups: Int?
    public var caffeineCutoff: Date?
    public var alcoholDrinks: Int?
    public var exerciseType: ExerciseType?
    public var exerciseDuration: Int?
    public var stressLevel: Int?
    public var notes: String?

    public init(caffeineCups: Int? = nil, caffeineCutoff: Date? = nil, alcoholDrinks: Int? = nil, exerciseType: ExerciseType? = nil,
                exerciseDuration: Int? = nil, stressLevel: Int? = nil, notes: String? = nil) {
        self.caffeineCups = caffeineCups
        self.caffeineCutoff = caffeineCutoff
        self.alcoholDrinks = alcoholDrinks
        self.exerciseType = exerciseType
        self.exerciseDuration = exerciseDuration
        self.stressLevel = stressLevel
        self.notes = notes
    }

    public var isEmpty: Bool { self == PreSleepAnswers() }

    /// The first answer out of its range (`pre_sleep` in constants.json), named as the wire names it.
    public func problem(_ rules: DoseConstants.PreSleep = DoseConstants.box.preSleep) -> String? {
        if let n = caffeineCups, !(0...rules.maxCaffeineCups).contains(n) { return "caffeine_cups must be 0 to \(rules.maxCaffeineCups)" }
        if let n = alcoholDrinks, !(0...rules.maxAlcoholDrinks).contains(n) { return "alcohol_drinks must be 0 to \(rules.maxAlcoholDrinks)" }
        if let n = exerciseDuration, !(0...rules.maxExerciseMin).contains(n) {
            return "exercise_duration must be 0 to \(rules.maxExerciseMin) minutes"
        }
        if let n = stressLevel, !(rules.stressMin...rules.stressMax).contains(n) {
            return "stress_level must be \(rules.stressMin) to \(rules.stressMax)"
        }
        return nil
    }

    /// These answers over `old`'s: what is given replaces, what is not stays.
    func over(_ old: PreSleepAnswers) -> PreSleepAnswers {
        PreSleepAnswers(caffeineCups: caffeineCups ?? old.caffeineCups, caffeineCutoff: caffeineCutoff ?? old.caffeineCutoff,
                        alcoholDrinks: alcoholDrinks ?? old.alcoholDrinks, exerciseType: exerciseType ?? old.exerciseType,
                        exerciseDuration: exerciseDuration ?? old.exerciseDuration, stressLevel: stressLevel ?? old.stressLevel,
                        notes: notes ?? old.notes)
    }
}

/// One evening's pre-sleep log (schema v6 `pre_sleep_logs`): one per session date, editable
/// until that night's Dose 1, a pre-sleep log's drinks counted by the alcohol guard.
public struct PreSleepLog: Sendable, Hashable {
    public var id: String
    public var sessionDate: String
    public var completedAt: Date
    public var answers: PreSleepAnswers

    public init(id: String, sessionDate: String, completedAt: Date, answers: PreSleepAnswers) {
        self.id = id
        self.sessionDate = sessionDate
        self.completedAt = completedAt
        self.answers = answers
    }
}

extension Reduction {
    /// Tonight's pre-sleep log, new or edited; refused once tonight's Dose 1 is taken.
    mutating func logPreSleep(_ answers: PreSleepAnswers) -> Outcome {
        if let problem = answers.problem(rules.preSleep) { return refuse(.invalidPreSleep(problem), sound: .error, flash: .refused) }
        let date = dateKey(now.wall)
        if let s = night.session, s.date == date, night.dose1 != nil {
            return refuse(.preSleepAfterDose1(date), sound: .error, flash: .refused)
        }
        let old = state.preSleep.flatMap { $0.sessionDate == date ? $0 : nil }
        let log = PreSleepLog(id: old?.id ?? freshID(), sessionDate: date, completedAt: now.wall,
                              answers: answers.over(old?.answers ?? PreSleepAnswers()))
        append(.preSleep(log))
        state.preSleep = log
        return .accepted(.preSleepLogged(log, edited: old != nil))
    }
}
