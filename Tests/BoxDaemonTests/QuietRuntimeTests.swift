@testable import BoxDaemon
import Foundation
import Testing

/// boxd's own sleep (QuietRuntime): every timer of the engine waits in it, so it must end on
/// time, never early, and at once when its task is cancelled (a rescheduled alarm cancels the
/// old one's sleep).
@Suite(.timeLimit(.minutes(1))) struct QuietRuntimeTests {
    @Test func aSleepEndsNoEarlierThanItsDeadline() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        try await QuietRuntime.sleep(for: .milliseconds(20))
        #expect(clock.now - start >= .milliseconds(20))
    }

    @Test func aDeadlineAlreadyPastEndsAtOnce() async throws {
        try await QuietRuntime.sleep(untilMonotonic: 0)
        try await QuietRuntime.sleep(for: .seconds(-5))
    }

    @Test func aCancelledSleepEndsAtOnceWithCancellationError() async {
        let hour = Task { try await QuietRuntime.sleep(for: .seconds(3600)) }
        hour.cancel()
        let result = await hour.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test func aSleepInATaskCancelledBeforeItThrowsWithoutWaiting() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await QuietRuntime.sleep(for: .seconds(3600))
        }
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test func manySleepsEachEndOnce() async throws {
        // Deadlines spread over 0-9 ms, some cancelled while they wait: each returns exactly once
        // (a continuation resumed twice traps, one never resumed hangs the group).
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<200 {
                group.addTask {
                    do {
                        try await QuietRuntime.sleep(for: .microseconds(50 * i))
                        return true
                    } catch is CancellationError {
                        return false
                    }
                }
            }
            var ended = 0
            for try await _ in group { ended += 1 }
            #expect(ended == 200)
        }
        let cancelled = (0..<100).map { i in Task { try await QuietRuntime.sleep(for: .microseconds(97 * i)) } }
        for (i, t) in cancelled.enumerated() where i.isMultiple(of: 2) { t.cancel() }
        for t in cancelled { _ = await t.result }
    }
}
