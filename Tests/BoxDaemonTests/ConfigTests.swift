import BoxDaemon
import DoseCore
import Foundation
import Testing

@Suite struct ConfigTests {
    static let good = """
    [box]
    time_zone = "America/New_York"
    target_minutes = 180
    undo_seconds = 7
    ring_seconds = 60

    [gpio]
    chip = "pinctrl-rp1"

    [buttons.dose]
    line = 17
    single = "take"
    double = "snooze"
    hold = "undo_or_status"

    [buttons.events]
    line = 27
    single = "bathroom"
    double = "water"
    hold = "wake_final"

    [led]
    line = 22

    [audio]
    device = "plughw:CARD=Device,DEV=0"
    volume = 0.5
    """

    @Test func theEmbeddedDefaultHasOneDoseButton() throws {
        let c = try BoxConfig.load(path: nil)
        #expect(c.buttons.map(\.name) == ["dose"])
        #expect(c.buttons[0].map == .doseButton)
        #expect(c.settings().targetMinutes == 165)
        #expect(c.sources["box.target_minutes"] == "default")
    }

    @Test func aFullConfigWithASecondButton() throws {
        let c = try BoxConfig.parse(Self.good, path: "/etc/boxd/boxd.toml")
        #expect(c.timeZone.identifier == "America/New_York")
        #expect(c.settings().targetMinutes == 180)
        #expect(c.settings().undoWindow == .seconds(7))
        #expect(c.buttons.first { $0.name == "events" }?.map == GestureMap(single: .log(.bathroom), double: .log(.water), hold: .log(.wakeFinal)))
        #expect(c.led == .single(line: 22))
        #expect(c.sources["box.target_minutes"] == "/etc/boxd/boxd.toml")
        #expect(c.sources["led.active_low"] == "default")
    }

    @Test(arguments: [
        ("[box]\ntime_zone = \"Mars/Base\"", "box.time_zone: \"Mars/Base\" is not an IANA time zone name (for example America/New_York)"),
        ("[box]\ntarget_minutes = 200", "box.target_minutes: 200 is not one of 165, 180, 195, 210, 225"),
        ("[box]\nundo_seconds = 4", "box.undo_seconds: 4.0 is not one of 3, 5, 7, 10"),
        ("[box]\ntarget_minutes = \"165\"", "box.target_minutes: must be an integer"),
        ("[box]\ntarget_minute = 165", "box.target_minute: unknown key (expected one of ring_seconds, target_minutes, time_zone, undo_seconds)"),
        ("[buttons.dose]\nline = -1", "buttons.dose.line: -1 is not a line number"),
        ("[buttons.dose]\nsingle = \"take\"", "buttons.dose.line: is required"),
        ("[buttons.dose]\nline = 17\nsingle = \"jump\"", "buttons.dose.single: \"jump\" is not take, snooze, undo_or_status, nothing or a sleep event (bathroom, water, snack, in_bed, lights_out, wake_final, wake_temp, anxiety, dream, heart_racing, noise, temperature, pain, nap_start, nap_end)"),
        ("[buttons.events]\nline = 27\nsingle = \"bathroom\"", "buttons: no button takes doses: one button needs single = \"take\""),
        ("[buttons.dose]\nline = 17\n[led]\nred = 1\ngreen = 2", "led.blue: is required for an RGB LED (or give led.line for a single LED)"),
        ("[buttons.dose]\nline = 17\n[audio]\nvolume = 1.5", "audio.volume: 1.5 must be between 0.0 and 1.0"),
        ("[buttons.dose\nline = 17", "TOML syntax error"),
        ("[buttons.dose]\nline = 17\n[led]\nline = 17", "led.line: line 17 is already used by buttons.dose.line"),
    ])
    func badConfigsNameTheKey(toml: String, message: String) {
        do {
            _ = try BoxConfig.parse(toml, path: "boxd.toml")
            Issue.record("accepted: \(toml)")
        } catch {
            #expect(error.description.contains(message), "got: \(error.description)")
        }
    }

    @Test func aMissingFileIsAClearError() {
        #expect(throws: ConfigError.self) { try BoxConfig.load(path: "/nonexistent/boxd.toml") }
    }

    @Test func theExampleConfigsInHardwareParse() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("hardware")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.filter { $0.hasSuffix(".toml") } ?? []
        #expect(files.count >= 2, "hardware/ should hold example configs for the Pi 4 and the Pi 5")
        for f in files {
            let c = try BoxConfig.load(path: dir.appendingPathComponent(f).path)
            #expect(c.buttons.contains { $0.map.isDoseButton }, "\(f)")
        }
    }
}
