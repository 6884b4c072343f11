// libFuzzer target: the TOML config loader as boxd runs it (BoxConfig.parse with the parser
// isolated in a child process: this binary, run again; see main.swift).
// Built and run by scripts/fuzz; see Tests/Fuzz/README.md. libFuzzer supplies main.
import BoxDaemon
import ConfigFile
import Foundation

/// Fails the run: libFuzzer reports the trap as a crash and saves the input.
func fail(_ what: String, _ text: String) -> Never {
    fatalError("FuzzConfig: \(what)\n--- input ---\n\(text)\n---")
}

/// This binary, as the child boxd would be for itself.
let isolation = TOMLIsolation.child(executable: "/proc/self/exe")

/// Inputs on which the parser died in the child (each a one-line ConfigError here), printed at exit.
nonisolated(unsafe) var diedInChild = 0
let printAtExit: Void = {
    atexit {
        FileHandle.standardError.write(Data("FuzzConfig: the parser died in the child on \(diedInChild) input(s); each was refused with one line\n".utf8))
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    // As BoxConfig.readText reads a file: text that is not UTF-8 is its own ConfigError, before TOML.
    _ = printAtExit
    guard let text = String(data: Data(bytes: data, count: size), encoding: .utf8) else { return 0 }
    // A path: a file, whose missing sections take the embedded default's values, parsed as boxd
    // does (child first). nil: the embedded default's own path (no fallback); parsed in this
    // process only when the child has shown the parser reads the text to the end (the parse
    // is deterministic), since a parser that dies here would end the run.
    for path in ["/etc/boxd/boxd.toml", nil] as [String?] {
        do {
            let config = try BoxConfig.parse(text, path: path, isolation: path == nil ? .inProcess : isolation, voices: EspeakVoices())
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
            if error.message.contains("cannot check the file") { fail("the child could not run: \(line)", text) }
            // The parser died (or hung) in the child: it would end this run in-process.
            if error.message.contains(": not valid TOML: the TOML parser") {
                diedInChild += 1
                break
            }
        }
    }
    return 0
}
