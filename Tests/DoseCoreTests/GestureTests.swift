import Foundation
import TestSupport
import Testing
@testable import DoseCore

/// Drives a recogniser with edges at millisecond offsets (active-low: falling = pressed).
struct Button {
    var r = GestureRecognizer(timings: .init(DoseConstants.box.gestures), activeLow: true)
    var events: [GestureEvent] = []
    var doubleEnabled: Bool

    init(doubleEnabled: Bool) { self.doubleEnabled = doubleEnabled }

    mutating func down(_ ms: Int) { events += r.handle(RawEdge(.falling, at: .milliseconds(ms)), doubleEnabled: doubleEnabled) }
    mutating func up(_ ms: Int) { events += r.handle(RawEdge(.rising, at: .milliseconds(ms)), doubleEnabled: doubleEnabled) }
    mutating func wait(until ms: Int) { events += r.advance(to: .milliseconds(ms), doubleEnabled: doubleEnabled) }

    var log: [String] { events.map { "\($0.gesture)@\(Int($0.at.seconds * 1000))" } }
    func count(_ g: Gesture) -> Int { events.filter { $0.gesture == g }.count }
}

@Suite struct GestureTests {
    @Test func aSinglePressCommitsAtOnceWhereDoubleMeansNothing() {
        var b = Button(doubleEnabled: false)
        b.down(0)
        b.up(120)
        #expect(b.log == ["pressed@0", "single@120"])
        b.wait(until: 5000)
        #expect(b.log.count == 2)
    }

    @Test func whereDoubleMeansSomethingASingleWaitsOutTheGap() {
        var b = Button(doubleEnabled: true)
        b.down(0)
        b.up(120)
        b.wait(until: 519)
        #expect(b.log == ["pressed@0"])
        b.wait(until: 520)
        #expect(b.log == ["pressed@0", "single@520"])
    }

    @Test func aDoublePressWith390msGapButTwoSinglesWith410() {
        var fast = Button(doubleEnabled: true)
        fast.down(0); fast.up(120); fast.down(510); fast.up(630)
        fast.wait(until: 3000)
        #expect(fast.log == ["pressed@0", "pressed@510", "double@630"])

        var slow = Button(doubleEnabled: true)
        slow.down(0); slow.up(120); slow.down(530); slow.up(650)
        slow.wait(until: 3000)
        #expect(slow.log == ["pressed@0", "single@520", "pressed@530", "single@1050"])
    }

    @Test func holdFiresWhileHeldThenConfirmHoldCountedFromThePress() {
        var b = Button(doubleEnabled: true)
        b.down(0)
        b.wait(until: 999)
        #expect(b.log == ["pressed@0"])
        b.wait(until: 2500)
        #expect(b.log == ["pressed@0", "hold@1000", "confirm_hold@2000"])
        b.up(2600)
        #expect(b.log.last == "released_after_hold@2600")
        #expect(b.count(.single) == 0)
    }

    @Test func aClickThenAHoldIsASingleThenAHold() {
        var b = Button(doubleEnabled: true)
        b.down(0); b.up(100); b.down(300)
        b.wait(until: 1500)
        #expect(b.log == ["pressed@0", "pressed@300", "single@1300", "hold@1300"])
    }

    /// 1000 presses with 0–25 ms of random chatter on both edges give exactly 1000 singles.
    @Test(arguments: [false, true])
    func bouncyPressesCountOnce(doubleEnabled: Bool) {
        var rng = SplitMix64(seed: 0xD05E_7A9)
        var b = Button(doubleEnabled: doubleEnabled)
        var t = 0
        for _ in 0..<1000 {
            let hold = Int.random(in: 60...400, using: &rng)
            bounce(&b, at: t, toPressed: true, rng: &rng)
            bounce(&b, at: t + hold, toPressed: false, rng: &rng)
            t += hold + Int.random(in: 460...900, using: &rng)
        }
        b.wait(until: t + 5000)
        #expect(b.count(.single) == 1000)
        #expect(b.count(.pressed) == 1000)
        #expect(b.count(.double) == 0)
        #expect(b.count(.hold) == 0)
    }

    /// A transition to `pressed` at `t`, with an even number of extra edges in the next 0–25 ms.
    func bounce(_ b: inout Button, at t: Int, toPressed: Bool, rng: inout SplitMix64) {
        let span = Int.random(in: 0...25, using: &rng)
        let extra = span == 0 ? 0 : 2 * Int.random(in: 0...3, using: &rng)
        let times = (0..<extra).map { _ in t + Int.random(in: 1...max(1, span), using: &rng) }.sorted()
        var level = toPressed
        if toPressed { b.down(t) } else { b.up(t) }
        for time in times {
            level.toggle()
            if level { b.down(time) } else { b.up(time) }
        }
    }

    @Test func aGlitchShorterThanTheDebounceIsNotAPress() {
        var b = Button(doubleEnabled: false)
        b.down(0); b.up(3)
        b.wait(until: 2000)
        #expect(b.count(.single) == 0)
        #expect(b.count(.hold) == 0)
        b.down(3000); b.up(3100)
        #expect(b.count(.single) == 1)
    }

    @Test func aMissingReleaseIsResolvedByTheStuckGuard() {
        var b = Button(doubleEnabled: false)
        b.down(0)
        b.wait(until: 14_999)
        #expect(!b.r.isStuck)
        b.wait(until: 15_000)
        #expect(b.log.suffix(2) == ["stuck@15000", "released_after_hold@15000"])
        #expect(b.r.isStuck)
        #expect(b.r.nextDeadline == nil) // never holding forever
        b.up(20_000) // the real release edge, late
        #expect(b.log.last == "recovered@20000")
        b.down(21_000); b.up(21_100)
        #expect(b.log.last == "single@21100")
    }

    @Test func aPressWhileStillPressedMeansTheReleaseWasLost() {
        var b = Button(doubleEnabled: false)
        b.down(0)
        b.wait(until: 3000)
        b.down(5000) // no up edge came between
        b.up(5100)
        #expect(b.log == ["pressed@0", "hold@1000", "confirm_hold@2000", "skip_hold@3000", "released_after_hold@5000", "pressed@5000",
                          "single@5100"])
    }

    @Test func activeHighButtonsReadRisingAsPressed() {
        var r = GestureRecognizer(timings: .init(DoseConstants.box.gestures), activeLow: false)
        let a = r.handle(RawEdge(.rising, at: .zero), doubleEnabled: false)
        let b = r.handle(RawEdge(.falling, at: .milliseconds(100)), doubleEnabled: false)
        #expect((a + b).map(\.gesture) == [.pressed, .single])
    }
}
