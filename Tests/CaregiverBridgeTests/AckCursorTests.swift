import CaregiverBridge
import Testing

/// The bridge's cursor moves only over acknowledged entries with no gap before them.
@Suite struct AckCursorTests {
    @Test func acksInOrderMoveTheCursorOneByOne() {
        var c = AckCursor(acked: 10)
        c.published(id: 11, mid: 1)
        c.published(id: 14, mid: 2) // ids are the log's seq: gaps between entries are normal
        #expect(c.published == 14)
        #expect(c.acknowledged(mid: 1) == 11)
        #expect(c.acknowledged(mid: 2) == 14)
        #expect(c.inFlight.isEmpty && c.acked == 14)
    }

    @Test func aLaterAckWaitsForTheEarlierOne() {
        var c = AckCursor(acked: 0)
        for (id, mid) in [(1, 7), (2, 8), (3, 9)] { c.published(id: Int64(id), mid: Int32(mid)) }
        #expect(c.acknowledged(mid: 9) == nil, "3 is acked but 1 and 2 are not: a restart must send them again")
        #expect(c.acked == 0)
        #expect(c.acknowledged(mid: 7) == 1)
        #expect(c.acknowledged(mid: 8) == 3, "2 closes the gap, and 3 was already in")
        #expect(c.inFlight.isEmpty)
    }

    @Test func anUnknownOrRepeatedAckChangesNothing() {
        var c = AckCursor(acked: 5)
        c.published(id: 6, mid: 1)
        #expect(c.acknowledged(mid: 42) == nil)
        #expect(c.acknowledged(mid: 1) == 6)
        #expect(c.acknowledged(mid: 1) == nil)
        #expect(c == AckCursor(acked: 6))
    }

    @Test func anEntryHandedOverAlreadyIsNotTakenTwice() {
        var c = AckCursor(acked: 0)
        let first = c.published(id: 3, mid: 1)
        let again = c.published(id: 3, mid: 2) // a replay overlapping what is in flight
        let older = c.published(id: 2, mid: 3)
        #expect(first && !again && !older)
        #expect(c.inFlight == [AckCursor.Sent(id: 3, mid: 1)])
    }

    /// The broker refused entry 7 (libmosquitto dropped it) and it is sent again under a new
    /// mid: the cursor waits for that one, and the old mid counts for nothing.
    @Test func aRefusedEntrySentAgainIsWaitedForUnderItsNewMid() {
        var c = AckCursor(acked: 6)
        c.published(id: 7, mid: 1)
        c.published(id: 8, mid: 2)
        let after8 = c.acknowledged(mid: 2)
        let again = c.republished(id: 7, mid: 3)
        let oldMid = c.acknowledged(mid: 1)
        let newMid = c.acknowledged(mid: 3)
        let late = c.republished(id: 7, mid: 4)
        #expect(after8 == nil, "8 is acknowledged, 7 is not")
        #expect(again)
        #expect(oldMid == nil, "the refused mid never moves the cursor")
        #expect(newMid == 8)
        #expect(!late, "no longer in flight")
    }
}
