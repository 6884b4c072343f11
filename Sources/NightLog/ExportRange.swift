import Foundation
import GRDB

/// An inclusive range of session dates; either end may be open.
public struct ExportRange: Sendable, Equatable {
    public var from: String?
    public var to: String?

    /// Both ends must be real calendar dates (2026-02-30 is not) and `from` must not be
    /// after `to`; `.invalidArgument` says which.
    public init(from: String?, to: String?) throws(NightLogError) {
        for date in [from, to].compactMap({ $0 }) {
            if let problem = Self.problem(with: date) { throw .invalidArgument(problem) }
        }
        if let from, let to, from > to {
            throw .invalidArgument("the range starts (\(from)) after it ends (\(to))")
        }
        self.from = from
        self.to = to
    }

    /// Why `date` is not a session date (YYYY-MM-DD, a day that exists in the Gregorian
    /// calendar), or nil when it is one.
    public static func problem(with date: String) -> String? {
        guard isSessionDate(date) else { return "dates look like 2026-11-21, not '\(date)'" }
        let parts = date.split(separator: "-").map { Int($0)! }
        let (year, month, day) = (parts[0], parts[1], parts[2])
        guard year >= 1 else { return "\(date) is not a date: there is no year 0" }
        guard (1...12).contains(month) else { return "\(date) is not a date: there is no month \(month)" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.locale = Locale(identifier: "en_US_POSIX")
        guard let first = calendar.date(from: DateComponents(year: year, month: month, day: 1)),
              let days = calendar.range(of: .day, in: .month, for: first) else { return "\(date) is not a date" }
        guard days.contains(day) else {
            let name = calendar.standaloneMonthSymbols[month - 1]
            return "\(date) is not a date: \(name) \(year) has \(days.count) days"
        }
        return nil
    }

    /// Session dates compare as text because the layout is fixed, so the check matters.
    static func isSessionDate(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return false }
        return [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[$0]) }
    }

    func whereClause(_ column: String, extra: String? = nil) -> String {
        var terms: [String] = []
        if from != nil { terms.append("\(column) >= ?") }
        if to != nil { terms.append("\(column) <= ?") }
        if let extra { terms.append(extra) }
        return terms.isEmpty ? "" : "WHERE " + terms.joined(separator: " AND ")
    }

    var arguments: StatementArguments {
        StatementArguments([from, to].compactMap { $0 })
    }
}
