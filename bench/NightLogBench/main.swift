import DoseCore
import Foundation
import NightLog

// NightLogBench: ten years of synthetic nights, then the timings that matter on the box.
//
//   NightLogBench                         run the benchmark (build with -c release)
//   NightLogBench crash-writer DIR N TAG  (hidden, used by NightLogTests) append record i,
//                                         print "committed i", repeat; the test SIGKILLs it.
//   NightLogBench generate DIR            (hidden, used by bench/run) write the same ten years
//                                         into DIR/nightlog.sqlite and exit.
//   NightLogBench dose-commit             only the figures of a dose's write (DoseCommit.swift);
//                                         LD_PRELOAD=slowsync.so (Tests/VirtualBox) for an SD card.
//   NightLogBench first-open              only the figure of a new log's making (FirstOpen.swift).

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "crash-writer" {
    exit(crashWriter(Array(arguments.dropFirst(2))))
}
if arguments.count >= 2, arguments[1] == "generate" {
    exit(generateOnly(Array(arguments.dropFirst(2))))
}
if arguments.count >= 2, arguments[1] == "dose-commit" {
    do { try doseCommitFigures() } catch { print("benchmark failed: \(error)"); exit(1) }
    exit(0)
}
if arguments.count >= 2, arguments[1] == "first-open" {
    do { try firstOpenFigure() } catch { print("benchmark failed: \(error)"); exit(1) }
    exit(0)
}
exit(benchmark())

// MARK: - Crash writer

func crashWriter(_ args: [String]) -> Int32 {
    guard args.count == 3, let n = Int(args[1]) else {
        FileHandle.standardError.write(Data("usage: NightLogBench crash-writer DIR N TAG\n".utf8))
        return 2
    }
    let dir = URL(fileURLWithPath: args[0])
    let tag = args[2]
    let boot = "crash-boot-\(tag)"
    let start = Moment(wall: Date(timeIntervalSince1970: 1_700_000_000), boot: boot, monoNanos: 1_000_000_000)
    do {
        let log = try NightLog.open(stateDirectory: dir)
        let sessionID = "session-\(tag)"
        for i in 0..<n {
            let at = start.advanced(by: .seconds(i))
            var records: [LogRecord] = []
            if i == 0 {
                records.append(.sessionOpened(SessionRecord(id: sessionID, date: "2023-11-14", start: at)))
            }
            // Alternate tables so both insert paths are exercised.
            if i % 2 == 0 {
                records.append(.sleepEvent(SleepEventRecord(id: "\(tag)-\(i)", sessionID: sessionID, sessionDate: "2023-11-14",
                                                            type: .bathroom, at: at, source: .button("crash"))))
            } else {
                records.append(.dose(DoseRecord(id: "\(tag)-\(i)", sessionID: sessionID, sessionDate: "2023-11-14",
                                                type: .snooze, at: at, metadata: DoseMetadata(snoozeNumber: i), source: .system)))
            }
            try log.append(records)
            // write(2) directly: nothing sits in a stdio buffer when the kill lands.
            FileHandle.standardOutput.write(Data("committed \(i)\n".utf8))
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("crash-writer: \(error)\n".utf8))
        return 1
    }
}

// MARK: - Generate

/// The benchmark's ten years, written into DIR (a state directory) for other benchmarks.
func generateOnly(_ args: [String]) -> Int32 {
    guard args.count == 1 else {
        FileHandle.standardError.write(Data("usage: NightLogBench generate DIR\n".utf8))
        return 2
    }
    let dir = URL(fileURLWithPath: args[0])
    do {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let log = try NightLog.open(stateDirectory: dir)
        guard (try log.latestSession()) == nil else {
            FileHandle.standardError.write(Data("generate: \(log.fileURL.path) already holds nights\n".utf8))
            return 1
        }
        let g0 = ContinuousClock.now
        let counts = try generate(into: log, nights: 3650)
        let events = counts.doses + counts.sleepEvents + counts.checkIns
        print("generated \(counts.sessions) sessions, \(events) events in \(String(format: "%.2f", (ContinuousClock.now - g0).seconds)) s: \(log.fileURL.path)")
        return 0
    } catch {
        FileHandle.standardError.write(Data("generate: \(error)\n".utf8))
        return 1
    }
}

