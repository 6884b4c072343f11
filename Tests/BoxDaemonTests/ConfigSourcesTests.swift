import BoxDaemon
import ConfigFile
import Foundation
import Testing

/// `boxctl config show`'s sources. Issue 29: `voice.volume = 0.8 (b.toml)` for a file that sets
/// no voice key: a value the file does not set is a default, never the file's.
@Suite struct ConfigSourcesTests {
    /// What config show prints for each key: its value's source.
    static func shown(_ c: BoxConfig) -> [String: String] {
        Dictionary(uniqueKeysWithValues: c.entries.map { ($0.key, c.source(of: $0.key)) })
    }

    @Test func onlyTheKeysTheFileSetsAreTheFiles() throws {
        let c = try BoxConfig.parse("[box]\ntarget_minutes = 180\n", path: "b.toml")
        let shown = Self.shown(c)
        #expect(shown.filter { $0.value == "b.toml" }.keys.sorted() == ["box.target_minutes"])
        #expect(shown["voice.volume"] == "default, as audio.volume")
        #expect(shown["mqtt.enabled"] == "default")
        // Every key is accounted for by the reader, not left to a fallback.
        #expect(c.entries.filter { c.sources[$0.key] == nil }.map(\.key) == [])
    }

    @Test func aKeyTheFileSetsIsTheFiles() throws {
        let c = try BoxConfig.parse("""
            [voice]
            volume = 0.5
            clock = "24h"
            [mqtt]
            enabled = true
            host = "hub"
            """, path: "b.toml")
        let shown = Self.shown(c)
        #expect(shown.filter { $0.value == "b.toml" }.keys.sorted() == ["mqtt.enabled", "mqtt.host", "voice.clock", "voice.volume"])
        // In a section the file has, a key it leaves out is still a default.
        #expect(shown["voice.language"] == "default" && shown["mqtt.port"] == "default" && shown["mqtt.box_id"] == "default")
        #expect(c.entries.filter { c.sources[$0.key] == nil }.map(\.key) == [])
    }

    @Test func theEmbeddedDefaultIsAllDefault() throws {
        let c = try BoxConfig.load(path: nil, isolation: .inProcess)
        #expect(Set(Self.shown(c).values).subtracting(["default", "default, as audio.volume"]).isEmpty, "\(Self.shown(c))")
    }
}
