import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why `writeSynced` failed: the step ("open", "write") and its errno.
struct SyncedWriteFailure: Error {
    let step: String
    let code: Int32
    var text: String { String(cString: strerror(code)) }
}

/// `bytes` in the file at `path` (created, or emptied, with `mode`), on the disk when it returns;
/// on a failure the file is removed. The rename into place is the caller's (the witness after
/// each commit, the export after all its files).
func writeSynced(_ bytes: [UInt8], to path: String, mode: mode_t) throws(SyncedWriteFailure) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { throw SyncedWriteFailure(step: "open", code: errno) }
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { return try fail(fd, path) }
        done += n
    }
    guard fsync(fd) == 0 else { return try fail(fd, path) }
    close(fd)
}

private func fail(_ fd: Int32, _ path: String) throws(SyncedWriteFailure) {
    let code = errno
    close(fd)
    unlink(path)
    throw SyncedWriteFailure(step: "write", code: code)
}
