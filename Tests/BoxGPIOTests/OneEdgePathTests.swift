@testable import BoxDaemon
@testable import BoxGPIO
import BoxHardware
import ConfigFile
import DoseCore
import Foundation
import Logging
import NightLog
import Testing

/// Every press takes one path into the engine: an edge source, then the engine's one pump
/// (`Engine.startPump`). A kernel's edge read by GPIOButtons (here on the fake driver, with
/// its real reader thread) and a simulated press pushed into SimButtons both arrive there,
/// and are counted there; a closed source lets no simulated press through by another way.
@Suite struct OneEdgePathTests {
    struct Box {
        let dir: URL
        let clock: SimClock
        let engine: Engine
        let log: NightLog

        init(edges: any EdgeSource) throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("edgepath-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let clock = SimClock(start: Date(timeIntervalSince1970: 1_795_316_400), stateFile: nil)
            self.clock = clock
            log = try NightLog.open(stateDirectory: dir)
            let config = try BoxConfig.load(path: nil, isolation: .inProcess)
            let sink = WavSink(path: dir.appendingPathComponent("sounds.wav").path, clock: { clock.offset })
            engine = Engine(state: BoxState.rebuilt(settings: config.settings(), records: []), log: log, stateDirectory: dir, clock: clock,
                            hardware: .init(led: LEDPlayer(output: SimLED(), animate: false), audio: sink, edges: edges),
                            config: config, logger: Logger(label: "test"))
        }

        func dose1Recorded() throws -> Bool {
            let records = try NightLog.openReadOnly(stateDirectory: dir).latestSession()?.records ?? []
            return records.contains { if case .dose(let d) = $0 { d.type == .dose1 && d.source == .button("dose") } else { false } }
        }

        func cleanup() { try? FileManager.default.removeItem(at: dir) }
    }

    @Test func aKernelEdgeAndASimulatedPressMeetInTheSamePump() async throws {
        // GPIO: the fake chip's events, read by GPIOButtons' poll(2) thread.
        let driver = FakeDriver(chips: [Chips.pi5])
        let gpio = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [ButtonLine(name: "dose", line: 17, activeLow: true)])
        defer { gpio.close() }
        let kernel = try Box(edges: gpio)
        defer { kernel.cleanup() }
        await kernel.engine.start()
        let session = try #require(driver.sessions.first)
        let t0 = kernel.clock.now().monoNanos
        session.push(line: 17, type: GPIOEventType.fallingEdge, sec: Int(t0 / 1_000_000_000), nsec: Int(t0 % 1_000_000_000))
        let up = t0 + 120_000_000
        session.push(line: 17, type: GPIOEventType.risingEdge, sec: Int(up / 1_000_000_000), nsec: Int(up % 1_000_000_000))
        await kernel.engine.pumped(upTo: 2)
        await kernel.engine.advance(by: .seconds(2)) // past the double-press gap: a single press
        #expect(await kernel.engine.edgesFromSource == 2)
        #expect(try kernel.dose1Recorded())

        // Simulation: `sim press` pushes its edges into SimButtons; the same pump counts them.
        let buttons = SimButtons()
        let sim = try Box(edges: buttons)
        defer { sim.cleanup() }
        await sim.engine.start()
        try await sim.engine.simEdges(button: "dose", [(0, .falling), (120, .rising)])
        #expect(await sim.engine.edgesFromSource == 2)
        #expect(buttons.edgesYielded == 2)
        #expect(try sim.dose1Recorded())
    }

    @Test func aSimulatedPressWithoutItsEdgeSourceRecordsNothing() async throws {
        let buttons = SimButtons()
        let box = try Box(edges: buttons)
        defer { box.cleanup() }
        await box.engine.start()
        buttons.close() // the pump ends: a press has no other way in
        await box.engine.advance(by: .seconds(1))
        try await box.engine.simEdges(button: "dose", [(0, .falling), (120, .rising)])
        #expect(await box.engine.edgesFromSource == 0)
        #expect(try !box.dose1Recorded())
    }
}
