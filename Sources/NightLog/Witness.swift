import CZlib
import DoseCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The night log's second witness (#29): `nightlog.witness` beside the log, a small file
/// that names the latest doses and the log's high-water mark (its last seq), rewritten
/// after every commit (see `NightLog.append`).
///
/// Why a plain file and not a second SQLite database: the failures it must outlive are the
/// log's own (a -wal lost to fsck after a power cut, a backup that copied only the main
/// file, a file restored from an older copy), so it shares nothing with the log: no WAL, no
/// journal that fsck could remove, no pages. It is written whole to a temporary file,
/// fsynced, renamed over the old one and the directory fsynced, so after a power cut it is
/// the old witness or the new one, never a mix; a CRC-32 (zlib's) over its JSON catches
/// anything else.
///
/// Format: one line, `<crc32 as 8 hex digits> <JSON>`.
public struct Witness: Codable, Sendable, Equatable {
    public struct Session: Codable, Sendable, Equatable {
        public var id: String
        public var date: String
        public var start: Stamp
        public var targetMinutes: Int?
    }

    public struct Dose: Codable, Sendable, Equatable {
        public var id: String
        public var seq: Int64
        public var sessionID: String
        public var sessionDate: String
        public var type: String
        public var at: Stamp
        public var metadata: String
        public var source: String
    }

    /// A `Moment` as stored: wall time (ISO 8601), boot id, CLOCK_BOOTTIME nanoseconds.
    public struct Stamp: Codable, Sendable, Equatable {
        public var wall: String
        public var boot: String
        public var mono: Int64
    }

    public static let fileName = "nightlog.witness"
    /// How many of the latest live dose events it keeps: a whole night (Dose 1, Dose 2 or its
    /// skip, three snoozes, extras) and the last dose before it.
    public static let dosesKept = 10

    public var format = 1
    /// The log's last seq when the witness was written.
    public var highSeq: Int64
    /// The sessions of `doses`, so they can be carried into a new log.
    public var sessions: [Session]
    /// The latest live dose events, oldest first.
    public var doses: [Dose]

    /// What was found beside the log.
    public enum Reading: Sendable, Equatable {
        case absent
        case damaged(String)
        case found(Witness)

        var found: Witness? { if case .found(let w) = self { w } else { nil } }
    }

    // MARK: - The file

    static func url(in directory: URL) -> URL { directory.appendingPathComponent(fileName) }

    static func read(in directory: URL) -> Reading {
        let path = url(in: directory).path
        guard FileManager.default.fileExists(atPath: path) else { return .absent }
        guard let bytes = FileManager.default.contents(atPath: path) else { return .damaged("it cannot be read") }
        var text = Array(bytes)
        if text.last == UInt8(ascii: "\n") { text.removeLast() }
        guard text.count > 9, text[8] == UInt8(ascii: " "),
              let stored = UInt32(String(decoding: text[0..<8], as: UTF8.self), radix: 16) else {
            return .damaged("it is not a witness file (\(bytes.count) bytes)")
        }
        let json = Array(text[9...])
        guard crc32(json) == stored else { return .damaged("its checksum does not match (\(bytes.count) bytes)") }
        do {
            return .found(try JSONDecoder().decode(Witness.self, from: Data(json)))
        } catch {
            return .damaged("its contents cannot be read: \(error)")
        }
    }

    /// Writes the witness durably: a temporary file fsynced, renamed over the old one, the
    /// directory fsynced. Returns only when the new witness is on the disk.
    func write(in directory: URL) throws(NightLogError) {
        let target = Self.url(in: directory).path
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json: [UInt8]
        do { json = Array(try encoder.encode(self)) } catch {
            throw .invalidRecord(path: target, detail: "the witness cannot be encoded: \(error)")
        }
        let line = Array(String(format: "%08x ", Self.crc32(json)).utf8) + json + [UInt8(ascii: "\n")]
        let temporary = target + ".new"
        func fail(_ what: String, _ text: String = String(cString: strerror(errno))) -> NightLogError {
            .cannotOpen(path: target, detail: "the witness could not be written (\(what)): \(text)")
        }
        do throws(SyncedWriteFailure) { try writeSynced(line, to: temporary, mode: 0o640) } catch { throw fail(error.step, error.text) }
        guard rename(temporary, target) == 0 else { throw fail("rename") }
        let dir = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { throw fail("open the directory") }
        defer { close(dir) }
        guard fsync(dir) == 0 else { throw fail("fsync the directory") }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}

extension Witness.Stamp {
    init(_ m: Moment) { self.init(wall: m.wall.iso8601, boot: m.boot, mono: m.monoNanos) }

    var moment: Moment? { Date(iso8601: wall).map { Moment(wall: $0, boot: boot, monoNanos: mono) } }
}
