@testable import BoxGPIO
import BoxHardware
import DoseCore
import Foundation
import Testing

@Suite struct GPIOButtonsTests {
    let dose = ButtonLine(name: "dose", line: 17, activeLow: true)
    let events = ButtonLine(name: "events", line: 27, activeLow: true)

    /// The first `count` edges (deadlines are not asked for here).
    func collect(_ stream: AsyncStream<ButtonInput>, count: Int) async -> [ButtonEdge] {
        var iterator = stream.makeAsyncIterator()
        var edges: [ButtonEdge] = []
        while edges.count < count, let input = await iterator.next() {
            if case .edge(let edge) = input { edges.append(edge) }
        }
        return edges
    }

    func drain(_ stream: AsyncStream<ButtonInput>) async -> [ButtonEdge] {
        var edges: [ButtonEdge] = []
        for await input in stream {
            if case .edge(let edge) = input { edges.append(edge) }
        }
        return edges
    }

    func next(_ iterator: inout AsyncStream<ButtonInput>.Iterator, _ count: Int) async -> [ButtonInput] {
        var got: [ButtonInput] = []
        while got.count < count, let input = await iterator.next() { got.append(input) }
        return got
    }

    func edge(_ button: String, _ direction: RawEdge.Direction, _ sec: Int64, _ nsec: Int64) -> ButtonEdge {
        ButtonEdge(button: button, edge: RawEdge(direction, at: .seconds(sec) + .nanoseconds(nsec)))
    }

