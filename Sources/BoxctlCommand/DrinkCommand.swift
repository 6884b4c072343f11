import ArgumentParser
import BoxControl
import DoseCore
import Foundation

/// The evening before (#33): Take Care's drinks (seed 002) logged on the box. boxd counts
/// them for the pace and for the alcohol guard at Dose 1; the words are the seed's, with its
/// guardrails: no BAC, nothing about driving but its disclaimer.
struct DrinkCommand: ParsableCommand {
    static let disclaimer = "If you've been drinking, do not drive. This is not medical or legal advice: the box counts drinks "
        + "and paces them; it computes no blood alcohol and cannot say that anything is safe."

    static let configuration = CommandConfiguration(
        commandName: "drink", abstract: "The evening's drinks: log one, take the last one back.",
        discussion: """
            XYWAV must not be taken with alcohol. A Dose 1 within \(DoseConstants.number(DoseConstants.box.safety.alcoholLookbackH)) \
            hours of an alcoholic drink logged here asks for a confirmation first.

            \(disclaimer)
            """,
        subcommands: [Add.self, Undo.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Log a drink.", discussion: DrinkCommand.disclaimer)
        @Argument(help: "One of: \(DrinkType.allCases.map { "\($0.rawValue) (\(DoseConstants.number($0.defaults().units)))" }.joined(separator: ", ")): standard units in brackets.")
        var type: String
        @Option(help: "Standard units, if not the type's (0 to \(DoseConstants.number(DoseConstants.box.pacing.maxUnitsPerDrink))).") var units: Double?
        @Option(help: "When it was drunk: HH:MM (the last such time, in the box's zone) or an ISO 8601 time. Default: now.") var at: String?
        @OptionGroup var connection: Connection

        func validate() throws {
            guard DrinkType(rawValue: type) != nil else {
                throw ValidationError("the drink must be one of \(DrinkType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if let units, !(units.isFinite && (0...DoseConstants.box.pacing.maxUnitsPerDrink).contains(units)) {
                throw ValidationError("--units must be 0 to \(DoseConstants.number(DoseConstants.box.pacing.maxUnitsPerDrink))")
            }
            if let at, Med.Add.time(at, now: Date(), zone: .current) == nil {
                throw ValidationError("--at must be HH:MM or an ISO 8601 time such as 2026-11-21T20:00:00Z, not '\(at)'")
            }
        }

        func run() throws {
            var when: Date?
            if let at {
                // HH:MM is the box's clock and zone, not this shell's.
                let context = BoxContext(connection)
                when = Med.Add.time(at, now: context.now, zone: context.zone)
            }
            try connection.run(.drink(.add(DrinkType(rawValue: type)!, units: units, at: when)))
        }
    }

    struct Undo: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "undo", abstract: "Take back the evening's last drink logged.")
        @OptionGroup var connection: Connection
        func run() throws { try connection.run(.drink(.undo)) }
    }
}
