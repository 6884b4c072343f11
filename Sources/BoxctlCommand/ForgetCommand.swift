import ArgumentParser
import BoxControl
import DoseCore
import Foundation

/// Data management (SSOT 2.4.3): delete a night, or every night before a date. boxd decides
/// what may go and keeps what its safety rules need; without --confirm it only says what
/// would be deleted.
struct Forget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget", abstract: "Delete one night's records (doses, sleep events, check-in, medications). Needs --confirm.",
        discussion: Forget.whatStays)
    @Argument(help: "The night's date, YYYY-MM-DD.") var night: String
    @Flag(help: "Delete it.") var confirm = false
    @OptionGroup var connection: Connection

    func validate() throws {
        guard SessionDate.date(night) != nil else { throw ValidationError("the night must be a date such as 2026-11-21, not '\(night)'") }
    }

    func run() throws { try connection.run(.forget(from: night, to: night, confirm: confirm)) }

    /// The help both commands give: the confirmation, and what boxd never deletes.
    static let whatStays = "Without --confirm, says what would be deleted (exit 3). The box's latest night, and a night with a dose less than \(DoseConstants.number(DoseConstants.box.safety.newDose1AfterLastDoseMin)) minutes ago, are always kept."
}

struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune", abstract: "Delete every night before a date. Needs --confirm.",
        discussion: Forget.whatStays)
    @Option(help: "Keep this night and every later one, YYYY-MM-DD.") var before: String
    @Flag(help: "Delete them.") var confirm = false
    @OptionGroup var connection: Connection

    func validate() throws {
        guard SessionDate.date(before) != nil else { throw ValidationError("--before must be a date such as 2026-11-21, not '\(before)'") }
    }

    func run() throws {
        guard let last = SessionDate.adding(days: -1, to: before) else { throw ValidationError("--before: \(before) has no day before it") }
        try connection.run(.forget(from: nil, to: last, confirm: confirm))
    }
}
