import Foundation
import Testing
import TestSupport

/// #33, the way a user meets it: an evening of drinks on the real boxd, by `boxctl drink` and
/// by a second button bound to drinks, gives Take Care's pacing messages aloud, on the LED and
/// in the event feed in order; then the Dose 1 press asks first, and the confirm hold records
/// Dose 1 with the drinks noted on it. A drink taken back leaves Dose 1 as it always was.
@Suite struct EveningBeforeTests {
    static let config = """
        [box]
        time_zone = "America/New_York"
        [buttons.dose]
        line = 17
        [buttons.drinks]
        line = 27
        single = "drink:beer"
        double = "drink:water"
        hold = "undo_drink"
        """

    static func rig() throws -> BoxRig {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("evening-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("boxd.toml")
        try config.write(to: path, atomically: true, encoding: .utf8)
        return try BoxRig(start: "2026-11-21T19:00:00-05:00", args: ["--config", path.path])
    }

    @Test func anEveningOfDrinksThenDose1AsksFirst() throws {
        let rig = try Self.rig()
        defer { rig.cleanup() }
        try rig.launch()
        var s = Scenario("""
            boxctl drink add wine
            expect exit 0
            expect output "Logged wine (1 unit) at 19:00; 1 drink tonight."
            expect led magenta pace_good
            at 19:10 press drinks
            advance 1s
            expect sound success
            expect said Two drinks close together. Slow down a little.
            expect led magenta pace_caution
            at 19:20 boxctl drink add shot
            expect said You're pacing fast. Take a 20 min break.
            expect led magenta pace_slow_down
            at 19:26 boxctl drink add shot
            expect said That is a lot in a short time.
            at 19:29 double drinks
            advance 1s
            expect said Water logged.
            at 19:47 expect said Nice reset.
            expect status evening.drinks 4
            at 22:00 press dose
            advance 1s
            expect sound warning
            expect said You logged 4 drinks today. XYWAV must not be taken with alcohol.
            expect led amber confirm_alcohol
            expect phase noDose1
            press dose hold 2100
            expect sound success
            expect phase beforeWindow
            expect led blue slow_pulse
            expect status evening null
            """, rig: rig)
        try s.run()

        // The feed, replayed from the start: every drink, then what it made the engine say, in order.
        let watch = try WatchTests.Watcher(rig, ["--after", "0"])
        defer { _ = watch.stop() }
        #expect(watch.line() == "watching boxd's night log after event #0 (Ctrl-C stops)")
        let me = "boxctl:uid=\(getuid())"
        #expect(watch.lines(14).map(WatchTests.what) == [
            "drink: wine (1 unit)  by \(me)",
            "drink: beer (1 unit)  by button:drinks",
            "pace: Two drinks close together. Slow down a little.",
            "pace: Water check.",
            "drink: shot (1 unit)  by \(me)",
            "pace: You're pacing fast. Take a 20 min break.",
            "drink: shot (1 unit)  by \(me)",
            "pace: Two drinks close together. Slow down a little.",
            "pace: That is a lot in a short time. Take a longer break, and have some water.",
            "pace: Take a break.",
            "drink: water (0 units)  by button:drinks",
            "pace: Nice reset.",
            "night 2026-11-21 started (target 165 min)",
            "Dose 1  by button:dose",
        ])

        // Dose 1 carries the drinks it was confirmed over.
        let out = rig.dir.appendingPathComponent("export")
        #expect(try rig.boxctl(["export", "--out", out.path]).exit == 0)
        let events = try String(contentsOf: out.appendingPathComponent("events.csv"), encoding: .utf8)
        let dose1 = events.split(separator: "\n").first { $0.contains(",dose1,") } ?? ""
        #expect(dose1.contains("\"\"alcohol_drinks\"\":4"), "\(events)")
    }

    @Test func aDrinkTakenBackLeavesDose1AsAlways() throws {
        let rig = try Self.rig()
        defer { rig.cleanup() }
        try rig.launch()
        var s = Scenario("""
            at 19:30 press drinks
            advance 1s
            expect said Beer logged. 1 drink tonight.
            press drinks hold 1200
            expect said Undone: the beer.
            boxctl drink undo
            expect exit 3
            expect output There is no drink this evening to undo.
            at 22:00 press dose
            advance 1s
            expect sound success
            expect said Dose 1 taken at 10:00 PM.
            expect phase beforeWindow
            """, rig: rig)
        try s.run()
    }

    /// The pre-sleep log through boxctl: saved, its drink asks at Dose 1, closed after it, exported.
    @Test func thePreSleepLogCountsAndIsExported() throws {
        let rig = try Self.rig()
        defer { rig.cleanup() }
        try rig.launch()
        var s = Scenario("""
            at 20:00 boxctl presleep --caffeine-cups 2 --caffeine-cutoff 15:30 --alcohol-drinks 1 --stress 5
            expect output Pre-sleep log saved for the night of 2026-11-21.
            boxctl presleep --exercise light --exercise-minutes 30
            expect output Pre-sleep log updated
            boxctl presleep
            expect output "Night 2026-11-21 (at 20:00): caffeine 2 cups, last 15:30; alcohol 1 drink; exercise light 30 min; stress 5/10."
            at 22:00 boxctl take
            expect exit 3
            expect output You logged 1 alcoholic drink today.
            boxctl take --confirm
            expect exit 0
            boxctl presleep --stress 2
            expect exit 3
            expect output its pre-sleep log can no longer change
            """, rig: rig)
        try s.run()
        let out = rig.dir.appendingPathComponent("export")
        #expect(try rig.boxctl(["export", "--out", out.path]).exit == 0)
        let csv = try String(contentsOf: out.appendingPathComponent("pre_sleep_logs.csv"), encoding: .utf8).components(separatedBy: "\r\n")
        #expect(csv.count == 3 && csv[1].contains(",2026-11-21,2026-11-22T01:00:00.000Z,2,2026-11-21T20:30:00.000Z,1,light,30,5,,"), "\(csv)")
    }
}
