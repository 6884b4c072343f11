@testable import BoxGPIO
import BoxHardware
import DoseCore
import Foundation
import Testing

@Suite struct EdgeDecodingTests {
    let ts = timespec(tv_sec: 12_345, tv_nsec: 678_901_234)

    @Test func physicalEdgesPassThrough() {
        #expect(decodeEdge(eventType: GPIOEventType.risingEdge, ts: ts, activeLowRequested: false).direction == .rising)
        #expect(decodeEdge(eventType: GPIOEventType.fallingEdge, ts: ts, activeLowRequested: false).direction == .falling)
    }

    @Test func activeLowRequestIsUndone() {
        // With ACTIVE_LOW the kernel reports logical edges: a press on a pull-up button
        // (physically falling) arrives as RISING.
        #expect(decodeEdge(eventType: GPIOEventType.risingEdge, ts: ts, activeLowRequested: true).direction == .falling)
        #expect(decodeEdge(eventType: GPIOEventType.fallingEdge, ts: ts, activeLowRequested: true).direction == .rising)
    }

    @Test func unknownTypeIsFallingAsInLibgpiod() {
        #expect(decodeEdge(eventType: 0, ts: ts, activeLowRequested: false).direction == .falling)
    }

    @Test func timestampIsNanosecondsOnTheMonotonicTimeline() {
        let edge = decodeEdge(eventType: GPIOEventType.risingEdge, ts: ts, activeLowRequested: false)
        #expect(edge.at == .nanoseconds(12_345_678_901_234))
        let zero = decodeEdge(eventType: GPIOEventType.risingEdge, ts: timespec(tv_sec: 0, tv_nsec: 0), activeLowRequested: false)
        #expect(zero.at == .zero)
        let late = decodeEdge(eventType: GPIOEventType.risingEdge, ts: timespec(tv_sec: 3_000_000, tv_nsec: 999_999_999), activeLowRequested: false)
        #expect(late.at == .seconds(3_000_001) - .nanoseconds(1))
    }

    @Test func v2NanosecondTimestampsBecomeTheSameEdgeTime() {
        // libgpiod 2 gives u64 nanoseconds; 1.6 a timespec. Both decode to one instant.
        let ns: UInt64 = 12_345_678_901_234
        let ts = timespec(nanoseconds: ns)
        #expect(ts.tv_sec == 12_345 && ts.tv_nsec == 678_901_234)
        #expect(decodeEdge(eventType: GPIOEventType.fallingEdge, ts: ts, activeLowRequested: false).at == .nanoseconds(Int64(ns)))
        #expect(timespec(nanoseconds: 0).tv_sec == 0 && timespec(nanoseconds: 0).tv_nsec == 0)
        let edge = timespec(nanoseconds: 4_999_999_999)
        #expect(edge.tv_sec == 4 && edge.tv_nsec == 999_999_999)
        // Years of uptime still fit.
        let long = timespec(nanoseconds: 100 * 365 * 86_400 * 1_000_000_000)
        #expect(long.tv_sec == 100 * 365 * 86_400 && long.tv_nsec == 0)
    }

    @Test func decodedPressIsAPressForTheRecogniser() {
        // A pull-up button: press = falling, release = rising, physical.
        var recogniser = GestureRecognizer(timings: .init(DoseConstants.box.gestures), activeLow: true)
        let down = decodeEdge(eventType: GPIOEventType.fallingEdge, ts: timespec(tv_sec: 100, tv_nsec: 0), activeLowRequested: false)
        let gestures = recogniser.handle(down, doubleEnabled: true).map(\.gesture)
        #expect(gestures == [.pressed])
    }

    @Test func mergeKeepsPerLineOrderAndSortsAcrossLines() {
        func e(_ button: String, _ ms: Int64, _ d: RawEdge.Direction) -> ButtonEdge {
            ButtonEdge(button: button, edge: RawEdge(d, at: .milliseconds(ms)))
        }
        let dose = [e("dose", 10, .falling), e("dose", 30, .rising)]
        let events = [e("events", 20, .falling), e("events", 20, .rising), e("events", 40, .falling)]
        #expect(mergeByTime([dose, events]) == [
            e("dose", 10, .falling), e("events", 20, .falling), e("events", 20, .rising),
            e("dose", 30, .rising), e("events", 40, .falling),
        ])
        // A line whose timestamps go backwards keeps its kernel order.
        let odd = [e("dose", 50, .falling), e("dose", 5, .rising)]
        #expect(mergeByTime([odd]) == odd)
        #expect(mergeByTime([]) == [])
        #expect(mergeByTime([[], dose]) == dose)
    }
}
