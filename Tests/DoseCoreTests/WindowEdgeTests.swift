import Foundation
import Testing
@testable import DoseCore

/// The window's edges, as a person pressing the button at that minute would meet them.
@Suite struct WindowEdgeTests {
    @Test(arguments: [
        (149.0, Phase.beforeWindow), (150, .active), (224, .active), (225, .nearClose),
        (239, .nearClose), (240, .closed), (241, .closed),
    ])
    func phaseAtMinute(minute: Double, expected: Phase) {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: minute)
        #expect(h.phase == expected)
        #expect(DoseWindow(rules: DoseConstants.box.window).phase(elapsed: .minutes(minute)) == expected)
    }

    @Test func oneMillisecondEitherSideOfTheOpening() {
        let w = DoseWindow(rules: DoseConstants.box.window)
        #expect(w.phase(elapsed: .minutes(150) - .milliseconds(1)) == .beforeWindow)
        #expect(w.phase(elapsed: .minutes(150)) == .active)
        #expect(w.phase(elapsed: .minutes(240) - .milliseconds(1)) == .nearClose)
    }

    /// A press at each edge: early needs a confirmation, in-window records, late needs one.
    @Test(arguments: [
        (149.0, "early"), (150, "dose2"), (224, "dose2"), (225, "dose2"), (239, "dose2"), (240, "late"), (241, "late"),
    ])
    func singlePressAtMinute(minute: Double, expected: String) {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: minute)
        let o = h.press(.single)
        switch expected {
        case "early": #expect(o == .accepted(.awaitingConfirmation(.early)))
        case "late": #expect(o == .accepted(.awaitingConfirmation(.late)))
        default: #expect(o == .accepted(.recorded(.dose2)))
        }
        #expect(h.liveDoses.filter { $0.type == .dose2 }.count == (expected == "dose2" ? 1 : 0))
    }

    /// Snooze works in the active window only: at 224 yes, at 225 (15 min left) no.
    @Test(arguments: [(149.0, false), (150, true), (224, true), (225, false), (239, false), (240, false)])
    func snoozeAtMinute(minute: Double, allowed: Bool) {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: minute)
        let o = h.press(.double)
        #expect((o == .accepted(.recorded(.snooze))) == allowed)
    }

    /// One snooze cut-off: `snooze.disabled_below_remaining_min` (SSOT 2.4.3 "Snooze disabled
    /// when <15 min remain") decides alone; moving it moves the cut-off, and the near-close
    /// phase constant does not.
    @Test func theSnoozeCutOffIsOneConstant() throws {
        #expect(DoseConstants.box.snooze.disabledBelowRemainingMin == 15)
        let json = DoseConstants.embeddedJSON.replacingOccurrences(
            of: "\"disabled_below_remaining_min\": 15", with: "\"disabled_below_remaining_min\": 30")
        #expect(json != DoseConstants.embeddedJSON)
        var settings = BoxSettings(timeZone: Harness.tz)
        settings.rules = try DoseConstants.decode(Data(json.utf8))
        for (minute, allowed) in [(209.0, true), (210.0, false), (224.0, false)] {
            var h = Harness(settings: settings)
            h.takeDose1()
            h.at(minutesAfterDose1: minute)
            #expect((h.press(.double) == .accepted(.recorded(.snooze))) == allowed, "minute \(minute)")
        }
    }

    @Test func onTimeIsWithinTenMinutesOfTheTarget() {
        let w = DoseWindow(rules: DoseConstants.box.window)
        #expect(w.isOnTime(intervalMinutes: 175, targetMinutes: 165))
        #expect(w.isOnTime(intervalMinutes: 155, targetMinutes: 165))
        #expect(!w.isOnTime(intervalMinutes: 175.5, targetMinutes: 165))
        #expect(!w.isOnTime(intervalMinutes: 154, targetMinutes: 165))
    }

    /// NTP steps the wall clock by an hour, then a day: the window does not move.
    @Test func wallClockStepsDoNotMoveTheWindow() {
        var h = Harness()
        h.takeDose1()
        h.now.wall.addTimeInterval(-3600)
        h.advance(minutes: 60)
        h.now.wall.addTimeInterval(86_400)
        h.advance(minutes: 89)
        #expect(h.phase == .beforeWindow)
        h.advance(minutes: 1)
        #expect(h.phase == .active)
        #expect(h.allSounds.contains(.alarm(.windowOpen, .gentle)))
    }

    /// After a reboot the monotonic clock restarts: elapsed time comes from the wall clock.
    @Test func acrossABootTheWallClockSpansTheGap() {
        let a = Moment(wall: Harness.start.wall, boot: "A", monoNanos: 9_000_000_000_000)
        let b = Moment(wall: Harness.start.wall.addingTimeInterval(600), boot: "B", monoNanos: 20_000_000_000)
        #expect(b.elapsed(since: a) == .seconds(600))
        let sameBoot = Moment(wall: a.wall.addingTimeInterval(-3600), boot: "A", monoNanos: a.monoNanos + 60_000_000_000)
        #expect(sameBoot.elapsed(since: a) == .seconds(60))
    }
}
