import BoxDaemon
import BoxHardware
import ConfigFile
import DoseCore
import Foundation
import Logging
import NightLog
import Synchronization
import Testing

/// Issue 19 item 12: at any demo speed a confirmation waits in real time for a human hand.
@Suite struct FastClockTests {
    final class FakeTime: Sendable {
        let nanos = Mutex<Int64>(1_000_000_000)
        func advance(_ d: Duration) { nanos.withLock { $0 += d.nanoseconds } }
        var read: @Sendable () -> Int64 { { [self] in nanos.withLock { $0 } } }
    }

    static func stateDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fast-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// An engine on the demo clock with the shipped config (New York), the simulated chip, `audio`.
    static func engine(clock: FastClock, audio: any TonePlayer, dir: URL) throws -> Engine {
        var config = try BoxConfig.load(path: nil, isolation: .inProcess)
        config.timeZone = TimeZone(identifier: "America/New_York")!
        return Engine(state: BoxState(settings: config.settings()), log: try NightLog.open(stateDirectory: dir), stateDirectory: dir,
                      clock: clock, hardware: try SimulatedBoard(config: config).hardware(audio: audio, animate: false),
                      config: config, logger: Logger(label: "test"))
    }

    @Test func realTimeWhileAsked_andNoJumpEitherWay() {
        let time = FakeTime()
        let clock = FastClock(speed: 60, startWall: Date(), realNanos: time.read)
        time.advance(.seconds(1))
        #expect(clock.now().monoNanos == 60_000_000_000)
        clock.setRealTime(true)
        time.advance(.seconds(15))
        #expect(clock.now().monoNanos == 75_000_000_000, "15 s of a confirmation are 15 s")
        clock.setRealTime(false)
        #expect(clock.now().monoNanos == 75_000_000_000)
        time.advance(.seconds(1))
        #expect(clock.now().monoNanos == 135_000_000_000)
    }

    /// The night's schedule does not move when a press asks nothing: the clock slowed while
    /// the box answered, then reads what full speed gives (the virtual box's alarm onsets
    /// came 73-301 ms late while it did not catch up).
    @Test func anAnswerThatAsksNothingLeavesTheScheduleWhereItWas() {
        let time = FakeTime()
        let clock = FastClock(speed: 60, startWall: Date(), realNanos: time.read)
        clock.answerAtRealSpeed()
        time.advance(.milliseconds(500))
        #expect(clock.now().monoNanos == 500_000_000, "real speed while the box answers")
        clock.setRealTime(false)
        #expect(clock.now().monoNanos == 30_000_000_000, "caught up: 0.5 s at 60x")
        clock.answerAtRealSpeed()
        time.advance(.milliseconds(500))
        clock.setRealTime(true) // the answer asked a question: real time from the answer's start
        time.advance(.seconds(1))
        #expect(clock.now().monoNanos == 31_500_000_000)
        clock.setRealTime(false) // the question ended: no catch-up for its real seconds
        #expect(clock.now().monoNanos == 31_500_000_000)
    }

    @Test func aPendingConfirmationSlowsTheDemoClock() async throws {
        let dir = try Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let time = FakeTime()
        let clock = FastClock(speed: 60, startWall: Date(), realNanos: time.read)
        let engine = try Self.engine(clock: clock, audio: WavSink(clock: { .zero }), dir: dir)
        _ = await engine.apply(.gesture(.single, button: "dose"), source: .button("dose")) // Dose 1
        time.advance(.seconds(125)) // 125 min on the demo clock: past the floor, before the window
        _ = await engine.apply(.gesture(.single, button: "dose"), source: .button("dose"))
        #expect(await engine.state.pending?.kind == .early)
        #expect(clock.runsInRealTime)
        time.advance(.seconds(3)) // three real seconds: the confirmation still waits
        _ = await engine.apply(.tick, source: .system)
        #expect(await engine.state.pending != nil)
        _ = await engine.apply(.gesture(.confirmHold, button: "dose"), source: .button("dose"))
        #expect(!clock.runsInRealTime)
        #expect(await engine.state.night.dose2?.metadata.isEarly == true)
        await engine.shutdown()
    }

    /// A speaker slow to start (a busy host): the early press's warning tone takes 100 ms.
    final class SlowSpeaker: TonePlayer {
        let time: FakeTime
        init(time: FakeTime) { self.time = time }
        func play(_ sound: Sound, volume: Double, repeatFor: Duration?) { time.advance(.milliseconds(100)) }
        func say(_ clip: SpeechClip, volume: Double) {}
        func stop() {}
        var sampleRate: Int { 48_000 }
        var fault: String? { nil }
    }

    /// The virtual box, on a loaded host at fast:240: the early press asked, the hold came in
    /// time, and nothing was recorded, nor asked any more. The question had aged by the time
    /// its own tone took, times 240 (100 ms here: 24 s, past the 15 s).
    @Test func theQuestionIsNotAgedByTheTimeItTakesToAsk() async throws {
        let dir = try Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let time = FakeTime()
        let clock = FastClock(speed: 240, startWall: Date(), realNanos: time.read)
        let engine = try Self.engine(clock: clock, audio: SlowSpeaker(time: time), dir: dir)
        _ = await engine.apply(.gesture(.single, button: "dose"), source: .button("dose")) // Dose 1
        #expect(clock.now().monoNanos == 24_000_000_000, "Dose 1 asked nothing: the clock where full speed puts it (its tone's 0.1 s x 240)")
        #expect(!clock.runsInRealTime)
        time.advance(.seconds(130 * 60) / 240) // 130 min on the demo clock
        _ = await engine.apply(.gesture(.single, button: "dose"), source: .button("dose"))
        #expect(await engine.state.pending?.kind == .early)
        time.advance(.seconds(4)) // the hand reaches the confirm hold 4 s after the question
        _ = await engine.apply(.tick, source: .system)
        #expect(await engine.state.pending != nil, "the question still waits: 4 s (and the tone's 0.1 s) of its 15")
        _ = await engine.apply(.gesture(.confirmHold, button: "dose"), source: .button("dose"))
        #expect(await engine.state.night.dose2?.metadata.isEarly == true)
        await engine.shutdown()
    }
}
