@testable import ConfigFile
import DoseCore
import Foundation
import Testing
import TestSupport

/// boxd.toml(5) names every key the config reader takes, no other, and the ranges and
/// defaults the reader and constants.json give: a key added, a range changed or a rule's
/// number moved in constants.json fails here until the page says so.
@Suite struct BoxdTomlManPageTests {
    /// The page's entries: section ("box", "buttons.NAME", …) → key → its text up to the next key.
    static func entries() throws -> [String: [String: String]] {
        let page = try String(contentsOf: Repository.root.appendingPathComponent("Sources/boxd/share/boxd.toml.5"), encoding: .utf8)
        var out: [String: [String: String]] = [:]
        var section: String?
        var key: String?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix(".Sh [") {
                section = String(line.dropFirst(5).dropLast())
                out[section!] = [:]
                key = nil
            } else if line.hasPrefix(".Sh ") || line == ".El" {
                key = nil
                if line.hasPrefix(".Sh ") { section = nil }
            } else if let s = section, line.hasPrefix(".It Cm ") {
                key = String(line.dropFirst(7))
                out[s]![key!] = ""
            } else if let s = section, let k = key {
                out[s]![k]! += line + " "
            }
        }
        return out
    }

    @Test func everyKeyOfTheReaderAndNoOther() throws {
        let page = try Self.entries()
        let sections = Reader.known[""]!.map { $0 == "buttons" ? "buttons.NAME" : $0 }
        #expect(Set(page.keys) == Set(sections))
        for (section, keys) in Reader.known where !section.isEmpty {
            #expect(Set(page[section]?.keys.map { $0 } ?? []) == keys, "[\(section)]")
        }
        #expect(Set(page["buttons.NAME"]?.keys.map { $0 } ?? []) == Reader.buttonKeys)
        #expect(Set(page["mqtt"]?.keys.map { $0 } ?? []) == Reader.mqttKeys)
    }

    @Test func theRulesNumbersAreConstantsJSONs() throws {
        let page = try Self.entries()
        let rules = DoseConstants.box
        let box = try #require(page["box"])
        let targets = rules.window.validTargetsMin.map(String.init).joined(separator: ", ")
        #expect(box["target_minutes"]?.contains("one of \(targets). Default: \(rules.window.defaultTargetMin).") == true)
        let undo = rules.undo.choicesS.map { DoseConstants.number($0) }.joined(separator: ", ")
        #expect(box["undo_seconds"]?.contains("one of \(undo). Default: \(DoseConstants.number(rules.undo.defaultS)).") == true)
        let ring = Reader.ringSecondsRange
        #expect(box["ring_seconds"]?.contains("\(ring.lowerBound) to \(ring.upperBound). Default: \(DoseConstants.number(rules.alarm.ringS)).") == true)
        let lines = "\(Reader.lineRange.lowerBound) to \(Reader.lineRange.upperBound)"
        #expect(page["buttons.NAME"]?["line"]?.contains(lines) == true)
        let mqtt = try #require(page["mqtt"])
        #expect(mqtt["port"]?.contains("\(Reader.portRange.lowerBound) to \(Reader.portRange.upperBound).") == true)
        #expect(mqtt["keepalive_seconds"]?.contains("\(Reader.keepaliveRange.lowerBound) to \(Reader.keepaliveRange.upperBound).") == true)
        let window = rules.window
        let text = try String(contentsOf: Repository.root.appendingPathComponent("Sources/boxd/share/boxd.toml.5"), encoding: .utf8)
        #expect(text.contains("the window of \(DoseConstants.number(window.openMin)) to \(DoseConstants.number(window.closeMin)) minutes after Dose 1"))
        #expect(text.contains(".Pp\nThe sleep events: \(SleepEventType.allCases.map(\.rawValue).joined(separator: ", ")).\n"))
    }

    /// Each key's "Default:" is what the embedded default config reads as (the time zone and
    /// the voice's volume excepted: the system's zone, the tones' volume).
    @Test func theDefaultsAreTheEmbeddedDefaults() throws {
        let page = try Self.entries()
        let config = try BoxConfig.load(path: nil, isolation: .inProcess)
        for (key, value) in config.entries where !["box.time_zone", "voice.volume"].contains(key) {
            var parts = key.split(separator: ".").map(String.init)
            let name = parts.removeLast()
            let section = parts.first == "buttons" ? "buttons.NAME" : parts.joined(separator: ".")
            let text = try #require(page[section]?[name], "\(key) has no entry")
            if section == "buttons.NAME", name == "line" { continue } // required: no default
            #expect(text.contains(": \(value).") || text.contains(": \(value) "), "\(key): the page says \(text)")
        }
        #expect(page["box"]?["time_zone"]?.contains("Default: the system's zone.") == true)
        #expect(page["voice"]?["volume"]?.contains("Default: the tones' volume.") == true)
    }
}
