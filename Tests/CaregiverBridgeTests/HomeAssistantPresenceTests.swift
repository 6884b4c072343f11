@testable import CaregiverBridge
import Testing

/// Home Assistant's birth and will: an event published while it was away is sent again when it
/// is back, once; a Home Assistant that only starts gets the discovery.
@Suite struct HomeAssistantPresenceTests {
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func whatWasPublishedWhileItWasAwayIsSentAgainWhenItIsBack() {
        var p = HomeAssistantPresence()
        #expect(p.heard(Self.bytes("offline"), published: 7) == .nothing)
        #expect(p.awayAfter == 7)
        // A second will (the broker's, after Home Assistant's own) keeps the first mark.
        #expect(p.heard(Self.bytes("offline"), published: 9) == .nothing)
        #expect(p.heard(Self.bytes("online"), published: 11) == .announceAndResend(after: 7, through: 11))
        #expect(p.awayAfter == nil)
        // Back and connected: the next birth (a restart with nothing missed) only announces.
        #expect(p.heard(Self.bytes("online"), published: 12) == .announce)
    }

    @Test func aStartWithNothingMissedOnlyAnnounces() {
        var p = HomeAssistantPresence()
        #expect(p.heard(Self.bytes("online"), published: 3) == .announce)
        #expect(p.heard(Self.bytes("offline"), published: 3) == .nothing)
        #expect(p.heard(Self.bytes("online"), published: 3) == .announce, "nothing was published while it was away")
    }

    @Test func anythingElseIsIgnored() {
        var p = HomeAssistantPresence()
        for payload in ["", "ONLINE", "online\n", "take", "{\"cmd\":\"take\"}"] {
            #expect(p.heard(Self.bytes(payload), published: 5) == .nothing, "\(payload)")
        }
        #expect(p.awayAfter == nil)
    }
}
