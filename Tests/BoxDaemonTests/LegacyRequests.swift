import BoxControl
import BoxDaemon
import Foundation

// EngineTests.swift (being edited on another branch) still builds its requests the old
// way: `ControlRequest("sim-press", button:, holdMs:)`. This shim turns such a request
// into the typed wire frame and decodes it like the server does, so those tests exercise
// the real decoder and router. Delete it once EngineTests sends `Command`s.

typealias ControlResponse = Reply

struct ControlRequest: Sendable {
    let frame: [UInt8]

    /// The old command names, and where they live now.
    static let renamed = ["test-led": "test.led", "test-sound": "test.sound", "inject": "bench.inject", "metrics": "bench.metrics",
                          "sim-clock-step": "sim.clock_step"]

    init(_ cmd: String, confirm: Bool? = nil, reason: String? = nil, event: String? = nil, note: String? = nil,
         minutes: Int? = nil, button: String? = nil, holdMs: Int? = nil, edges: String? = nil, ms: Int64? = nil,
         clear: Bool? = nil, name: String? = nil) {
        var fields: [String: Any] = ["v": ControlProtocol.version]
        fields["cmd"] = Self.renamed[cmd] ?? (cmd.hasPrefix("sim-") ? "sim." + cmd.dropFirst(4) : cmd)
        let optional: [String: Any?] = ["confirm": confirm, "reason": reason, "event": event, "note": note, "minutes": minutes,
                                        "button": button, "hold_ms": holdMs, "edges": edges, "ms": ms, "clear": clear, "name": name]
        for case let (key, value?) in optional { fields[key] = value }
        frame = Array((try? JSONSerialization.data(withJSONObject: fields)) ?? Data())
    }
}

extension Engine {
    func handle(_ request: ControlRequest, uid: UInt32) async -> Reply {
        switch ControlProtocol.decodeCommand(request.frame) {
        case .success(let command): await handle(command, uid: uid)
        case .failure(let problem): .usage(problem.message)
        }
    }
}
