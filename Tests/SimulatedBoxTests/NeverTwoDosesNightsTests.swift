import Foundation
import Testing

/// Issue 18's reproductions, through the real boxd and boxctl binaries: each ends with one
/// dose recorded, or the night still owing Dose 2.
@Suite(.serialized) struct NeverTwoDosesNightsTests {
    /// A double tap from a bouncing thumb, then the hold the patient gives to undo it.
    @Test func aDoubleTapPlusTheNaturalUndoRecordsOneDose() throws {
        #expect(throws: Never.self) { try night("""
        at 22:00 edges dose "0:down,80:up,200:down,280:up"
        expect sounds success already_recorded
        expect status pending_confirmation null
        press dose hold 2500
        expect phase beforeWindow
        boxctl status
        expect output Dose 1: 22:00
        expect doses 1 dose1
        expect doses 0 dose2
        advance 165m
        expect sound main_alarm
        """) }
    }

    /// A check-in at 165 min with Dose 2 owed is refused; the next take is Dose 2, not a new Dose 1.
    @Test func aCheckInWithDose2OwedDoesNotCloseTheNight() throws {
        #expect(throws: Never.self) { try night("""
        at 22:00 press dose
        advance 165m
        boxctl checkin --quality 3
        expect exit 3
        expect output Dose 2 is still owed tonight (window 00:30–02:00)
        expect phase active
        boxctl take
        expect exit 0
        expect output Dose 2 recorded.
        expect doses 1 dose1
        expect doses 1 dose2
        """) }
    }

    /// Item 3: wake_final while Dose 2 is owed is refused and the LED keeps the due dose.
    @Test func wakeFinalDoesNotHideADueDose() throws {
        #expect(throws: Never.self) { try night("""
        at 22:00 press dose
        advance 160m
        boxctl log wake_final
        expect exit 3
        expect phase active
        expect led green pulse
        boxctl log wake_final --confirm
        expect exit 0
        expect phase finalizing
        expect dose dose2_skipped
        """) }
    }

    /// Item 4: `dose extra` says only what is true.
    @Test func doseExtraSaysOnlyWhatIsTrue() throws {
        #expect(throws: Never.self) { try night("""
        at 22:00 boxctl dose extra
        expect exit 3
        expect output Please take Dose 1 first.
        expect no-output STOP
        press dose
        boxctl dose extra --confirm
        expect exit 3
        expect output Dose 2 has not been taken
        expect no-output STOP
        """) }
    }

    /// Item 5: three nap_start in a row: the second and third are refused.
    @Test func napsDoNotOverlap() throws {
        #expect(throws: Never.self) { try night("""
        at 22:00 boxctl log nap_start
        expect exit 0
        boxctl log nap_start
        expect exit 3
        expect output A nap is already in progress
        boxctl log nap_start
        expect exit 3
        boxctl log nap_end
        expect exit 0
        """) }
    }
}
