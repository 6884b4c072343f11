import ArgumentParser
import BoxControl
import CBoxSys
import DoseCore
import Foundation
import NightLog

// MARK: - actions

struct Take: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "take", abstract: "Take the next dose (Dose 1, or Dose 2 in the window). Early or late needs --confirm.")
    @Flag(help: "Confirm an early (before \(DoseConstants.number(DoseConstants.box.window.openMin)) min) or late (after \(DoseConstants.number(DoseConstants.box.window.closeMin)) min) Dose 2.") var confirm = false
    @OptionGroup var connection: Connection
    func run() throws { try connection.run(.take(confirm: confirm)) }
}

struct Skip: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skip", abstract: "Skip Dose 2 tonight (possible once the window is open).")
    @Option(help: "drowsy, side_effects or other.") var reason: SkipReason?
    @OptionGroup var connection: Connection
    func run() throws { try connection.run(.skip(reason: reason)) }
}

extension SkipReason: ExpressibleByArgument {}

struct Snooze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze", abstract: "Snooze the wake alarm by 10 minutes (at most 3 a night).")
    @OptionGroup var connection: Connection
    func run() throws { try connection.run(.snooze) }
}

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Undo the last dose action within the undo window.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.run(.undo) }
}

struct Dose: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dose", abstract: "Dose records that no button can make.", subcommands: [Extra.self])

    struct Extra: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "extra", abstract: "Record an extra dose after Dose 2. Needs --confirm.")
        @Flag(help: "Confirm that an extra dose was really taken.") var confirm = false
        @OptionGroup var connection: Connection
        // The box's reply says why (STOP after Dose 2, "take Dose 1 first" before it).
        func run() throws { try connection.run(.extra(confirm: confirm)) }
    }
}

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Log a sleep event.")
    @Argument(help: "One of: \(SleepEventType.allCases.map(\.rawValue).joined(separator: ", ")).") var event: SleepEventType
    @Option(help: "A note.") var note: String?
    @Flag(help: "wake_final while Dose 2 is still owed: end the night and record Dose 2 as skipped.") var confirm = false
    @OptionGroup var connection: Connection
    func validate() throws {
        if let problem = ControlProtocol.noteProblem(note, option: "--note") { throw ValidationError(problem) }
    }
    func run() throws { try connection.run(.log(event, note: note, confirm: confirm)) }
}

extension SleepEventType: ExpressibleByArgument {}
extension CheckInAnswers.FeelRested: ExpressibleByArgument {}
extension CheckInAnswers.Grogginess: ExpressibleByArgument {}
extension CheckInAnswers.Mood: ExpressibleByArgument {}

/// `--sleep-paralysis`, `--hallucinations`, `--automatic-behavior`, `--fell-out-of-bed`,
/// `--confusion-on-waking`: SSOT 2.4.3's narcolepsy flags, each said yes to by naming it.
extension NarcolepsyFlag: EnumerableFlag {
    public static func help(for value: NarcolepsyFlag) -> ArgumentHelp? {
        switch value {
        case .sleepParalysis: "Sleep paralysis: could not move on waking."
        case .hallucinations: "Hallucinations on falling asleep or waking."
        case .automaticBehavior: "Automatic behaviour: did things without awareness."
        case .fellOutOfBed: "Fell out of bed."
        case .confusionOnWaking: "Confusion on waking."
        }
    }
}

struct CheckIn: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "checkin", abstract: "The morning check-in (quick mode). It closes the night.")
    @Option(help: "Sleep quality, 1 to 5.") var quality: Int
    @Option(help: "notAtAll, slightly, moderate, well or veryWell.") var rested: CheckInAnswers.FeelRested = .moderate
    @Option(help: "none, mild, moderate, severe or cantFunction.") var grogginess: CheckInAnswers.Grogginess = .mild
    @Option(help: "Mental clarity, 1 to 10.") var clarity: Int = 5
    @Option(help: "veryLow, low, neutral, good or great.") var mood: CheckInAnswers.Mood = .neutral
    @Option(help: "Notes.") var notes: String?
    @Flag var flags: [NarcolepsyFlag] = []
    @Flag(help: "Check in while Dose 2 is still owed: end the night and record Dose 2 as skipped.") var confirm = false
    @OptionGroup var connection: Connection

    func validate() throws {
        guard CheckInAnswers.qualityRange.contains(quality) else { throw ValidationError("--quality must be 1 to 5") }
        guard CheckInAnswers.clarityRange.contains(clarity) else { throw ValidationError("--clarity must be 1 to 10") }
        if let problem = ControlProtocol.noteProblem(notes, option: "--notes") { throw ValidationError(problem) }
    }

    func run() throws {
        let answers = CheckInAnswers(sleepQuality: quality, feelRested: rested, grogginess: grogginess, mentalClarity: clarity, mood: mood, notes: notes,
                                      flags: Set(flags))
        try connection.run(.checkin(answers, confirm: confirm))
    }
}
