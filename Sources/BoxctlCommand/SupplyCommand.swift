import ArgumentParser
import BoxControl
import BoxWords
import DoseCore
import Foundation
import NightLog

/// The supply of XYWAV (SSOT 1.1 "Inventory Management"), counted in doses: `boxctl supply`
/// shows it, `refill` and `adjust` change it through boxd.
struct SupplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "supply", abstract: "The supply of XYWAV in doses: what is left, refills, corrections.",
        discussion: "Every Dose 1, Dose 2 and extra dose taken uses one; a night uses \(DoseConstants.box.supply.dosesPerNight). At \(DoseConstants.box.supply.refillReminderNights) nights left or fewer, each Dose 1 plays the refill reminder until a refill is logged.",
        subcommands: [Show.self, Refill.self, Adjust.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "The count and the latest refills, corrections and reminders.")
        @Option(help: "How many of the latest entries.") var last: Int = 10
        @OptionGroup var connection: Connection

        func validate() throws { guard (1...1000).contains(last) else { throw ValidationError("--last must be 1 to 1000") } }

        func run() throws {
            let (status, events) = try connection.reading { log in (try log.supplyStatus(), try log.supplyEvents(limit: last)) }
            guard let status else {
                print("The supply is not counted yet: log what you have with boxctl supply refill --doses N.")
                return
            }
            print("Supply: \(Written.supply(status))")
            let zone = BoxContext(connection).zone
            for e in events {
                let day = SessionDate.text(e.at.wall.addingTimeInterval(TimeInterval(zone.secondsFromGMT(for: e.at.wall))))
                let change = e.kind == .refillReminder ? "reminder given" : (e.doses > 0 ? "+\(e.doses)" : "\(e.doses)")
                print("\(day) \(LocalTime.hhmm(e.at.wall, in: zone))  \(e.kind.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0))  \(change), \(e.remainingAfter) left\(e.notes.map { "  \($0)" } ?? "")")
            }
        }
    }

    struct Refill: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "refill", abstract: "Log a refill: the doses it adds.")
        @Option(help: "Doses added (1 to \(DoseConstants.box.supply.maxChangeDoses)).") var doses: Int
        @Option(help: "A note.") var note: String?
        @OptionGroup var connection: Connection

        func validate() throws {
            guard (1...DoseConstants.box.supply.maxChangeDoses).contains(doses) else {
                throw ValidationError("--doses must be 1 to \(DoseConstants.box.supply.maxChangeDoses)")
            }
            if let problem = ControlProtocol.noteProblem(note, option: "--note") { throw ValidationError(problem) }
        }

        func run() throws { try connection.run(.supply(.refill(doses: doses, notes: note))) }
    }

    struct Adjust: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "adjust", abstract: "Correct the count: doses up or down (-2 for two spilled).")
        @Option(parsing: .unconditional, help: "The correction, e.g. -2 or 4.") var doses: Int
        @Option(help: "Why.") var note: String?
        @OptionGroup var connection: Connection

        func validate() throws {
            let limit = DoseConstants.box.supply.maxChangeDoses
            guard doses != 0, (-limit...limit).contains(doses) else { throw ValidationError("--doses must be -\(limit) to \(limit), not 0") }
            if let problem = ControlProtocol.noteProblem(note, option: "--note") { throw ValidationError(problem) }
        }

        func run() throws { try connection.run(.supply(.adjust(doses: doses, notes: note))) }
    }
}
