import ArgumentParser
import BoxControl
import DoseCore
import Foundation
import NightLog
import SupportBundle

/// SSOT 1.1/2.4.3 "Support Bundle": events.csv, inventory.csv, app_metadata.json and
/// debug_log.txt, "PII minimized with automatic redaction + required user review". Two
/// steps: the files are written to a directory and shown (nothing leaves the box); only
/// `--pack`, after the person has read them, makes the archive to send.
struct SupportBundleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "support-bundle",
        abstract: "Gather what support needs, with personal details taken out, for you to review before sending.",
        discussion: """
            First run: writes events.csv (no notes), inventory.csv (no notes), app_metadata.json and debug_log.txt (boxd's \
            recent journal) into --out, redacted (e-mail and IP addresses, host and user names, secrets; in the settings also \
            the time zone's name, the MQTT box id and topics), and shows what is in them. Nothing is sent. Read the files; then `boxctl support-bundle --out DIR --pack` makes DIR.tar.gz to send. \
            Medication entries, check-in answers and notes are never included.
            """)
    @Option(help: "The directory to write the bundle into (and, with --pack, the one to pack).") var out: String
    @Option(help: "How many nights of events.") var days: Int = 30
    @Option(help: "How many of boxd's latest journal lines.") var journalLines: Int = 500
    @Flag(help: "Pack the reviewed directory into DIR.tar.gz.") var pack = false
    @Flag(help: "Replace --out if it exists.") var force = false
    @OptionGroup var connection: Connection

    static let files = ["events.csv", "inventory.csv", "app_metadata.json", "debug_log.txt", "manifest.txt"]

    func validate() throws {
        guard (1...3650).contains(days) else { throw ValidationError("--days must be 1 to 3650") }
        guard (0...100_000).contains(journalLines) else { throw ValidationError("--journal-lines must be 0 to 100000") }
    }

    func run() throws {
        let dir = URL(fileURLWithPath: out).standardizedFileURL
        if pack { return try packReviewed(dir) }
        if FileManager.default.fileExists(atPath: dir.path) {
            guard force else { try fail("\(dir.path) already exists; add --force to replace it") }
            try? FileManager.default.removeItem(at: dir)
        }
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            try fail("cannot create \(dir.path): \(NightLog.plainFileReason(error, path: dir.path))")
        }

        let context = BoxContext(connection)
        let range = context.range(days: days)
        let redaction = Redaction(hostname: ProcessInfo.processInfo.hostName, users: Self.homeUsers())
        let (events, inventory, migrations) = try connection.reading { log in
            (try log.csv(.events, from: range.from, to: range.to, withoutNotes: true),
             try log.csv(.inventory, withoutNotes: true), try log.appliedMigrations())
        }
        var manifest: [Manifest.File] = []
        func write(_ name: String, _ what: String, _ text: String, redacted before: [String: Int] = [:]) throws {
            let r = redaction.redact(text)
            do { try Data(r.text.utf8).write(to: dir.appendingPathComponent(name), options: .atomic) } catch {
                try fail("cannot write \(name): \(NightLog.plainFileReason(error, path: dir.path))")
            }
            manifest.append(Manifest.File(name: name, what: what, text: r.text, redactions: r.counts.merging(before, uniquingKeysWith: +)))
        }
        try write("events.csv", "doses and sleep events, \(range.from) to \(range.to), notes left out", events)
        try write("inventory.csv", "refills, corrections and reminders, notes left out", inventory)
        let meta = try metadata(context, migrations: migrations)
        try write("app_metadata.json", "the box: version, schema, zone offset, health, faults, settings without secrets or names",
                  meta.text, redacted: meta.counts)
        try write("debug_log.txt", "boxd's latest \(journalLines) journal lines", journal())
        let review = Manifest(files: manifest).text
        try write("manifest.txt", "this list", review + "\n")
        print(review)
        print("""

            Nothing has been sent. Read the files in \(dir.path). When you are content with what they hold, run
              boxctl support-bundle --out \(dir.path) --pack
            and send \(dir.path).tar.gz.
            """)
    }

    /// The box as support needs it; the zone as an offset (a zone name says where one lives),
    /// the settings as `SettingsRedaction` leaves them.
    func metadata(_ context: BoxContext, migrations: [String]) throws -> (text: String, counts: [String: Int]) {
        var out: [String: Any] = [
            "box_version": BoxVersion.current, "generated_at": context.now.iso8601,
            "utc_offset_minutes": context.zone.secondsFromGMT(for: context.now) / 60, "schema_migrations": migrations,
            "target_minutes": context.targetMinutes,
        ]
        var counts: [String: Int] = [:]
        if let reply = try? ControlClient(path: connection.socket, timeout: .seconds(2)).send(.config), let entries = reply.config {
            let settings = SettingsRedaction.redact(entries.map { ($0.key, $0.value) })
            out["settings"] = settings.settings
            counts = settings.counts
        }
        if let s = (try? ControlClient(path: connection.socket, timeout: .seconds(2)).send(.status))?.status {
            out["phase"] = s.phase
            out["faults"] = s.faults.map(\.code)
            if let h = s.health {
                out["health"] = ["buttons": h.buttons.text, "audio": h.audio.text, "log": h.log.text, "clock": h.clock.text]
            }
            out["supply_doses"] = s.supply?.remainingDoses
        } else {
            out["boxd"] = "not reachable"
        }
        let data = try JSONSerialization.data(withJSONObject: out, options: [.sortedKeys, .prettyPrinted])
        return (String(decoding: data, as: UTF8.self) + "\n", counts)
    }

    /// boxd's latest journal lines, or why there are none.
    func journal() -> String {
        guard journalLines > 0 else { return "(no journal lines asked for)\n" }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["journalctl", "-u", "boxd", "-n", String(journalLines), "-o", "short-iso", "--no-pager"]
        let pipe = Pipe(), errPipe = Pipe()
        p.standardOutput = pipe
        p.standardError = errPipe
        do { try p.run() } catch { return "the journal could not be read: \(error)\n" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        let err = errPipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            return "the journal could not be read (journalctl exit \(p.terminationStatus)): \(String(decoding: err, as: UTF8.self))"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The users with a home directory: their names are taken out wherever they appear.
    static func homeUsers() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: "/home")) ?? []
    }

    /// The directory the person reviewed, as DIR.tar.gz: only the bundle's own files.
    func packReviewed(_ dir: URL) throws {
        let present = Self.files.filter { FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path) }
        guard present.contains("manifest.txt") else {
            try fail("\(dir.path) is not a bundle to pack: run boxctl support-bundle --out \(dir.path) first, and read it")
        }
        let archive = dir.path + ".tar.gz"
        if FileManager.default.fileExists(atPath: archive), !force { try fail("\(archive) already exists; add --force to replace it") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["tar", "-czf", archive, "-C", dir.deletingLastPathComponent().path]
            + present.map { dir.lastPathComponent + "/" + $0 }
        do { try p.run() } catch { try fail("cannot run tar: \(error)") }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { try fail("tar failed (exit \(p.terminationStatus))") }
        print(archive)
    }

    func fail(_ message: String) throws -> Never {
        FileHandle.standardError.write(Data("support-bundle: \(message)\n".utf8))
        throw ExitCode(Exit.outputNotWritable)
    }
}
