import BoxControl
import DoseCore
import Foundation
import Testing

/// `boxctl status` as the patient reads it at 2 a.m., built from the core's state: the times
/// in the box's zone, what is left of the window, and the JSON keys scripts and Home
/// Assistant read.
@Suite struct StatusReportTests {
    static let zone = TimeZone(identifier: "America/New_York")!
    /// 2026-11-21 22:00 in New York.
    static let dose1 = Moment(wall: Date(timeIntervalSince1970: 1_795_316_400), boot: "boot-A", monoNanos: 5_000_000_000)

    /// Dose 1 at 22:00 by the button; the report `minutes` later.
    static func report(minutesLater minutes: Double, then actions: [Action] = []) -> StatusReport {
        var state = BoxState(settings: BoxSettings(timeZone: zone))
        state = DoseReducer.reduce(state, .takeDose(confirmed: false), Context(now: dose1, source: .button("dose"), ids: ["a", "b", "c"])).state
        let now = dose1.advanced(by: .minutes(minutes))
        for action in actions {
            state = DoseReducer.reduce(state, action, Context(now: now, source: .cli(uid: 1000), ids: ["d", "e", "f"])).state
        }
        state = DoseReducer.reduce(state, .tick, Context(now: now)).state
        return StatusReport(state: state, now: now, source: "boxd", health: nil)
    }

    @Test func inTheWindowItSaysWhatIsLeftInLocalTime() {
        let text = Self.report(minutesLater: 155).text()
        #expect(text.contains("Night 2026-11-21: window open: take Dose 2"))
        #expect(text.contains("Dose 1: 22:00 (2 h 35 min ago)"))
        #expect(text.contains("Window: 00:30–02:00, 1 h 25 min left"))
        #expect(text.contains("Target: 00:45 (165 min), snoozes 0 of 3 used"))
    }

    @Test func beforeTheWindowAndAfterDose2() {
        #expect(Self.report(minutesLater: 149).text().contains("window not open yet"))
        let done = Self.report(minutesLater: 170, then: [.takeDose(confirmed: false)]).text()
        #expect(done.contains("Dose 2: 00:50"))
        #expect(done.contains("Window: 00:30–02:00\n")) // nothing left to count once Dose 2 is in
    }

    @Test func theJSONKeysAreSnakeCase() throws {
        let data = try ControlProtocol.encoder().encode(Self.report(minutesLater: 155))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in ["time_zone", "dose1_at", "window_opens_at", "window_closes_at", "target_minutes", "snoozes_used", "phase"] {
            #expect(object[key] != nil, "\(key)")
        }
        #expect(object["time_zone"] as? String == "America/New_York")
        #expect(object["phase"] as? String == "active")
        let back = try ControlProtocol.decoder().decode(StatusReport.self, from: data)
        #expect(back.text() == Self.report(minutesLater: 155).text())
    }

    @Test func everyPhaseHasWords() {
        for phase in Phase.allCases {
            #expect(StatusReport.words(forPhase: phase.rawValue) != phase.rawValue, "\(phase)")
        }
    }
}
