import Foundation
import Testing
import TestSupport

/// The package's shape, read from the manifest as SwiftPM sees it (`swift package dump-package`):
/// the caregiver bridge's code depends on nothing of boxd's, so no code path of the bridge runs
/// the daemon's. (Since #34 the package ships the three programs as one file: the bridge's process
/// holds boxd's code and maps libgpiod and SQLite, unused; its systemd sandbox, not
/// the file, keeps it from the night log and the devices.)
@Suite struct PackageGraphTests {
    static let root = Repository.root

    /// Each target's direct dependencies on other targets of this package, by name.
    static func targetGraph() throws -> [String: [String]] {
        // A scratch path of its own: the test runs while `swift test` holds .build's lock.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dump = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                        ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"])
        guard dump.exit == 0 else { throw Failure(text: "swift package dump-package: exit \(dump.exit): \(dump.err)") }
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(dump.out.utf8))
        return Dictionary(uniqueKeysWithValues: manifest.targets.map { t in
            (t.name, t.dependencies.compactMap(\.target))
        })
    }

    /// Every target `name` depends on, directly or not.
    static func closure(of name: String, in graph: [String: [String]]) -> Set<String> {
        var seen: Set<String> = [], todo = graph[name] ?? []
        while let next = todo.popLast() {
            guard seen.insert(next).inserted else { continue }
            todo += graph[next] ?? []
        }
        return seen
    }

    @Test func theBridgeLinksNothingOfTheDaemon() throws {
        let graph = try Self.targetGraph()
        let bridge = Self.closure(of: "boxd-mqtt", in: graph)
        #expect(bridge.contains("ConfigFile"), "the bridge reads boxd.toml with boxd's reader: \(bridge.sorted())")
        for daemonOnly in ["BoxDaemon", "NightLog", "BoxALSA", "BoxGPIO", "BoxVoice"] {
            #expect(!bridge.contains(daemonOnly), "boxd-mqtt depends on \(daemonOnly): \(bridge.sorted())")
        }
        // The reading of the graph can fail: boxd itself has them all.
        #expect(Self.closure(of: "boxd", in: graph).isSuperset(of: ["BoxDaemon", "NightLog", "BoxALSA", "BoxGPIO", "BoxVoice"]))
    }

    /// The package's one program (#34) holds the three, and only they meet in it: the bridge's
    /// code is still apart from the daemon's, though one file now holds both.
    @Test func theOneProgramJoinsTheThreeAndNothingElse() throws {
        let graph = try Self.targetGraph()
        #expect(Set(graph["dosetap-box"] ?? []) == ["BoxdCommand", "BoxctlCommand", "BridgeCommand"], "\(graph["dosetap-box"] ?? [])")
        for (program, code) in [("boxd", "BoxdCommand"), ("boxctl", "BoxctlCommand"), ("boxd-mqtt", "BridgeCommand")] {
            #expect(graph[program] == [code], "\(program): \(graph[program] ?? [])")
        }
        let bridge = Self.closure(of: "BridgeCommand", in: graph)
        for other in ["BoxdCommand", "BoxctlCommand", "BoxDaemon", "NightLog", "BoxALSA", "BoxGPIO", "BoxVoice"] {
            #expect(!bridge.contains(other), "the bridge's code depends on \(other): \(bridge.sorted())")
        }
    }

    /// boxd's own files beside the log (settings.json, sim-clock.json) are boxd's alone: their
    /// types live in BoxDaemon, which boxctl does not link, and no boxctl source names them.
    /// boxctl reads the night log, the box's public record, and nothing else of boxd's.
    @Test func boxctlOpensNoneOfBoxdsOwnFiles() throws {
        let graph = try Self.targetGraph()
        let boxctl = Self.closure(of: "boxctl", in: graph)
        #expect(boxctl.contains("NightLog") && !boxctl.contains("BoxDaemon"), "\(boxctl.sorted())")
        let dir = Self.root.appendingPathComponent("Sources/BoxctlCommand")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 5)
        for file in files {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            for name in ["settings.json", "sim-clock.json", "SettingsStore", "SimClockFile"] {
                #expect(!text.contains(name), "Sources/BoxctlCommand/\(file) names \(name)")
            }
        }
    }

    struct Failure: Error, CustomStringConvertible { var text: String; var description: String { text } }

    /// The parts of dump-package's JSON read here: a dependency is `{"byName": [name, condition]}`,
    /// `{"target": [name, condition]}` or `{"product": [...]}` (another package's, not followed).
    struct Manifest: Decodable {
        struct Target: Decodable {
            var name: String
            var dependencies: [Dependency]
        }
        struct Dependency: Decodable {
            /// The target's name; nil for another package's product.
            var target: String?
            enum CodingKeys: String, CodingKey { case byName, target }
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                let named = try c.decodeIfPresent([Name].self, forKey: .byName) ?? c.decodeIfPresent([Name].self, forKey: .target)
                target = named?.first?.text
            }
        }
        /// An element of those arrays: the name (a string), then a condition (null or an object).
        struct Name: Decodable {
            var text: String?
            init(from decoder: any Decoder) throws {
                text = try? decoder.singleValueContainer().decode(String.self)
            }
        }
        var targets: [Target]
    }
}
