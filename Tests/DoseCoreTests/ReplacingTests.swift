import Foundation
import Testing
@testable import DoseCore

/// `replacingEvery` stands in for Foundation's replacingOccurrences in the status text, the
/// CSV files and the SQL lists.
@Suite struct ReplacingTests {
    @Test func everyUnderscoreBecomesASpace() {
        #expect("wake_final_alarm".replacingEvery("_", with: " ") == "wake final alarm")
        #expect("_a__".replacingEvery("_", with: " ") == " a  ")
        #expect("none".replacingEvery("_", with: " ") == "none")
        #expect("".replacingEvery("_", with: " ") == "")
    }

    @Test func aQuoteIsDoubledAsCSVAndSQLNeedIt() {
        #expect(#"say "hi""#.replacingEvery("\"", with: "\"\"") == #"say ""hi"""#)
        #expect("it's".replacingEvery("'", with: "''") == "it''s")
    }

    /// A quote followed by a combining mark is one Character, yet still a quote to a CSV
    /// reader: it is doubled, as CSVWriter doubles it byte by byte. (swift-foundation's
    /// replacingOccurrences compares Characters and left it single: a broken field.)
    @Test func aQuoteInsideAGraphemeIsStillDoubled() {
        let text = "a\"\u{301}b"
        #expect(text.replacingEvery("\"", with: "\"\"") == "a\"\"\u{301}b")
        #expect(text.replacingEvery("\"", with: "\"\"").unicodeScalars.filter { $0 == "\"" }.count == 2)
    }

    @Test func aSubstringIsReplacedToo() {
        let night = "2026-11-21 dose_1"
        #expect(night.dropFirst(11).replacingEvery("_", with: " ") == "dose 1")
    }
}
