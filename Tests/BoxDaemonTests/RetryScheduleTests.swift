@testable import BoxDaemon
import BoxHardware
import ConfigFile
import DoseCore
import Foundation
import Logging
import Synchronization
import Testing

/// The retry of a broken log or device is an instant that events do not move: a person or a
/// script asking `boxctl status` every second must not keep a freed disk's log from being
/// reopened (the virtual box found it: the retry was 30 s after the latest status, for ever).
@Suite struct RetryScheduleTests {
    /// A clock that is not simulated (so the engine sets real timers), moved by hand; every
    /// timer it is asked for is reported on `sleeps` and then waits until cancelled.
    final class HandClock: BoxClock, @unchecked Sendable {
        let nanos = Mutex<Int64>(1_000_000_000)
        let sleeps: AsyncStream<Duration>
        let report: AsyncStream<Duration>.Continuation
        init() { (sleeps, report) = AsyncStream.makeStream(of: Duration.self) }
        func now() -> Moment { Moment(wall: Date(timeIntervalSince1970: 1_795_316_400 + Double(nanos.withLock { $0 }) / 1e9), boot: "hand", monoNanos: nanos.withLock { $0 }) }
        func edgeNow() -> Duration { .nanoseconds(nanos.withLock { $0 }) }
        func sleep(for d: Duration) async throws {
            report.yield(d)
            try await Self.untilCancelled() // the next reschedule cancels it
        }
        func sleep(untilEdge deadline: Duration) async throws { try await Self.untilCancelled() }
        /// Suspends until the task is cancelled (no time passes on this clock by itself).
        static func untilCancelled() async throws {
            let (never, source) = AsyncStream.makeStream(of: Never.self)
            for await _ in never {} // ends when the task is cancelled
            source.finish()
            try Task.checkCancellation()
        }
        var isSimulated: Bool { false }
        var description: String { "hand" }
        func move(_ d: Duration) { nanos.withLock { $0 += d.nanoseconds } }
    }

    @Test func statusEverySecondDoesNotPushTheLogRetryBack() async throws {
        let clock = HandClock()
        let config = try BoxConfig.load(path: nil, isolation: .inProcess)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("retry-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: dir) }
        // No log: it could not be opened at start, so it is retried every 30 s.
        let engine = Engine(state: BoxState.rebuilt(settings: config.settings(), records: []), log: nil, stateDirectory: dir, clock: clock,
                            hardware: try SimulatedBoard(config: config).hardware(audio: WavSink(clock: { .zero }), animate: false),
                            config: config, logger: Logger(label: "test"))
        var sleeps = clock.sleeps.makeAsyncIterator()
        await engine.start()
        #expect(await sleeps.next() == .seconds(30))
        for second in 1...25 {
            clock.move(.seconds(1))
            _ = await engine.status()
            #expect(await sleeps.next() == .seconds(30 - second), "after \(second) s of status polls")
        }
        await engine.shutdown()
    }
}
