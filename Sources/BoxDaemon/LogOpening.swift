import Foundation
import NightLog
import Synchronization

/// The night log opened on a thread of its own while the start does something else (boxd's
/// config vetting and espeak-ng's start): `result()` waits for it.
final class LogOpening: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Mutex<Result<NightLog, NightLogError>?>(nil)

    init(stateDirectory: URL, now: Date) {
        Thread.detachNewThread { [self] in
            let opened = Result { () throws(NightLogError) in try NightLog.open(stateDirectory: stateDirectory, now: now) }
            outcome.withLock { $0 = opened }
            done.signal()
        }
    }

    func result() -> Result<NightLog, NightLogError> {
        done.wait()
        done.signal() // for a second call
        return outcome.withLock { $0! }
    }
}