    @Test(arguments: [false, true]) func requestsInputsWithBiasAndConsumer(sharedDescriptor: Bool) throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        let buttons = try GPIOButtons(driver: driver, chip: Chips.pi5,
                                      buttons: [dose, ButtonLine(name: "events", line: 27, bias: .asIs)])
        defer { buttons.close() }
        let session = try #require(driver.sessions.first)
        #expect(driver.sessions.count == 1)
        #expect(session.inputs[17]?.bias == .pullUp)
        #expect(session.inputs[17]?.consumer == "boxd")
        #expect(session.inputs[27]?.bias == .asIs)
        #expect(Set(session.inputs.values.map(\.readFd)).count == (sharedDescriptor ? 1 : 2))
        #expect(buttons.fault == nil)
    }

    /// A gesture deadline that has passed comes after every edge the kernel holds: the reader
    /// reads its lines first, so a bouncy release's chatter stamped before the deadline is
    /// never taken after it (a second press). Here the reader thread is held, as on a loaded
    /// machine, while the chatter waits in the kernel and the deadline passes.
    @Test(arguments: [false, true]) func aDeadlineComesAfterTheEdgesTheKernelHolds(sharedDescriptor: Bool) async throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        let clock = FakeEdgeClock(.seconds(100) + .milliseconds(200))
        let buttons = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose, events], now: clock.read)
        defer { buttons.close() }
        let session = try #require(driver.sessions.first)
        var inputs = buttons.inputs().makeAsyncIterator()

        session.holdReads()
        for (ms, type) in [(154, GPIOEventType.fallingEdge), (161, GPIOEventType.risingEdge), (166, GPIOEventType.fallingEdge)] {
            session.push(line: 17, type: type, sec: 100, nsec: ms * 1_000_000)
        }
        let deadline = Duration.seconds(100) + .milliseconds(180)
        buttons.wake(at: deadline) // already passed on the edge clock
        session.releaseReads()
        #expect(await next(&inputs, 4) == [
            .edge(edge("dose", .falling, 100, 154_000_000)), .edge(edge("dose", .rising, 100, 161_000_000)),
            .edge(edge("dose", .falling, 100, 166_000_000)), .deadline(deadline),
        ])
    }

    /// A deadline asked for again replaces the one before; once it has passed it comes alone,
    /// and only once.
    @Test(arguments: [false, true]) func aDeadlineReplacesTheOneBeforeAndComesOnce(sharedDescriptor: Bool) async throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        let clock = FakeEdgeClock(.seconds(50))
        let buttons = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose], now: clock.read)
        defer { buttons.close() }
        let session = try #require(driver.sessions.first)
        var inputs = buttons.inputs().makeAsyncIterator()
        buttons.wake(at: .seconds(60)) // not yet
        buttons.wake(at: .seconds(40)) // replaces it, and has passed
        #expect(await next(&inputs, 1) == [.deadline(.seconds(40))])
        session.push(line: 17, type: GPIOEventType.fallingEdge, sec: 51, nsec: 0)
        #expect(await next(&inputs, 1) == [.edge(edge("dose", .falling, 51, 0))]) // nothing between
        buttons.wake(at: nil)
        clock.set(.seconds(70)) // the 60 s deadline was replaced: it never comes
        session.push(line: 17, type: GPIOEventType.risingEdge, sec: 52, nsec: 0)
        #expect(await next(&inputs, 1) == [.edge(edge("dose", .rising, 52, 0))])
    }

    @Test(arguments: [false, true]) func edgesComeOutInKernelOrder(sharedDescriptor: Bool) async throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        let buttons = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose, events])
        defer { buttons.close() }
        let session = try #require(driver.sessions.first)

        session.push(line: 17, type: GPIOEventType.fallingEdge, sec: 100, nsec: 0)
        session.push(line: 17, type: GPIOEventType.risingEdge, sec: 100, nsec: 120_000_000)
        session.push(line: 27, type: GPIOEventType.fallingEdge, sec: 101, nsec: 5)
        session.push(line: 27, type: GPIOEventType.risingEdge, sec: 101, nsec: 900_000_000)
        session.push(line: 17, type: GPIOEventType.fallingEdge, sec: 102, nsec: 0)

        let got = await collect(buttons.inputs(), count: 5)
        // Per line, the kernel's order exactly. Across lines, with one descriptor per line
        // (libgpiod 1.6), the order is by timestamp only within one wake-up (see mergeByTime's
        // test): a later edge on one line can be read before an earlier one on another. With
        // one descriptor for all lines (libgpiod 2), the kernel's order across lines too.
        if sharedDescriptor {
            #expect(got == [
                edge("dose", .falling, 100, 0), edge("dose", .rising, 100, 120_000_000),
                edge("events", .falling, 101, 5), edge("events", .rising, 101, 900_000_000),
                edge("dose", .falling, 102, 0),
            ])
        }
        #expect(got.filter { $0.button == "dose" } == [
            edge("dose", .falling, 100, 0),
            edge("dose", .rising, 100, 120_000_000),
            edge("dose", .falling, 102, 0),
        ])
        #expect(got.filter { $0.button == "events" } == [
            edge("events", .falling, 101, 5),
            edge("events", .rising, 101, 900_000_000),
        ])
    }

    @Test(arguments: [false, true]) func aBurstLongerThanOneReadStaysInOrder(sharedDescriptor: Bool) async throws {
        // Contact bounce: more edges than one gpiod_line_event_read_fd_multiple call takes.
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        let buttons = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose])
        defer { buttons.close() }
        let session = try #require(driver.sessions.first)
        var expected: [ButtonEdge] = []
        for i in 0..<40 {
            let type = i.isMultiple(of: 2) ? GPIOEventType.fallingEdge : GPIOEventType.risingEdge
            session.push(line: 17, type: type, sec: 5, nsec: i * 1_000)
            expected.append(edge("dose", i.isMultiple(of: 2) ? .falling : .rising, 5, Int64(i) * 1_000))
        }
        #expect(await collect(buttons.inputs(), count: 40) == expected)
    }

    @Test(arguments: [false, true]) func readErrorBecomesAFault(sharedDescriptor: Bool) async throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        let buttons = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose, events])
        let session = try #require(driver.sessions.first)

        session.push(line: 17, type: GPIOEventType.fallingEdge, sec: 1, nsec: 0)
        session.pushFailure(line: 17, errno: EIO)

        let got = await drain(buttons.inputs())
        #expect(got == [edge("dose", .falling, 1, 0)])
        #expect(buttons.faultError == .readFailed(button: "dose", line: 17, errno: EIO))
        #expect(buttons.fault == "button dose (line 17): reading events failed: Input/output error")
        #expect(session.isClosed)
        buttons.close() // after a fault: harmless
    }

    @Test(arguments: [false, true]) func againAndInterruptedAreNotFaults(sharedDescriptor: Bool) async throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        let buttons = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose])
        defer { buttons.close() }
        let session = try #require(driver.sessions.first)
        session.pushFailure(line: 17, errno: EINTR)
        session.pushFailure(line: 17, errno: EAGAIN)
        session.push(line: 17, type: GPIOEventType.fallingEdge, sec: 2, nsec: 0)
        #expect(await collect(buttons.inputs(), count: 1) == [edge("dose", .falling, 2, 0)])
        #expect(buttons.fault == nil)
    }

    @Test(arguments: [false, true]) func hangUpBecomesAFault(sharedDescriptor: Bool) async throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        let buttons = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose, events])
        let session = try #require(driver.sessions.first)
        session.hangUp(line: 27)
        #expect(await drain(buttons.inputs()) == [])
        // One descriptor for both lines: it is the first button's too, and that one is named.
        let lost = sharedDescriptor ? "button dose (line 17)" : "button events (line 27)"
        #expect(buttons.fault == "\(lost): the kernel closed the event descriptor")
        #expect(session.isClosed)
    }

    @Test(arguments: [false, true]) func closeFinishesTheStreamAndReleasesTheLines(sharedDescriptor: Bool) async throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        let buttons = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose])
        let session = try #require(driver.sessions.first)
        session.push(line: 17, type: GPIOEventType.fallingEdge, sec: 1, nsec: 0)
        // One iterator throughout: dropping an AsyncStream iterator terminates the stream.
        var iterator = buttons.inputs().makeAsyncIterator()
        #expect(await iterator.next() == .edge(edge("dose", .falling, 1, 0)))
        buttons.close()
        buttons.close()
        // The reader finishes the stream only after releasing the lines.
        #expect(await iterator.next() == nil)
        #expect(buttons.fault == nil)
        #expect(session.isClosed)
    }

    @Test(arguments: [false, true]) func closeAndWaitReturnsWithTheLinesReleased(sharedDescriptor: Bool) async throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        let buttons = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose, events])
        await buttons.closeAndWait()
        #expect(try #require(driver.sessions.first).isClosed)
        await buttons.closeAndWait() // again: returns at once
        // The lines can be requested again at once.
        let again = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose, events])
        await again.closeAndWait()
        #expect(driver.sessions.count == 2)
    }

    @Test(arguments: [false, true]) func aConsumerThatStopsListeningReleasesTheLines(sharedDescriptor: Bool) async throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        let buttons = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose])
        let session = try #require(driver.sessions.first)
        let stream = buttons.inputs()
        let listener = Task { for await _ in stream {} }
        listener.cancel()
        await listener.value
        // Cancelling the listener stops the reader, which releases the lines as it exits.
        await session.waitUntilClosed()
        #expect(session.isClosed)
        #expect(buttons.fault == nil)
    }

    @Test(arguments: [false, true]) func droppingTheButtonsStopsTheReader(sharedDescriptor: Bool) async throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        var stream: AsyncStream<ButtonInput>
        do {
            let buttons = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose])
            stream = buttons.inputs()
        }
        #expect(await drain(stream) == [])
        #expect(try #require(driver.sessions.first).isClosed)
    }

    @Test(arguments: [false, true]) func badLineIsRefusedBeforeOpeningTheChip(sharedDescriptor: Bool) {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        let error = #expect(throws: GPIOError.self) {
            _ = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [ButtonLine(name: "dose", line: 99, activeLow: true)])
        }
        #expect(error?.description == "buttons.dose.line: 99 is not a line of chip pinctrl-rp1 (0..53)")
        #expect(driver.sessions.isEmpty)
        #expect(throws: GPIOError.lineAlreadyUsed(key: "buttons.events.line", line: 17, usedBy: "buttons.dose.line")) {
            _ = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose, ButtonLine(name: "events", line: 17, activeLow: true)])
        }
    }

    @Test(arguments: [false, true]) func busyLineIsATypedErrorAndNothingLeaks(sharedDescriptor: Bool) throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        driver.failRequest(line: 27, errno: EBUSY)
        let error = #expect(throws: GPIOError.self) {
            _ = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose, events])
        }
        #expect(error == .requestFailed(key: "buttons.events.line", line: 27, chip: Chips.pi5, errno: EBUSY))
        #expect(error?.description.hasPrefix("buttons.events.line: cannot request line 27 of chip pinctrl-rp1: Device or resource busy") == true)
        #expect(try #require(driver.sessions.first).isClosed)
    }

    @Test(arguments: [false, true]) func chipLookupThroughTheLocator(sharedDescriptor: Bool) throws {
        let driver = SimulatedGPIO(chips: [Chips.pi4, Chips.pi4Expander], sharedDescriptor: sharedDescriptor)
        let locator = GPIOChipLocator(driver: driver)
        let buttons = try GPIOButtons(locator: locator, chip: "pinctrl-bcm2711", buttons: [dose])
        defer { buttons.close() }
        #expect(buttons.chip == Chips.pi4)
        #expect(throws: GPIOError.noMatchingChip(spec: "pinctrl-rp1", found: [Chips.pi4, Chips.pi4Expander])) {
            _ = try GPIOButtons(locator: locator, chip: "pinctrl-rp1", buttons: [dose])
        }
    }

    @Test(arguments: [false, true]) func openFailureIsTyped(sharedDescriptor: Bool) {
        let driver = SimulatedGPIO(chips: [Chips.pi5], sharedDescriptor: sharedDescriptor)
        driver.failOpen(with: .openFailed(path: "/dev/gpiochip4", errno: EACCES))
        let error = #expect(throws: GPIOError.self) {
            _ = try GPIOButtons(driver: driver, chip: Chips.pi5, buttons: [dose])
        }
        #expect(error?.description == "cannot open GPIO chip /dev/gpiochip4: Permission denied (is boxd in group gpio, and does the udev rule give gpio rw on /dev/gpiochip*?)")
    }
}

/// An edge clock that moves only when told.
final class FakeEdgeClock: Sendable {
    private let now: Locked<Duration>
    init(_ start: Duration) { now = Locked(start) }
    func set(_ d: Duration) { now.withLock { $0 = d } }
    var read: @Sendable () -> Duration { { [now] in now.withLock { $0 } } }
}
