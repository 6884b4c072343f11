import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes an export's files on a thread of its own while the next ones are made (#34): a ten-year
/// export's 7 MB of writes and fsyncs then take no time of their own on a second core. Each file
/// goes under a temporary name beside its own, written and fsynced; `commit` renames them all
/// into place once every file is made, then syncs the directory. Nothing reaches the directory
/// before `allow` says the log passed its check; `finish` removes whatever was written when not.
final class ExportWriter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "NightLog.export")
    private let directory: URL
    // Touched on `queue` only, then read by `finish` and `commit` after `queue.sync`.
    private var allowed = true
    private var failure: NightLogError?
    private var written: [(temp: String, file: ExportFile)] = []
    private var madeDirectory = false

    init(directory: URL) {
        self.directory = directory
    }

    /// Holds every write until `check` ends, and drops them if it says the log is damaged.
    func allow(after check: DispatchGroup, outcome: @escaping @Sendable () -> NightLogError?) {
        queue.async { [self] in
            check.wait()
            if let error = outcome() { allowed = false; failure = error }
        }
    }

    func add(_ file: ExportFile, _ bytes: [UInt8]) {
        queue.async { [self] in
            guard allowed, failure == nil else { return }
            do throws(NightLogError) {
                try makeDirectory()
                let temp = directory.appendingPathComponent(".\(file.fileName).\(getpid()).tmp").path
                written.append((temp, file))
                try Self.writeSynced(bytes, to: temp, naming: directory.appendingPathComponent(file.fileName).path,
                                     in: directory.path)
            } catch {
                failure = error
            }
        }
    }

    /// Waits for the writes; throws the first failure (the check's, or a write's), after
    /// removing the temporary files.
    func finish(dropping error: NightLogError? = nil) throws(NightLogError) {
        queue.sync {}
        guard let problem = failure ?? error else { return }
        for (temp, _) in written { unlink(temp) }
        if madeDirectory { rmdir(directory.path) }
        throw problem
    }

    /// Every file renamed into place, in `ExportFile.allCases` order, and the directory synced.
    func commit() throws(NightLogError) -> [URL] {
        var urls: [URL] = []
        for file in ExportFile.allCases {
            guard let temp = written.first(where: { $0.file == file })?.temp else { continue }
            let url = directory.appendingPathComponent(file.fileName)
            guard rename(temp, url.path) == 0 else {
                let error = Self.posixError()
                for (temp, _) in written { unlink(temp) }
                throw .exportFailed(path: url.path, detail: NightLog.plainFileReason(error, path: directory.path))
            }
            urls.append(url)
        }
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
        return urls
    }

    private func makeDirectory() throws(NightLogError) {
        guard written.isEmpty else { return }
        do {
            var isDirectory: ObjCBool = false
            madeDirectory = !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .exportFailed(path: directory.path, detail: NightLog.plainFileReason(error, path: directory.path))
        }
    }

    /// `bytes` in the file at `temp`, on the disk; a failure names the file it stands for.
    private static func writeSynced(_ bytes: [UInt8], to temp: String, naming path: String, in directory: String) throws(NightLogError) {
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            throw .exportFailed(path: path, detail: NightLog.plainFileReason(posixError(), path: directory))
        }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw .exportFailed(path: path, detail: NightLog.plainFileReason(posixError(), path: directory)) }
            done += n
        }
        guard fsync(fd) == 0 else { throw .exportFailed(path: path, detail: NightLog.plainFileReason(posixError(), path: directory)) }
    }

    private static func posixError() -> NSError { NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
}
