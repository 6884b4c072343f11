import BoxControl
@testable import BoxDaemon
import BoxGPIO
import BoxHardware
import ConfigFile
import DoseCore
import Foundation
import Logging
import NightLog
import Synchronization
import Testing

/// The engine in process, on the simulated clock, with the simulated chip's buttons and LED
/// and the WAV sink.
struct Rig {
    let dir: URL
    let clock: SimClock
    let board: SimulatedBoard
    let config: BoxConfig
    let sink: WavSink
    let engine: Engine
    let log: NightLog

    static let start = ISO8601DateFormatter().date(from: "2026-11-21T22:00:00-05:00")!

    /// `audio`: a player standing in for the WAV sink (which is still made, unused).
    /// `edgesYielded`, `unreadEdges`: stand-ins for what the simulated chip's reader reports.
    init(dir: URL? = nil, audio: (any TonePlayer)? = nil, edgesYielded: (@Sendable () -> Int?)? = nil,
         unreadEdges: (@Sendable () -> Bool)? = nil) throws {
        let dir = dir ?? FileManager.default.temporaryDirectory.appendingPathComponent("engine-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        self.dir = dir
        let clock = SimClock(start: Self.start, stateFile: dir.appendingPathComponent("sim-clock.json"))
        self.clock = clock
        sink = WavSink(path: dir.appendingPathComponent("sounds.wav").path, clock: { clock.offset })
        log = try NightLog.open(stateDirectory: dir)
        var config = try BoxConfig.load(path: nil, isolation: .inProcess)
        config.timeZone = TimeZone(identifier: "America/New_York")!
        let records = try log.latestSession()?.records ?? []
        self.config = config
        board = try SimulatedBoard(config: config)
        var hardware = board.hardware(audio: audio ?? sink, animate: false)
        if let edgesYielded { hardware.edgesYielded = edgesYielded }
        if let unreadEdges { hardware.unreadEdges = unreadEdges }
        engine = Engine(state: BoxState.rebuilt(settings: config.settings(), records: records), log: log, stateDirectory: dir,
                        clock: clock, hardware: hardware, config: config, logger: Logger(label: "test"))
    }

    /// Whether the LED's lines on the simulated chip are at `color`'s levels.
    func ledShows(_ color: LEDColor) throws -> Bool {
        let wiring = try #require(GPIOBackend.lines(config).wiring)
        let levels = board.gpio.outputLevels()
        return ledLineLevels(for: color, wiring: wiring, activeLow: config.ledActiveLow).allSatisfy { levels[$0.line] == $0.value }
    }

    func request(_ c: Command) async -> Reply { await engine.handle(c, uid: 1000) }
    func press(_ button: String = "dose", holdMs: Int = 120) async -> Reply {
        await request(.sim(.press(button: button, holdMs: holdMs)))
    }
    func advance(_ text: String) async { _ = await request(.sim(.advance(ms: DurationText.parseMilliseconds(text) ?? 0))) }
    func status() async -> StatusReport { await engine.status() }
    func sounds() async -> [String] { await engine.soundLog.map(\.name) }
    func cleanup() { try? FileManager.default.removeItem(at: dir) }
}

@Suite struct EngineTests {
    @Test func aPressRecordsDose1DurablyAndLightsTheLED() async throws {
        let rig = try Rig()
        defer { rig.cleanup() }
        await rig.engine.start()
        #expect(try rig.ledShows(.off))
        _ = await rig.press()
        let s = await rig.status()
        #expect(s.phase == "beforeWindow")
        #expect(try rig.ledShows(.blue))
        #expect(await rig.sounds() == ["success"])
        // On disk, not only in memory: a second reader sees it.
        let reader = try NightLog.openReadOnly(stateDirectory: rig.dir)
        let records = try #require(try reader.latestSession()).records
        #expect(records.contains { if case .dose(let d) = $0 { d.type == .dose1 && d.source == .button("dose") } else { false } })
    }

    @Test func aWholeGoodNightOnTheSimClock() async throws {
        let rig = try Rig()
        defer { rig.cleanup() }
        await rig.engine.start()
        _ = await rig.press()
        await rig.advance("150m")
        #expect(await rig.sounds().last == "window_open")
        #expect(await rig.status().led == LEDReport(color: "green", pattern: "pulse"))
        await rig.advance("10m")
        #expect(await rig.sounds().last == "pre_alarm")
        await rig.advance("5m")
        #expect(await rig.sounds().last == "main_alarm")
        let r = await rig.press()
        #expect(r.ok)
        #expect(await rig.status().phase == "completed")
        let before = await rig.sounds().count
        await rig.advance("3h")
        #expect(await rig.sounds().count == before)
        let offsets = await rig.engine.soundLog.map(\.offsetMs)
        #expect(offsets.contains(150 * 60_000 + 120)) // window open: 150 min after Dose 1, taken at the press's release
    }

