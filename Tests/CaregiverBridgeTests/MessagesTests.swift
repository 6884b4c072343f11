import BoxControl
@testable import CaregiverBridge
import DoseCore
import Foundation
import Testing

/// What a caregiver's phone and Home Assistant read: the event and state messages.
@Suite struct MessagesTests {
    /// A night at 3 h 10 min after Dose 1 (22:00 UTC), one snooze used, a fault on the box, and
    /// the caregiver link itself down (which the state leaves out).
    static func status(dose2: Bool = false) throws -> StatusReport {
        let json = """
            {"source":"boxd","now":"2026-11-22T01:10:30.000Z","timeZone":"UTC","phase":"active","sessionId":"s1","sessionDate":"2026-11-21",
             "dose1At":"2026-11-21T22:00:00.000Z","dose2At":\(dose2 ? "\"2026-11-22T01:10:00.000Z\"" : "null"),"skippedAt":null,
             "windowOpensAt":"2026-11-22T00:30:00.000Z","windowClosesAt":"2026-11-22T02:00:00.000Z","targetAt":"2026-11-22T01:00:00.000Z",
             "targetMinutes":165,"snoozesUsed":1,"snoozesRemaining":2,
             "nextAlarm":{"kind":"follow_up","level":"critical","at":"2026-11-22T01:12:00.000Z"},
             "led":{"color":"green","pattern":"steady"},"pendingConfirmation":null,"terminalState":null,"lastNight":null,
             "faults":[{"code":"caregiver_link_down","advice":"…"},{"code":"audio_unavailable","advice":"Alarms cannot sound."}],
             "health":null,"doubt":null,"stateDir":null,"alarmRinging":true,"caregiverLink":null}
            """
        return try ControlProtocol.decoder().decode(StatusReport.self, from: Data(json.utf8))
    }

    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func theStateSaysWhereTheNightStandsWithZonedTimes() throws {
        let s = try Self.object(BridgeMessages.state(try Self.status()))
        #expect(s["phase"] as? String == "active")
        #expect(s["dose1_at"] as? String == "2026-11-21T22:00:00+00:00", "Home Assistant needs the offset")
        #expect(s["dose2_at"] is NSNull)
        #expect(s["window_closes_at"] as? String == "2026-11-22T02:00:00+00:00")
        #expect(s["minutes_left"] as? Int == 49, "01:10:30 to 02:00: 49 whole minutes")
        #expect(s["snoozes_used"] as? Int == 1 && s["alarm_ringing"] as? Bool == true)
        #expect(s["faults"] as? [String] == ["audio_unavailable"], "the link's own fault stays out")
        #expect(s["fault"] as? Bool == true)
        #expect(s["fault_code"] as? String == "audio_unavailable" && s["fault_advice"] as? String == "Alarms cannot sound.")
        #expect(s["phase_text"] as? String == "window open: take Dose 2")
        #expect((s["next_alarm"] as? [String: Any])?["at"] as? String == "2026-11-22T01:12:00+00:00")
    }

    @Test func minutesLeftEndsWithDose2() throws {
        #expect(BridgeMessages.minutesLeft(try Self.status(dose2: true)) == nil)
        #expect(try Self.object(BridgeMessages.state(try Self.status(dose2: true)))["minutes_left"] is NSNull)
    }

    /// The bridge publishes the retained state only when its bytes change (Bridge.swift), so
    /// what the state does not carry must not change them: a status read seconds later in the
    /// same minute, another LED rhythm, the caregiver link's own fault. What it carries must.
    @Test func onlyWhatTheStateCarriesMakesANewState() throws {
        let first = BridgeMessages.state(try Self.status())
        var later = try Self.status()
        later.now += 20 // 01:10:50: still 49 minutes left
        later.led = LEDReport(color: "green", pattern: "pulse")
        later.faults.removeAll { $0.code == "caregiver_link_down" }
        #expect(BridgeMessages.state(later) == first, "a republish for nothing a caregiver can see")
        later.now += 20 // 01:11:10: 48 minutes left
        #expect(BridgeMessages.state(later) != first, "the minutes left changed")
        #expect(BridgeMessages.state(try Self.status(dose2: true)) != first, "Dose 2 taken")
    }

    @Test func anEventCarriesItsIDAndTypeButNotThePatientsNotes() throws {
        let e = FeedEvent(id: 42, kind: .sleepEvent, at: "2026-11-22T01:00:00.000Z", sessionID: "s1", sessionDate: "2026-11-21",
                          subject: "e1", source: "button:dose", eventType: "bathroom", notes: "could not sleep, worried")
        let m = try Self.object(BridgeMessages.event(e, boxID: "bedroom"))
        #expect(m["event_type"] as? String == "sleep_event" && m["id"] as? Int == 42 && m["type"] as? String == "bathroom")
        #expect(m["at"] as? String == "2026-11-22T01:00:00.000+00:00" && m["box_id"] as? String == "bedroom")
        #expect(m["notes"] == nil && !String(decoding: BridgeMessages.event(e, boxID: "b"), as: UTF8.self).contains("worried"))
        #expect(BridgeMessages.eventTypes.contains(m["event_type"] as? String ?? ""), "Home Assistant drops a type it was not told of")
    }

    /// The refill reminder reaches a caregiver's phone with the doses left, and its night.
    @Test func aRefillReminderCarriesTheDosesLeft() throws {
        let e = FeedEvent(id: 7, kind: .refillReminder, at: "2026-11-21T22:00:00.000Z", sessionID: "s1", sessionDate: "2026-11-21",
                          subject: "r1", source: "button:dose", doses: 0, remainingDoses: 13)
        let m = try Self.object(BridgeMessages.event(e, boxID: "bedroom"))
        #expect(m["event_type"] as? String == "refill_reminder" && m["remaining_doses"] as? Int == 13 && m["session_date"] as? String == "2026-11-21")
        #expect(BridgeMessages.eventTypes.contains("refill_reminder"))
    }

    /// #29: an alarm that could not sound reaches the caregiver as such (its own event_type,
    /// which Home Assistant's event entity lists), with the alarm and its level, never as rang.
    @Test func anAlarmThatCouldNotSoundIsItsOwnEvent() throws {
        let e = FeedEvent(id: 9, kind: .alarmSilent, at: "2026-11-22T00:45:00.120Z", sessionID: "s1", sessionDate: "2026-11-21",
                          subject: "d1", eventType: "main_alarm", level: "critical")
        let m = try Self.object(BridgeMessages.event(e, boxID: "bedroom"))
        #expect(m["event_type"] as? String == "alarm_silent" && m["type"] as? String == "main_alarm" && m["level"] as? String == "critical")
        #expect(BridgeMessages.eventTypes.contains("alarm_silent"))
    }

    /// debian/changelog names the version the packages carry; what the bridge tells Home Assistant must be it.
    @Test func theVersionIsDebianChangelogs() throws {
        let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../debian/changelog")
        let first = try String(contentsOf: changelog, encoding: .utf8).split(separator: "\n").first ?? ""
        let version = try #require(first.firstMatch(of: /\(([0-9.]+)-[^)]+\)/)?.1)
        #expect(String(version) == BoxVersion.current)
    }
}
