import BoxALSA
import BoxControl
import BoxHardware
import DoseCore
import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// `boxd --demo`: the whole box in a terminal. Space is the dose button (d: double press,
/// h: hold, q: quit), the LED is drawn in the terminal, sound goes to ALSA when a card
/// exists or else to a WAV file, and a night passes `speed` times faster (real time while a
/// confirmation waits). In a terminal nothing happens until a key is pressed; without one
/// it takes Dose 1, sleeps through the night and prints what happened. A state directory
/// it made itself is removed on exit.
public enum Demo {
    public static func run(options base: DaemonOptions, speed: Double) async throws {
        var options = base
        let interactive = isatty(0) == 1
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("boxd-demo-\(getpid())")
        let ownDirectory = base.stateDirectory.path == BoxPaths.defaultStateDirectory
        if ownDirectory { options.stateDirectory = dir }
        defer { if ownDirectory { try? FileManager.default.removeItem(at: dir) } }
        if base.socketPath == BoxPaths.defaultSocket { options.socketPath = options.stateDirectory.appendingPathComponent(BoxPaths.socketName).path }
        options.hardware = .sim
        options.clock = .fast(speed: speed)
        if options.audio == .config {
            options.audio = ALSAPlayer.probe(device: "default") == nil ? .alsa("default") : .wav
        }
        var logger = Logger(label: "boxd-demo")
        logger.logLevel = .warning

        let daemon = try Daemon(options: options, logger: logger)
        let engine = daemon.engine
        let start = Date()
        let tz = await engine.state.settings.timeZone
        let audioWhere: String = switch options.audio {
        case .alsa(let d): "ALSA device \(d)"
        default: options.stateDirectory.appendingPathComponent("sounds.wav").path
        }
        print("DoseTap Box demo: a night at \(Int(speed))× speed. Sound: \(audioWhere). Socket: \(options.socketPath)")
        print(interactive ? "Keys: space = the dose button (Dose 1 first), d = double press, h = hold, q = quit."
                          : "No terminal: Dose 1 now, then the box is left alone all night.")
        await engine.setObserver { moment, event in
            let c = SessionRules.calendar(tz).dateComponents([.hour, .minute, .second], from: moment.wall)
            let clock = String(format: "%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
            let real = String(format: "%5.1fs", Date().timeIntervalSince(start))
            print("[\(real) | \(clock)] \(line(event))")
        }
        try daemon.server.start()
        await engine.start()

        // The keys press the simulated dose button: edges into the same source and input loop as GPIO's.
        let press: @Sendable (Int, Bool) async -> Void = { holdMs, double in
            let edges = double ? [(0, true), (holdMs, false), (holdMs + 130, true), (holdMs + 250, false)] : [(0, true), (holdMs, false)]
            var last = 0
            for (ms, down) in edges {
                try? await QuietRuntime.sleep(for: .milliseconds(ms - last))
                last = ms
                _ = await engine.inject(button: "dose", pressed: down)
            }
        }
        if interactive {
            let saved = rawMode()
            defer { restore(saved) }
            while let key = await readKey() {
                switch key {
                case UInt8(ascii: " "): await press(120, false)
                case UInt8(ascii: "d"): await press(120, true)
                case UInt8(ascii: "h"): await press(1300, false)
                case UInt8(ascii: "q"), 3, 4: await stop(daemon); return
                default: break
                }
            }
        } else {
            await press(120, false) // Dose 1, so there is a night to watch
            // Until the window has closed and its last alarm has rung.
            while true {
                try await QuietRuntime.sleep(for: .milliseconds(200))
                let s = await engine.state
                let now = engine.clock.now()
                if s.phase(at: now) == .closed, s.ringing == nil { break }
                if !s.night.isOpen || s.night.isDose2Resolved { break }
            }
            let s = await engine.status()
            print("Night over: phase \(s.phase)." + (ownDirectory ? "" : " The log is in \(options.stateDirectory.path)."))
        }
        await stop(daemon)
    }

    static func stop(_ daemon: Daemon) async {
        await daemon.stop()
    }

    /// One line of the transcript; an LED line starts with a coloured dot (ANSI) when stdout is a terminal.
    static func line(_ event: Engine.Event) -> String {
        switch event {
        case .sound(let s): return "sound \(s)"
        case .phase(let p): return "phase \(p.rawValue)"
        case .led(let p):
            let text = p == .off ? "LED off" : "LED \(p.color.rawValue) \(p.name)"
            guard isatty(1) == 1 else { return text }
            let codes: [LEDColor: String] = [.off: "90", .white: "97", .blue: "94", .green: "92", .yellow: "93", .amber: "33", .red: "91"]
            return "\u{1B}[\(codes[p.color] ?? "0")m●\u{1B}[0m " + text
        }
    }

    static func rawMode() -> termios {
        var saved = termios()
        tcgetattr(0, &saved)
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(0, TCSANOW, &raw)
        return saved
    }

    static func restore(_ saved: termios) {
        var t = saved
        tcsetattr(0, TCSANOW, &t)
    }

    /// One key from stdin, off the concurrency pool (a blocking read).
    static func readKey() async -> UInt8? {
        await withCheckedContinuation { cont in
            Thread.detachNewThread {
                var byte: UInt8 = 0
                cont.resume(returning: read(0, &byte, 1) == 1 ? byte : nil)
            }
        }
    }
}
