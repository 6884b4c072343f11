import DoseCore
import Foundation
import GRDB
import NightLog

// #29: what a dose's write costs since the log has a witness and is checkpointed after each
// dose, against a baseline in the same run: a bare commit of one row into a SQLite file in
// the same directory, WAL and synchronous = FULL, as every append was before.
func doseCommitFigures(runs: Int = 51) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("NightLogBench-dose-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    let log = try NightLog.open(stateDirectory: dir)
    let t0 = Moment(wall: Date(timeIntervalSince1970: 1_800_000_000), boot: "bench", monoNanos: 1_000_000_000)
    var n = 0
    func next() -> (String, Moment) {
        n += 1
        return ("b\(n)", t0.advanced(by: .seconds(n)))
    }
    let session = SessionRecord(id: "bench-session", date: "2027-01-14", start: t0)
    try log.append([.sessionOpened(session)])
    func sleepEvent() throws {
        let (id, at) = next()
        try log.append([.sleepEvent(SleepEventRecord(id: id, sessionID: session.id, sessionDate: session.date, type: .bathroom,
                                                     at: at, source: .button("main")))])
    }
    func dose() throws {
        let (id, at) = next()
        try log.append([.dose(DoseRecord(id: id, sessionID: session.id, sessionDate: session.date, type: .extraDose, at: at,
                                         source: .button("main")))])
    }
    var config = Configuration()
    config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
    let bare = try DatabasePool(path: dir.appendingPathComponent("baseline.sqlite").path, configuration: config)
    try bare.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = FULL")
        try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
    }
    let baseline = try measure(runs: runs) { try bare.write { db in try db.execute(sql: "INSERT INTO t (v) VALUES ('dose')") } }
    let sleep = try measure(runs: runs) { try sleepEvent() }
    let witness = try measure(runs: runs) { try log.writeWitness() }
    let beforeAck = try measure(runs: runs) { try dose() }
    let whole = try measure(runs: runs) {
        try dose()
        if let warning = log.checkpoint() { print("  (\(warning))") }
    }
    let commit = baseline.median
    func row(_ name: String, _ m: Double) {
        print(name.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%8.2f ms  %6.2fx", m, m / commit))
    }
    print("")
    print("a dose's write (\(runs) runs, medians; x = against the bare commit)")
    row("baseline: a bare commit (WAL, synchronous FULL)", commit)
    row("sleep event append: commit + witness", sleep.median)
    row("witness alone (write, fsync, rename, fsync dir)", witness.median)
    row("dose append: commit + witness (before the ack)", beforeAck.median)
    row("dose append + checkpoint (after the ack)", whole.median)
}
