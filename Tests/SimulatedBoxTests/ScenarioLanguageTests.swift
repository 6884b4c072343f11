import Foundation
import Testing

/// The scenario language itself (issue 12): quoting, line numbers, missing arguments.
@Suite struct ScenarioLanguageTests {
    @Test func quotesKeepSemicolonsAndHashesAsText() {
        let text = """
        press dose; advance 150m   # a comment; not a statement
        expect output "Dose 2 was skipped tonight; nothing more to take. # not a comment"

        boxctl log bathroom --note "a;b"
        """
        let s = Scenario.statements(text)
        #expect(s.map(\.line) == [1, 1, 2, 4])
        #expect(s.map(\.text) == ["press dose", "advance 150m",
                                  "expect output \"Dose 2 was skipped tonight; nothing more to take. # not a comment\"",
                                  "boxctl log bathroom --note \"a;b\""])
        #expect(Scenario.rest(of: s[2].text, after: "output") == "Dose 2 was skipped tonight; nothing more to take. # not a comment")
        #expect(Scenario.words(s[3].text) == ["boxctl", "log", "bathroom", "--note", "a;b"])
    }

    @Test func aMissingArgumentIsAFailureNamingIt() throws {
        let rig = try BoxRig()
        defer { rig.cleanup() }
        var s = Scenario("", rig: rig)
        for (statement, missing) in [("advance", "DURATION"), ("edges dose", "SPEC"), ("expect status phase", "VALUE"),
                                     ("expect doses 1", "TYPE"), ("remember", "KEY"), ("expect led green", "PATTERN")] {
            do {
                try s.step(statement)
                Issue.record("\(statement) ran")
            } catch let f as Scenario.Failure {
                #expect(f.description.hasSuffix("missing \(missing)"), "\(f.description)")
            }
        }
    }
}
