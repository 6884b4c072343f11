import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The bridge's cursor on disk: the last feed id the broker acknowledged (with every id
/// before it). Written whole to a temporary file, fsynced and renamed over the old one, so
/// a power cut leaves the old cursor or the new one, never a torn one. An old cursor only
/// means some events are sent again (their ids let a consumer drop them).
struct CursorFile {
    let url: URL

    init(directory: URL) { url = directory.appendingPathComponent("cursor") }

    enum Problem: Error, CustomStringConvertible {
        case unreadable(String)
        case unwritable(String)
        var description: String {
            switch self {
            case .unreadable(let s), .unwritable(let s): s
            }
        }
    }

    /// The saved cursor; nil when there is none yet (a first start).
    func load() throws(Problem) -> Int64? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .unreadable("cannot read \(url.path): \(String(cString: strerror(errno)))")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let id = Int64(text), id >= 0 else {
            throw .unreadable("\(url.path) holds \"\(text.prefix(40))\", not a feed id: remove it to start from now")
        }
        return id
    }

    func save(_ id: Int64) throws(Problem) {
        let tmp = url.path + ".tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw .unwritable("cannot write \(tmp): \(String(cString: strerror(errno)))") }
        let bytes = Array("\(id)\n".utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(tmp, url.path) == 0 else {
            throw .unwritable("cannot save the cursor in \(url.path): \(String(cString: strerror(errno)))")
        }
        let dir = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }
}
