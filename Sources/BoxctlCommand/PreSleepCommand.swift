import ArgumentParser
import BoxControl
import DoseCore
import Foundation

/// Tonight's pre-sleep log (schema v6 `pre_sleep_logs`, #33): the seed's answers, one entry
/// per evening, editable until Dose 1 (each option given replaces that answer, the others
/// stay). With no option, shows the latest entry. Its drinks count for the alcohol guard.
struct PreSleepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presleep", abstract: "Tonight's pre-sleep log: caffeine, alcohol, exercise, stress.",
        discussion: "One entry per evening; give it again to change an answer, until Dose 1. Alcoholic drinks noted here count for Dose 1 as drinks logged with boxctl drink do: Dose 1 asks first. \(DrinkCommand.disclaimer)")

    static var rules: DoseConstants.PreSleep { DoseConstants.box.preSleep }
    @Option(help: "Cups of caffeine today (0 to \(Self.rules.maxCaffeineCups)).") var caffeineCups: Int?
    @Option(help: "When the last caffeine was: HH:MM (the last such time, in the box's zone) or an ISO 8601 time.") var caffeineCutoff: String?
    @Option(help: "Alcoholic drinks today (0 to \(Self.rules.maxAlcoholDrinks)).") var alcoholDrinks: Int?
    @Option(help: "Exercise today: \(ExerciseType.allCases.map(\.rawValue).joined(separator: ", ")).") var exercise: String?
    @Option(help: "Minutes of exercise (0 to \(Self.rules.maxExerciseMin)).") var exerciseMinutes: Int?
    @Option(help: "Stress today, \(Self.rules.stressMin) (calm) to \(Self.rules.stressMax).") var stress: Int?
    @Option(help: "A note.") var note: String?
    @OptionGroup var connection: Connection

    var answers: PreSleepAnswers {
        PreSleepAnswers(caffeineCups: caffeineCups, alcoholDrinks: alcoholDrinks, exerciseType: exercise.flatMap(ExerciseType.init(rawValue:)),
                        exerciseDuration: exerciseMinutes, stressLevel: stress, notes: note)
    }

    func validate() throws {
        if let exercise, ExerciseType(rawValue: exercise) == nil {
            throw ValidationError("--exercise must be one of \(ExerciseType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let r = Self.rules
        func check(_ n: Int?, _ range: ClosedRange<Int>, _ option: String) throws {
            if let n, !range.contains(n) { throw ValidationError("--\(option) must be \(range.lowerBound) to \(range.upperBound)") }
        }
        try check(caffeineCups, 0...r.maxCaffeineCups, "caffeine-cups")
        try check(alcoholDrinks, 0...r.maxAlcoholDrinks, "alcohol-drinks")
        try check(exerciseMinutes, 0...r.maxExerciseMin, "exercise-minutes")
        try check(stress, r.stressMin...r.stressMax, "stress")
        if let caffeineCutoff, Med.Add.time(caffeineCutoff, now: Date(), zone: .current) == nil {
            throw ValidationError("--caffeine-cutoff must be HH:MM or an ISO 8601 time such as 2026-11-21T15:00:00Z, not '\(caffeineCutoff)'")
        }
        if let problem = ControlProtocol.noteProblem(note, option: "--note") { throw ValidationError(problem) }
    }

    func run() throws {
        let context = BoxContext(connection)
        var answers = self.answers
        if let caffeineCutoff { answers.caffeineCutoff = Med.Add.time(caffeineCutoff, now: context.now, zone: context.zone) }
        guard answers.isEmpty else { return try connection.run(.preSleep(answers)) }
        // The latest entry, which names its night: boxctl cannot know boxd's evening without it.
        let log = try connection.reading { log in try log.preSleepLog() }
        guard let log else {
            print("No pre-sleep log yet: boxctl presleep --caffeine-cups 2 --stress 4 …")
            return
        }
        print(Self.text(log, zone: context.zone))
    }

    /// "Night 2026-11-21 (at 21:10): caffeine 2 cups, last 15:00; alcohol 1 drink; exercise light 30 min; stress 4/10."
    static func text(_ log: PreSleepLog, zone: TimeZone) -> String {
        let a = log.answers
        var parts: [String] = []
        if let n = a.caffeineCups { parts.append("caffeine \(n) cup\(n == 1 ? "" : "s")" + (a.caffeineCutoff.map { ", last \(LocalTime.hhmm($0, in: zone))" } ?? "")) }
        if let n = a.alcoholDrinks { parts.append("alcohol \(n) drink\(n == 1 ? "" : "s")") }
        if let e = a.exerciseType { parts.append("exercise \(e.rawValue)" + (a.exerciseDuration.map { " \($0) min" } ?? "")) }
        if let s = a.stressLevel { parts.append("stress \(s)/\(rules.stressMax)") }
        if let n = a.notes { parts.append("note: \(n)") }
        return "Night \(log.sessionDate) (at \(LocalTime.hhmm(log.completedAt, in: zone))): " + parts.joined(separator: "; ") + "."
    }
}
