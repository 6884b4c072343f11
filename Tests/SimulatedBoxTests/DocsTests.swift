import Foundation
import DoseCore
import Testing
import TestSupport

/// The documents keep their promises: every relative link reaches a file (and a heading, for a
/// `#anchor`), every script they name exists and runs, and every `boxctl` or `boxd` command
/// line they show uses subcommands and options the built binaries have.
@Suite struct DocsTests {
    static let root = Repository.root

    /// The documents a reader is sent to: the front door, the guides, and the READMEs beside code.
    static func documents() throws -> [URL] {
        let fm = FileManager.default
        var paths = ["README.md", "CONTRIBUTING.md", "hardware/README.md", "bench/README.md"]
        paths += try fm.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
        for dir in try fm.contentsOfDirectory(atPath: root.appendingPathComponent("Tests").path).sorted() {
            let readme = "Tests/\(dir)/README.md"
            if fm.fileExists(atPath: root.appendingPathComponent(readme).path) { paths.append(readme) }
        }
        return paths.map { root.appendingPathComponent($0) }
    }

    /// The text of a document's code: inline spans, indented blocks and fenced blocks, one
    /// entry per line of code.
    static func codeLines(_ text: String) -> [String] {
        var code: [String] = [], fenced = false, inBlock = false, previousBlank = true
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            defer { previousBlank = trimmed.isEmpty }
            // Four spaces after a blank line (a block cannot interrupt a paragraph, so a list
            // item's wrapped line is not one), or on from such a line.
            inBlock = line.hasPrefix("    ") && (previousBlank || inBlock)
            if fenced || inBlock {
                code.append(trimmed)
                continue
            }
            var rest = Substring(line)
            while let open = rest.firstIndex(of: "`") {
                let after = rest[rest.index(after: open)...]
                guard let close = after.firstIndex(of: "`") else { break }
                code.append(String(after[..<close]))
                rest = after[after.index(after: close)...]
            }
        }
        return code
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().unicodeScalars.compactMap { c -> Character? in
            if c == " " { return "-" }
            if CharacterSet.alphanumerics.contains(c) || c == "-" || c == "_" { return Character(c) }
            return nil
        })
    }

    static func anchors(of file: URL) -> Set<String> {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return Set(text.components(separatedBy: "\n").filter { $0.hasPrefix("#") }
            .map { anchor($0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)) })
    }

    /// Every `](target)` that is not a web address.
    static func relativeLinks(_ text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        let ns = text as NSString
        return pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) }
            .filter { !$0.hasPrefix("http://") && !$0.hasPrefix("https://") && !$0.hasPrefix("mailto:") }
    }

    @Test func everyRelativeLinkReachesItsFileAndHeading() throws {
        var checked = 0
        for doc in try Self.documents() {
            let text = try String(contentsOf: doc, encoding: .utf8)
            let name = String(doc.path.dropFirst(Self.root.path.count + 1))
            for link in Self.relativeLinks(text) {
                checked += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? doc : doc.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: target.path), "\(name): \(link) leads nowhere")
                if parts.count == 2, target.pathExtension == "md" {
                    #expect(Self.anchors(of: target).contains(parts[1]), "\(name): \(link): no such heading in \(target.lastPathComponent)")
                }
            }
        }
        #expect(checked > 30, "only \(checked) links found: the reader of links is broken")
    }

    @Test func everyScriptNamedExistsAndRuns() throws {
        let pattern = try NSRegularExpression(pattern: #"(?:^|[\s(./])((?:scripts|bench)/[A-Za-z0-9_.-]+)"#)
        var named: Set<String> = []
        for doc in try Self.documents() {
            for line in Self.codeLines(try String(contentsOf: doc, encoding: .utf8)) {
                let ns = line as NSString
                for m in pattern.matches(in: line, range: NSRange(location: 0, length: ns.length)) {
                    named.insert(ns.substring(with: m.range(at: 1)))
                }
            }
        }
        #expect(named.contains("scripts/test") && named.contains("scripts/demo"), "the set-up commands were not found: \(named.sorted())")
        for path in named.sorted() {
            let file = Self.root.appendingPathComponent(path).path
            #expect(FileManager.default.fileExists(atPath: file), "\(path) is named in the docs but does not exist")
            if !path.contains(".") {
                #expect(FileManager.default.isExecutableFile(atPath: file), "\(path) is named as a command but is not executable")
            }
        }
    }

    /// The README is a front door and the architecture a page: what outgrows them belongs in a
    /// guide of its own.
    @Test func theFrontDoorAndTheMapStayShort() throws {
        let lines = { (path: String) in
            try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count
        }
        #expect(try lines("README.md") <= 150)
        #expect(try lines("docs/architecture.md") < 40)
    }

    /// Whether `help` lists `option` whole (`--conf` is not `--confirm`).
    static func names(_ option: String, in help: String) -> Bool {
        help.components(separatedBy: option).dropFirst().contains { rest in
            rest.first.map { !($0.isLetter || $0 == "-") } ?? true
        }
    }

    /// Options every ArgumentParser program has without listing them.
    static let argumentParserOwn: Set<String> = ["--help", "--version", "--generate-completion-script", "--experimental-dump-help"]

    /// A source file the docs name in code (`DoseCore/Refusal.swift`, `Tests/SimulatedBoxTests/Scenario.swift`)
    /// exists: from the repository's top, Sources/ or the document's own folder.
    @Test func everySourceFileNamedExists() throws {
        let pattern = try NSRegularExpression(pattern: #"^[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+)+\.(swift|md|toml|json|py|yaml|conf|rules|service)$"#)
        var checked = 0
        for doc in try Self.documents() {
            let name = String(doc.path.dropFirst(Self.root.path.count + 1))
            for span in Self.codeLines(try String(contentsOf: doc, encoding: .utf8)) {
                guard pattern.firstMatch(in: span, range: NSRange(location: 0, length: (span as NSString).length)) != nil else { continue }
                checked += 1
                let bases = [Self.root, Self.root.appendingPathComponent("Sources"), doc.deletingLastPathComponent()]
                #expect(bases.contains { FileManager.default.fileExists(atPath: $0.appendingPathComponent(span).path) },
                        "\(name): `\(span)` is not a file")
            }
        }
        #expect(checked > 20, "only \(checked) file names found: the reader is broken")
    }

    /// `boxctl SUB [SUB2] [--option …]` and `boxd --option` as the docs write them (a shell
    /// comment after `#` is not part of the command).
    @Test func everyCommandLineShownIsOneTheBinariesTake() throws {
        var help: [String: String] = [:]
        func helpText(_ binary: URL, _ words: [String]) throws -> String {
            let key = ([binary.lastPathComponent] + words).joined(separator: " ")
            if let known = help[key] { return known }
            let r = try ChildProcess.run(binary, words + ["--help"])
            help[key] = r.out + r.err
            return r.out + r.err
        }
        func subcommands(_ text: String) -> Set<String> {
            guard let section = text.components(separatedBy: "SUBCOMMANDS:").dropFirst().first else { return [] }
            return Set(section.components(separatedBy: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("    ") else { return nil }
                return line.split(separator: " ").first.map { String($0).replacingOccurrences(of: "(default)", with: "") }
            })
        }
        let command = try NSRegularExpression(pattern: #"(?:^|[\s($])(boxctl|boxd)(?![-\w.])((?:\s+[^\s|;&)#]+)*)"#)
        var lines = 0
        for doc in try Self.documents() {
            let name = String(doc.path.dropFirst(Self.root.path.count + 1))
            for line in Self.codeLines(try String(contentsOf: doc, encoding: .utf8)) {
                let line = line.components(separatedBy: " #").first ?? line
                let ns = line as NSString
                for m in command.matches(in: line, range: NSRange(location: 0, length: ns.length)) {
                    let binary = ns.substring(with: m.range(at: 1)) == "boxctl" ? BoxRig.boxctl : BoxRig.boxd
                    let words = ns.substring(with: m.range(at: 2)).split(separator: " ").map(String.init)
                    guard !words.isEmpty else { continue }
                    lines += 1
                    // The subcommand path: words naming subcommands, as deep as they go. boxctl
                    // takes its connection options before the subcommand too (`--socket S status`).
                    var path: [String] = [], leading: [String] = []
                    var i = 0
                    while i < words.count {
                        let subs = subcommands(try helpText(binary, path))
                        if subs.isEmpty { break }
                        let word = words[i]
                        if word.hasPrefix("--") {
                            leading.append(word)
                            i += 1
                            // Its value, unless the next word is the subcommand itself.
                            if i < words.count, !words[i].hasPrefix("-"), !subs.contains(words[i]) { i += 1 }
                            continue
                        }
                        // A placeholder (ARGS, NAME) or a value is not a subcommand's name.
                        guard word.first?.isLowercase == true, word.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else { break }
                        #expect(subs.contains(word), "\(name): `\(line)`: \(binary.lastPathComponent) \(path.joined(separator: " ")) has no subcommand \(word)")
                        guard subs.contains(word) else { break }
                        path.append(word)
                        i += 1
                    }
                    let options = try helpText(binary, path)
                    for word in leading + words[i...] where word.hasPrefix("--") {
                        let option = String(word.prefix { $0 != "=" && $0 != "]" && $0 != "," })
                        guard option.count > 2, option.dropFirst(2).allSatisfy({ $0.isLetter || $0 == "-" }),
                              !Self.argumentParserOwn.contains(option) else { continue }
                        #expect(Self.names(option, in: options), "\(name): `\(line)`: \(([binary.lastPathComponent] + path).joined(separator: " ")) has no option \(option)")
                    }
                }
            }
        }
        #expect(lines > 40, "only \(lines) command lines found: the reader of commands is broken")
    }
}

/// #33: "The evening before" (docs/using.md, where the README sends its reader for the rules)
/// says constants.json's numbers, so they cannot drift.
@Suite struct EveningDocsTests {
    @Test func theEveningsNumbersInTheGuideAreConstantsJSONs() throws {
        let readme = try String(contentsOf: DocsTests.root.appendingPathComponent("docs/using.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n  ", with: " ").replacingOccurrences(of: "\n", with: " ")
        let c = DoseConstants.box
        let p = c.pacing, (r, b, s) = (p.presets.relaxed, p.presets.balanced, p.presets.strict)
        func n(_ v: Double) -> String { DoseConstants.number(v) }
        let said = [
            "within \(n(c.safety.alcoholLookbackH)) h of an alcoholic drink",
            "\(p.rapidRepeatDrinks) alcoholic drinks within \(n(b.rapidRepeatWindowMin)) min (\(n(r.rapidRepeatWindowMin)), \(n(s.rapidRepeatWindowMin)))",
            "over \(n(b.fastPaceUnits)) standard units in \(n(p.fastPaceWindowMin)) min (\(n(r.fastPaceUnits)), \(n(s.fastPaceUnits)))",
            "\(n(b.escalationUnits)) or more in \(n(p.escalationWindowMin)) min (\(n(r.escalationUnits)), \(n(s.escalationUnits)))",
            "\(p.shotStackingShots) shots within \(n(b.shotStackingWindowMin)) min (\(n(r.shotStackingWindowMin)), \(n(s.shotStackingWindowMin)))",
            "every \(p.hydrationCadenceDrinks == 2 ? "2nd" : "\(p.hydrationCadenceDrinks)th") alcoholic drink",
            "water came in the last \(n(p.hydrationQuietMin)) min", "\(n(p.resetQuietMin)) drink-free minutes",
            "No warning twice in \(n(p.warningCooldownMin)) min", "ends \(n(p.sessionTimeoutMin / 60)) h after its last drink",
        ]
        for phrase in said { #expect(readme.contains(phrase), "docs/using.md: \(phrase)") }
        let units = Dictionary(uniqueKeysWithValues: p.drinks.map { ($0.type, n($0.units)) })
        #expect(readme.contains("\(units["shot"]!) a shot, beer or wine, \(units["cocktail"]!) a cocktail") && units["beer"] == units["shot"])
        #expect(readme.contains("\(units["water"]!) water") && units["wine"] == units["shot"])
    }
}