// MARK: - Benchmark

/// SplitMix64: a fixed seed gives the same ten years on every run.
struct Rand {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < p }
}

struct Counts { var sessions = 0, doses = 0, sleepEvents = 0, checkIns = 0, undone = 0 }

/// Ten years of nights: dose1, dose2 (some early, late, skipped; snoozes; a few extra doses
/// and undos), ~12 sleep events a night (some notes with commas, quotes and newlines),
/// check-ins on ~82% of mornings, a reboot every ~40 nights.
func generate(into log: NightLog, nights: Int) throws -> Counts {
    var rng = Rand(state: 42)
    var counts = Counts()
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let day0 = Date(timeIntervalSince1970: 1_451_606_400) // 2016-01-01T00:00:00Z
    let sleepTypes: [SleepEventType] = [.bathroom, .water, .snack, .inBed, .lightsOut, .wakeTemp, .anxiety, .dream,
                                        .heartRacing, .noise, .temperature, .pain, .wakeFinal]
    let notes = ["woke up, thirsty", "dog barked \"twice\"", "hot room\nopened window", "ok", "light from the street"]
    var boot = "boot-0"
    var mono: Int64 = 10_000_000_000
    var batch: [LogRecord] = []
    batch.reserveCapacity(2000)

    for n in 0..<nights {
        let dayStart = day0.addingTimeInterval(Double(n) * 86_400)
        let c = calendar.dateComponents([.year, .month, .day], from: dayStart)
        let date = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        if rng.chance(1.0 / 40) { boot = "boot-\(n)"; mono = Int64(rng.int(5...60)) * 1_000_000_000 }
        // The shell's clocks move together; `advance` keeps wall and mono in step.
        var wall = dayStart.addingTimeInterval(Double(21 * 3600 + rng.int(0...3600)))
        func advance(_ seconds: Int) { wall = wall.addingTimeInterval(Double(seconds)); mono += Int64(seconds) * 1_000_000_000 }
        func now() -> Moment { Moment(wall: wall, boot: boot, monoNanos: mono) }
        let sid = "S\(n)"
        var seq = 0
        func id(_ kind: String) -> String { seq += 1; return "\(kind)-\(n)-\(seq)" }

        batch.append(.sessionOpened(SessionRecord(id: sid, date: date, start: now())))
        counts.sessions += 1
        // Sleep events are spread over the night around the doses.
        var sleepLeft = rng.int(11...15)
        func sleepEvents(_ k: Int) {
            for _ in 0..<min(k, sleepLeft) {
                advance(rng.int(60...1200))
                let note = rng.chance(0.1) ? notes[rng.int(0...(notes.count - 1))] : nil
                batch.append(.sleepEvent(SleepEventRecord(id: id("se"), sessionID: sid, sessionDate: date,
                                                          type: sleepTypes[rng.int(0...(sleepTypes.count - 1))],
                                                          at: now(), notes: note, source: .button("main"))))
                sleepLeft -= 1
                counts.sleepEvents += 1
            }
        }
        sleepEvents(2)
        advance(rng.int(300...1800))
        let dose1At = now()
        batch.append(.dose(DoseRecord(id: id("d1"), sessionID: sid, sessionDate: date, type: .dose1, at: dose1At, source: .button("main"))))
        counts.doses += 1
        sleepEvents(5)
        // Back to dose1 + an interval; the sleep events above fall inside it.
        let roll = rng.int(0...99)
        let terminal: TerminalState
        if roll < 7 {
            wall = dose1At.wall.addingTimeInterval(Double(rng.int(200...239) * 60)); mono = dose1At.monoNanos + Int64(wall.timeIntervalSince(dose1At.wall) * 1e9)
            batch.append(.dose(DoseRecord(id: id("sk"), sessionID: sid, sessionDate: date, type: .dose2Skipped, at: now(),
                                          metadata: DoseMetadata(reason: SkipReason.allCases[rng.int(0...2)].rawValue), source: .button("main"))))
            counts.doses += 1
            terminal = .skipped
        } else {
            let snoozes = rng.chance(0.3) ? rng.int(1...3) : 0
            var minutes = roll < 10 ? rng.int(135...149) : roll < 12 ? rng.int(241...260) : rng.int(150...200)
            if snoozes > 0 { minutes = max(minutes, 165) }
            for s in 0..<snoozes {
                wall = dose1At.wall.addingTimeInterval(Double((160 + s * 10) * 60)); mono = dose1At.monoNanos + Int64((160 + s * 10) * 60) * 1_000_000_000
                batch.append(.dose(DoseRecord(id: id("sn"), sessionID: sid, sessionDate: date, type: .snooze, at: now(),
                                              metadata: DoseMetadata(snoozeNumber: s + 1), source: .button("main"))))
                counts.doses += 1
                minutes = max(minutes, 165 + (s + 1) * 10)
            }
            wall = dose1At.wall.addingTimeInterval(Double(minutes * 60) + Double(rng.int(0...59)))
            mono = dose1At.monoNanos + Int64(wall.timeIntervalSince(dose1At.wall) * 1e9)
            if rng.chance(0.03) { boot = "boot-\(n)-r"; mono = 30_000_000_000 } // rebooted between the doses
            let meta = DoseMetadata(isEarly: minutes < 150 ? true : nil, isLate: minutes > 240 ? true : nil)
            if rng.chance(0.02) {
                // Pressed, undone within the undo window, pressed again.
                let wrong = id("d2x")
                batch.append(.dose(DoseRecord(id: wrong, sessionID: sid, sessionDate: date, type: .dose2, at: now(), metadata: meta, source: .button("main"))))
                advance(3)
                batch.append(.undone(UndoRecord(eventID: wrong, at: now(), source: .button("main"))))
                advance(20)
                counts.doses += 1; counts.undone += 1
            }
            batch.append(.dose(DoseRecord(id: id("d2"), sessionID: sid, sessionDate: date, type: .dose2, at: now(), metadata: meta, source: .button("main"))))
            counts.doses += 1
            if rng.chance(0.01) {
                advance(600)
                batch.append(.dose(DoseRecord(id: id("x"), sessionID: sid, sessionDate: date, type: .extraDose, at: now(),
                                              metadata: DoseMetadata(isExtraDose: true), source: .cli(uid: 1000))))
                counts.doses += 1
            }
            terminal = .completed
        }
        sleepEvents(sleepLeft)
        advance(rng.int(3600...7200))
        let checkedIn = rng.chance(0.82)
        if checkedIn {
            let answers = CheckInAnswers(sleepQuality: rng.int(1...5), feelRested: .allCases[rng.int(0...4)], grogginess: .allCases[rng.int(0...4)],
                                         mentalClarity: rng.int(1...10), mood: .allCases[rng.int(0...4)],
                                         notes: rng.chance(0.2) ? notes[rng.int(0...(notes.count - 1))] : nil)
            batch.append(.checkIn(CheckInRecord(id: id("ci"), sessionID: sid, sessionDate: date, at: now(), answers: answers, source: .button("main"))))
            counts.checkIns += 1
        }
        batch.append(.sessionClosed(SessionCloseRecord(sessionID: sid, at: now(), terminalState: terminal,
                                                       reason: checkedIn ? .checkIn : .missedCheckInCutoff)))
        // Setup, not measured: large transactions.
        if batch.count >= 2000 || n == nights - 1 {
            try log.append(batch)
            batch.removeAll(keepingCapacity: true)
        }
    }
    return counts
}

