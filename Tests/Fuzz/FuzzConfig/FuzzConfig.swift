// libFuzzer target: the TOML config loader (BoxConfig.parse, as BoxConfig.load uses it).
// Built and run by scripts/fuzz; see Tests/Fuzz/README.md. libFuzzer supplies main.
import BoxDaemon
import Foundation

/// Fails the run: libFuzzer reports the trap as a crash and saves the input.
func fail(_ what: String, _ text: String) -> Never {
    fatalError("FuzzConfig: \(what)\n--- input ---\n\(text)\n---")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    // As BoxConfig.readText reads a file: text that is not UTF-8 is its own ConfigError, before TOML.
    guard let text = String(data: Data(bytes: data, count: size), encoding: .utf8) else { return 0 }
    // nil: the embedded default's own path (no fallback); a path: a file, whose missing
    // sections take the embedded default's values.
    for path in [nil, "/etc/boxd/boxd.toml"] as [String?] {
        do {
            let config = try BoxConfig.parse(text, path: path)
            // What boxd and `boxctl config show` do next with an accepted config.
            _ = config.settings()
            for entry in config.entries where entry.key.isEmpty { fail("an entry without a key", text) }
        } catch {
            // `parse` throws(ConfigError): the compiler already guarantees the type. What
            // must hold at run time is that the error reads as one clear line naming the key
            // (or, for a TOML syntax error or a file problem, where in which file).
            let line = error.description
            if line.isEmpty || error.message.isEmpty { fail("an empty ConfigError (key \"\(error.key)\")", text) }
            if line.contains(where: \.isNewline) { fail("a ConfigError over several lines: \(line)", text) }
            if error.key.isEmpty && !error.message.hasPrefix("\(path ?? "config"): ") {
                fail("a ConfigError that names neither a key nor the file: \(line)", text)
            }
        }
    }
    return 0
}
