@testable import BoxDaemon
@testable import BoxGPIO
import BoxHardware
import ConfigFile
import DoseCore
import Foundation
import Logging
import NightLog
import Testing

/// Every press takes one path into the engine: a GPIO chip's lines, GPIOButtons' reader
/// thread and edge decoding, then the engine's one pump (`Engine.startPump`). A kernel's
/// raw event and a simulated press (`sim press`, the bench's inject, the demo's key) are
/// both events on the simulated chip; nothing reaches the engine by another way.
@Suite struct OneEdgePathTests {
    struct Box {
        let dir: URL
        let clock: SimClock
        let engine: Engine
        let log: NightLog
        let gpio: SimulatedGPIO
        let buttons: GPIOButtons

        /// `activeLow`: the dose button's wiring. `decode`: the reader's edge decoding.
        init(activeLow: Bool = true,
             decode: @escaping @Sendable (GPIORawEvent) -> RawEdge = EdgeReader.decode) throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("edgepath-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let clock = SimClock(start: Date(timeIntervalSince1970: 1_795_316_400), stateFile: nil)
            self.clock = clock
            log = try NightLog.open(stateDirectory: dir)
            var config = try BoxConfig.load(path: nil, isolation: .inProcess)
            config.buttons[0].activeLow = activeLow
            let gpio = SimulatedGPIO()
            self.gpio = gpio
            let (lines, _) = GPIOBackend.lines(config)
            buttons = try GPIOButtons(driver: gpio, chip: SimulatedGPIO.chip, buttons: lines, decode: decode)
            let sink = WavSink(path: dir.appendingPathComponent("sounds.wav").path, clock: { clock.offset })
            let hardware = Engine.Hardware(led: LEDPlayer(output: GPIOBackend.NoLED(), animate: false), audio: sink,
                                           edges: buttons, simulatedGPIO: gpio)
            engine = Engine(state: BoxState.rebuilt(settings: config.settings(), records: []), log: log, stateDirectory: dir,
                            clock: clock, hardware: hardware, config: config, logger: Logger(label: "test"))
        }

        func dose1Recorded() throws -> Bool {
            let records = try NightLog.openReadOnly(stateDirectory: dir).latestSession()?.records ?? []
            return records.contains { if case .dose(let d) = $0 { d.type == .dose1 && d.source == .button("dose") } else { false } }
        }

        /// The chip's session that holds the buttons' lines.
        var session: SimulatedChip? { gpio.sessions.first }

        func cleanup() {
            buttons.close()
            try? FileManager.default.removeItem(at: dir)
        }
    }

    @Test func aKernelEventAndASimulatedPressMeetInTheSamePump() async throws {
        // A raw event as the kernel queues it, read by GPIOButtons' poll(2) thread.
        let kernel = try Box()
        defer { kernel.cleanup() }
        await kernel.engine.start()
        let session = try #require(kernel.session)
        let t0 = kernel.clock.now().monoNanos
        session.push(line: 17, type: GPIOEventType.fallingEdge, sec: Int(t0 / 1_000_000_000), nsec: Int(t0 % 1_000_000_000))
        let up = t0 + 120_000_000
        session.push(line: 17, type: GPIOEventType.risingEdge, sec: Int(up / 1_000_000_000), nsec: Int(up % 1_000_000_000))
        await kernel.engine.handled(button: "dose", at: .nanoseconds(up))
        await kernel.engine.advance(by: .seconds(2)) // past the double-press gap: a single press
        #expect(await kernel.engine.lastEdgeAt["dose"] == .nanoseconds(up))
        #expect(try kernel.dose1Recorded())

        // `sim press`: the same chip, reader and pump.
        let sim = try Box()
        defer { sim.cleanup() }
        await sim.engine.start()
        let t1 = sim.clock.now().monoNanos
        #expect(await sim.engine.handle(.sim(.press(button: "dose", holdMs: 120)), uid: 1000).ok)
        #expect(await sim.engine.lastEdgeAt["dose"] == .nanoseconds(t1 + 120_000_000)) // the release, through the pump
        #expect(try sim.dose1Recorded())
    }

    @Test(arguments: [true, false])
    func aSimulatedPressDrivesTheLineAsItsWiringDoes(activeLow: Bool) async throws {
        // A button to ground (pull-up) pulls the line low; one to 3.3 V (pull-down) high.
        // Either way the decoder and the recogniser make it a press.
        let box = try Box(activeLow: activeLow)
        defer { box.cleanup() }
        await box.engine.start()
        let input = try #require(box.session?.inputs[17])
        #expect(input.bias == (activeLow ? .pullUp : .pullDown))
        #expect(await box.engine.handle(.sim(.press(button: "dose", holdMs: 120)), uid: 1000).ok)
        #expect(try box.dose1Recorded())
    }

    @Test func aBrokenDecoderBreaksTheSimulatedPress() async throws {
        // The decoder with its sense of direction lost: every press reads as a release.
        let broken: @Sendable (GPIORawEvent) -> RawEdge = { event in
            let edge = EdgeReader.decode(event)
            return RawEdge(edge.direction == .falling ? .rising : .falling, at: edge.at)
        }
        let box = try Box(decode: broken)
        defer { box.cleanup() }
        await box.engine.start()
        let t0 = box.clock.now().monoNanos
        _ = await box.engine.handle(.sim(.press(button: "dose", holdMs: 120)), uid: 1000)
        #expect(await box.engine.lastEdgeAt["dose"] == .nanoseconds(t0 + 120_000_000)) // both edges came through
        #expect(try !box.dose1Recorded())
    }

    @Test func aSimulatedPressWithoutItsLinesRecordsNothing() async throws {
        let box = try Box()
        defer { box.cleanup() }
        await box.engine.start()
        await box.buttons.closeAndWait() // the lines are released, the pump ends: a press has no other way in
        await box.engine.advance(by: .seconds(1))
        _ = await box.engine.handle(.sim(.press(button: "dose", holdMs: 120)), uid: 1000)
        #expect(await box.engine.lastEdgeAt["dose"] == nil)
        #expect(try !box.dose1Recorded())
    }
}
