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
    /// The note's one line; nil when the program cannot say who it is (then nothing is remembered).
    let line: String?

    init(text: String, program: String = TOMLIsolation.thisProgram) {
        var st = stat()
        guard stat(program, &st) == 0 else {
            line = nil
            return
        }
        let bytes = Array(text.utf8)
        let (crc, adler) = bytes.withUnsafeBufferPointer { b in
            (crc32(0, b.baseAddress, uInt(b.count)), adler32(1, b.baseAddress, uInt(b.count)))
        }
        line = "vetted by \(st.st_dev):\(st.st_ino):\(st.st_size):\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec): "
            + "\(bytes.count) bytes, crc32 \(String(crc, radix: 16)), adler32 \(String(adler, radix: 16))\n"
    }

    func isRecorded(at path: String) -> Bool {
        line != nil && (try? String(contentsOfFile: path, encoding: .utf8)) == line
    }

    func record(at path: String) {
        guard let line else { return }
        try? Data(line.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