    @Test func sleepingThroughRingsEveryStepInOrder() async throws {
        let rig = try Rig()
        defer { rig.cleanup() }
        await rig.engine.start()
        _ = await rig.press()
        await rig.advance("5h")
        let kinds = await rig.engine.soundLog.filter { $0.level != nil }.map(\.name)
        #expect(kinds == ["window_open", "pre_alarm", "main_alarm", "follow_up", "follow_up", "follow_up", "remaining_warning",
                          "hard_stop", "hard_stop", "hard_stop", "remaining_warning", "hard_stop", "expired"])
    }

    @Test func refusalsComeBackWithTheSeedsMessageAndExitCode3() async throws {
        let rig = try Rig()
        defer { rig.cleanup() }
        await rig.engine.start()
        let r = await rig.request(.snooze)
        #expect(r.exit == .refused)
        #expect(r.message == "Please take Dose 1 first.")
        #expect(r.code == "422_DOSE1_REQUIRED")
    }

    @Test func aReadOnlyLogIsNotAcknowledged() async throws {
        let rig = try Rig()
        defer { rig.cleanup() }
        await rig.engine.start()
        _ = await rig.request(.sim(.fault(.logReadonly)))
        let r = await rig.press()
        #expect(r.ok) // the press itself was delivered
        let s = await rig.status()
        #expect(s.phase == "noDose1")
        #expect(s.faults.map(\.code).contains("log_unwritable"))
        #expect(await rig.sounds().last == "error")
        #expect(!(await rig.sounds()).contains("success"))
        let take = await rig.request(.take(confirm: false))
        #expect(take.exit == .failed)
    }

    @Test func theAudioDeviceVanishingIsAFaultAndTheDoseIsStillRecorded() async throws {
        let rig = try Rig()
        defer { rig.cleanup() }
        await rig.engine.start()
        _ = await rig.press()
        await rig.advance("165m")
        _ = await rig.request(.sim(.fault(.audioFail)))
        let s = await rig.status()
        #expect(s.faults.map(\.code).contains("audio_unavailable"))
        #expect(s.led.pattern == "fault")
        _ = await rig.press()
        #expect(await rig.status().phase == "completed")
    }

    @Test func aRestartRebuildsTheNightAndKeepsTheNextAlarm() async throws {
        let first = try Rig()
        defer { first.cleanup() }
        await first.engine.start()
        _ = await first.press()
        await first.advance("10s")
        let next = await first.status().nextAlarm
        // A new engine on the same state directory and sim clock file: a restarted daemon.
        let second = try Rig(dir: first.dir)
        await second.engine.start()
        let s = await second.status()
        #expect(s.phase == "beforeWindow")
        #expect(s.nextAlarm == next)
        await second.advance("150m")
        #expect(await second.sounds() == ["window_open"])
    }

    @Test func simCommandsNeedTheSimClock() async throws {
        let rig = try Rig()
        defer { rig.cleanup() }
        let r = await rig.request(.sim(.press(button: "nope", holdMs: 120)))
        #expect(r.exit == .usage)
        #expect(r.message.contains("no button named nope"))
    }
}

/// The virtual box's findings: a bouncy release whose chatter waits on its way to the
/// engine must not be read as a second press when a gesture timer fires first. The chatter
/// may wait in the edge stream while the engine is busy (an fsync), or in the kernel's queue
/// while the reader thread is not yet scheduled (a loaded guest in CI: a bouncy press in the
/// window taken as a double, a snooze).
@Suite struct EdgeBacklogTests {
    final class Source: Sendable {
        let count = Mutex(0)
        let unread = Mutex(false)
        func set(_ n: Int) { count.withLock { $0 = n } }
        func kernelHolds(_ b: Bool) { unread.withLock { $0 = b } }
    }

    /// Where the chatter waits, as the engine can tell (or not).
    enum Waiting { case inTheStream, inTheKernel, unseen }

    /// Dose 1 by a press released at +150 ms, then chatter at +154 (down), +161 (up), +166
    /// (down), +173 (up), inside the release's 30 ms lockout. Timers fire at +200 and +240,
    /// each before the chatter has reached the engine.
    func bouncyReleaseWithTimersFiringFirst(_ waiting: Waiting) async throws -> [String] {
        let source = Source()
        let rig = try Rig(edgesYielded: { waiting == .inTheStream ? source.count.withLock { $0 } : nil },
                          unreadEdges: { waiting == .inTheKernel && source.unread.withLock { $0 } })
        defer { rig.cleanup() }
        await rig.engine.start()
        let t0 = rig.clock.now().monoNanos
        func edge(_ ms: Int64, _ pressed: Bool) -> ButtonEdge {
            ButtonEdge(button: "dose", edge: RawEdge(pressed ? .falling : .rising, at: .nanoseconds(t0 + ms * 1_000_000)))
        }
        func timer(at ms: Int64) async {
            rig.clock.advance(toMono: t0 + ms * 1_000_000)
            await rig.engine.tick()
        }
        source.set(2)
        await rig.engine.handle(edge(0, true), fromSource: true)
        rig.clock.advance(toMono: t0 + 150_000_000)
        await rig.engine.handle(edge(150, false), fromSource: true)
        source.set(6) // the reader has the chatter; the pump is still busy
        source.kernelHolds(true) // or: the kernel has it; the reader has not run yet
        await timer(at: 200)
        await rig.engine.handle(edge(154, true), fromSource: true)
        await rig.engine.handle(edge(161, false), fromSource: true)
        await rig.engine.handle(edge(166, true), fromSource: true)
        await timer(at: 240)
        source.kernelHolds(false)
        await rig.engine.handle(edge(173, false), fromSource: true)
        await timer(at: 1500)
        return await rig.sounds()
    }

    @Test func chatterStillInTheStreamIsHandledBeforeAGestureDeadline() async throws {
        #expect(try await bouncyReleaseWithTimersFiringFirst(.inTheStream) == ["success"])
    }

    @Test func chatterStillInTheKernelIsHandledBeforeAGestureDeadline() async throws {
        #expect(try await bouncyReleaseWithTimersFiringFirst(.inTheKernel) == ["success"])
    }

    @Test func chatterTheEngineCannotSeeComingIsASecondPress() async throws {
        // The same edges when the engine cannot tell they are on their way: the tests above can fail.
        #expect(try await bouncyReleaseWithTimersFiringFirst(.unseen) == ["success", "already_recorded"])
    }
}
