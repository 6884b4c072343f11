import BoxControl
@testable import BoxDaemon
import Foundation
import Testing

/// What `boxctl status` says of the caregiver link, from the bridge's reports.
@Suite struct CaregiverLinkBoardTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aBoxWithoutMQTTSaysNothingUntilABridgeReports() {
        let board = CaregiverLinkBoard(expected: false, since: Self.t0)
        #expect(board.status { _ in 0 } == nil)
        board.update(CaregiverLinkReport(state: .up, detail: nil, acked: 3), from: 1, now: Self.t0)
        #expect(board.status { _ in 0 }?.state == "up")
    }

    @Test func noBridgeIsAFaultFromBoxdsStart() throws {
        let board = CaregiverLinkBoard(expected: true, since: Self.t0)
        let s = try #require(board.status { _ in 7 })
        #expect(s.state == "no_bridge" && s.since == Self.t0 && s.queued == nil, "no cursor known: nothing to count from")
        #expect(CaregiverLinkBoard.fault(s)?.code == "caregiver_link_down")
    }

    @Test func aStateKeepsItsSinceUntilItChangesAndQueuedCountsFromTheCursor() throws {
        let board = CaregiverLinkBoard(expected: true, since: Self.t0)
        board.update(CaregiverLinkReport(state: .down, detail: "Connection refused", acked: 10), from: 1, now: Self.t0 + 60)
        board.update(CaregiverLinkReport(state: .down, detail: "Connection refused", acked: 10), from: 1, now: Self.t0 + 120)
        var counted: Int64?
        let s = try #require(board.status { acked in counted = acked; return 3 })
        #expect(s.state == "down" && s.since == Self.t0 + 60 && s.queued == 3 && counted == 10)
        #expect(s.text(timeZone: TimeZone(identifier: "UTC")!) == "Caregiver link: DOWN since 08:01 (Connection refused), 3 events queued")
        board.update(CaregiverLinkReport(state: .up, detail: nil, acked: 13), from: 1, now: Self.t0 + 180)
        let up = try #require(board.status { _ in 0 })
        #expect(up.state == "up" && up.since == Self.t0 + 180 && CaregiverLinkBoard.fault(up) == nil)
        #expect(up.text(timeZone: TimeZone(identifier: "UTC")!) == "Caregiver link: up since 08:03")
    }

    @Test func aBridgeThatHangsUpLeavesNoBridgeWithItsLastCursor() throws {
        let board = CaregiverLinkBoard(expected: true, since: Self.t0)
        board.update(CaregiverLinkReport(state: .refused, detail: "not authorised", acked: 5), from: 1, now: Self.t0 + 10)
        #expect(CaregiverLinkBoard.fault(try #require(board.status { _ in 0 }))?.code == "caregiver_link_refused")
        board.update(nil, from: 1, now: Self.t0 + 20)
        let s = try #require(board.status { _ in 2 })
        #expect(s.state == "no_bridge" && s.since == Self.t0 + 20 && s.queued == 2)
    }

    /// A bridge that reconnected reports on its new connection before boxd has closed the old
    /// one: the old one's end is not the bridge's.
    @Test func theEndOfAnOldConnectionDoesNotHideTheNewOne() throws {
        let board = CaregiverLinkBoard(expected: true, since: Self.t0)
        board.update(CaregiverLinkReport(state: .up, detail: nil, acked: 4), from: 1, now: Self.t0 + 10)
        board.update(CaregiverLinkReport(state: .up, detail: nil, acked: 4), from: 2, now: Self.t0 + 11)
        board.update(nil, from: 1, now: Self.t0 + 12)
        #expect(try #require(board.status { _ in 0 }).state == "up")
        board.update(nil, from: 2, now: Self.t0 + 13)
        #expect(try #require(board.status { _ in 0 }).state == "no_bridge")
    }
}
