import CZlib
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What `TOMLIsolation.remembered` keeps of a text its child got through: which program's
/// parser it was (this file's device, inode, size and change time: an upgrade or a rebuild is
/// another program) and the text's length and checksums (zlib's CRC-32 and Adler-32), not the
/// text itself: a second copy of the config would be one more thing to keep in step. One line in
/// the state directory, written whole (a new file renamed over the old); a stamp that cannot be
/// read or written only means the next start vets the text again.
struct VettedStamp {
    static let fileName = "config-vetted"
    /// The note's one line, without the way and the newline; nil when the program cannot say
    /// who it is (then nothing is remembered).
    let core: String?
    /// How the child came to be, at the end of the line: for the tests and whoever reads it.
    let way: TOMLIsolation.Way?

    /// Whether the child found espeak-ng's voice for the text's `voice.language` (or the voice is
    /// off): written ", voice" after the way; a restart then leaves espeak-ng unloaded until boxd speaks.
    let voiceVouched: Bool

    init(text: String, program: String = TOMLIsolation.thisProgram, way: TOMLIsolation.Way? = nil, voiceVouched: Bool = false) {
        self.way = way
        self.voiceVouched = voiceVouched
        var st = stat()
        guard stat(program, &st) == 0 else {
            core = nil
            return
        }
        let bytes = Array(text.utf8)
        let (crc, adler) = bytes.withUnsafeBufferPointer { b in
            (crc32(0, b.baseAddress, uInt(b.count)), adler32(1, b.baseAddress, uInt(b.count)))
        }
        core = "vetted by \(st.st_dev):\(st.st_ino):\(st.st_size):\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec): "
            + "\(bytes.count) bytes, crc32 \(String(crc, radix: 16)), adler32 \(String(adler, radix: 16))"
    }

    /// What a note found says: the text got through, and whether the voice was vouched for.
    struct Note {
        let voiceVouched: Bool
    }

    /// nil when the note is not this text's and this program's, however its child came to be.
    func recorded(at path: String) -> Note? {
        guard let core, let note = try? String(contentsOfFile: path, encoding: .utf8), note.hasPrefix(core) else { return nil }
        let rest = note.dropFirst(core.count)
        if rest == "\n" { return Note(voiceVouched: false) }
        for way in TOMLIsolation.Way.allCases {
            if rest == " (\(way.rawValue))\n" { return Note(voiceVouched: false) }
            if rest == " (\(way.rawValue), voice)\n" { return Note(voiceVouched: true) }
        }
        return nil
    }

    func record(at path: String) {
        guard let core else { return }
        let line = core + (way.map { " (\($0.rawValue)\(voiceVouched ? ", voice" : ""))" } ?? "") + "\n"
        try? Data(line.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