func measure(runs: Int = 7, _ body: () throws -> Void) rethrows -> (median: Double, min: Double, max: Double) {
    try body() // warm-up
    var ms: [Double] = []
    for _ in 0..<runs {
        let t0 = ContinuousClock.now
        try body()
        let d = ContinuousClock.now - t0
        ms.append(d.seconds * 1000)
    }
    ms.sort()
    return (ms[ms.count / 2], ms[0], ms[ms.count - 1])
}

func benchmark() -> Int32 {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("NightLogBench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    do {
        let g0 = ContinuousClock.now
        let counts = try generate(into: try NightLog.open(stateDirectory: dir), nights: 3650)
        let genSeconds = (ContinuousClock.now - g0).seconds
        let events = counts.doses + counts.sleepEvents + counts.checkIns
        print("generated \(counts.sessions) sessions, \(events) events (\(counts.doses) dose, \(counts.sleepEvents) sleep, \(counts.checkIns) check-ins, \(counts.undone) undone) in \(String(format: "%.2f", genSeconds)) s")
        // The generating log is closed now, as after a reboot. Opened logs are kept until the
        // end so that closing (and its checkpoint) is not part of the open time.
        var opened: [NightLog] = []
        let open = try measure { opened.append(try NightLog.open(stateDirectory: dir)) }
        let openReadOnly = try measure { opened.append(try NightLog.openReadOnly(stateDirectory: dir)) }
        guard let log = opened.first, opened.allSatisfy({ $0.fault == nil }) else {
            print("benchmark failed: the log reported a fault")
            return 1
        }

        let exportDir = dir.appendingPathComponent("export")
        let rebuild = try measure { _ = try log.latestSession() }
        let history = try measure { _ = try log.recentNights(limit: 30) }
        let ranged = try measure { try log.export(to: exportDir, from: "2025-01-01", to: "2025-12-31") }
        let exportMemory = try measure { _ = try log.csvTexts() }
        let export = try measure { try log.export(to: exportDir) }
        var perFile: [(ExportFile, (median: Double, min: Double, max: Double))] = []
        for file in ExportFile.allCases {
            perFile.append((file, try measure { _ = try log.csv(file) }))
        }

        let fm = FileManager.default
        func size(_ path: String) -> Int { ((try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0 }
        let dbBytes = size(log.fileURL.path)
        let walBytes = size(log.fileURL.path + "-wal")
        let exportBytes = ExportFile.allCases.map { size(exportDir.appendingPathComponent($0.fileName).path) }.reduce(0, +)

        func row(_ name: String, _ m: (median: Double, min: Double, max: Double)) {
            print(name.padding(toLength: 44, withPad: " ", startingAt: 0)
                  + String(format: "%9.2f %9.2f %9.2f", m.median, m.min, m.max))
        }
        print("")
        print("operation (7 runs after a warm-up)".padding(toLength: 44, withPad: " ", startingAt: 0) + "   median       min       max  (ms)")
        row("open (incl. quick_check, migrations)", open)
        row("openReadOnly (boxctl, incl. quick_check)", openReadOnly)
        row("latestSession (rebuild tonight)", rebuild)
        row("recentNights(limit: 30)", history)
        row("export all five CSVs to disk", export)
        row("  same, CSV text in memory only", exportMemory)
        for (file, m) in perFile { row("    \(file.fileName) alone, in memory", m) }
        row("  export one year to disk (from/to)", ranged)
        print("")
        print("file size: \(dbBytes) bytes (\(String(format: "%.1f", Double(dbBytes) / 1_048_576)) MiB) + wal \(walBytes) bytes; export \(exportBytes) bytes")
        print(String(format: "export / 500 ms goal: %.2f (%@)", export.median / 500, export.median <= 500 ? "met" : "MISSED"))
        try firstOpenFigure()
        try doseCommitFigures()
        return 0
    } catch {
        print("benchmark failed: \(error)")
        return 1
    }
}
