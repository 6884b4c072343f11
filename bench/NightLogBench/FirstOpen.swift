import Foundation
import NightLog

/// A new box's first start makes its log: the directory is empty, so the file is created and
/// every migration runs. This is what a first boot waits for before READY=1 (#34).
func firstOpenFigure(runs: Int = 21) throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("NightLogBench-new-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    var n = 0
    var logs: [NightLog] = []  // closed at the end, so a close's checkpoint is not timed
    let m = try measure(runs: runs) {
        n += 1
        logs.append(try NightLog.open(stateDirectory: root.appendingPathComponent("\(n)")))
    }
    print("")
    print(String(format: "open a new log (create, migrate, witness; %d runs): median %.2f ms, min %.2f, max %.2f",
                 runs, m.median, m.min, m.max))
}
