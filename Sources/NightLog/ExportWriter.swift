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
                do throws(SyncedWriteFailure) {
                    try writeSynced(bytes, to: temp, mode: 0o666)
                } catch {
                    let reason = NightLog.plainFileReason(Self.posixError(error.code), path: directory.path)
                    throw .exportFailed(path: directory.appendingPathComponent(file.fileName).path, detail: reason)
                }
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
        // The renames made durable where the file system can: some (a FAT stick's) refuse a
        // directory's fsync, and the files themselves are already on the disk.
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
        return urls
    }

    private func makeDirectory() throws(NightLogError) {
        guard written.isEmpty else { return }
        do {
            madeDirectory = !FileManager.default.fileExists(atPath: directory.path)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .exportFailed(path: directory.path, detail: NightLog.plainFileReason(error, path: directory.path))
        }
    }

    private static func posixError(_ code: Int32 = errno) -> NSError { NSError(domain: NSPOSIXErrorDomain, code: Int(code)) }
}
