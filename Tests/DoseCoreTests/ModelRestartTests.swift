import Foundation
import Testing
@testable import DoseCore

/// Issue 29: the safety model learns restarts. The same exploration and invariants as
/// `ModelSafetyTests`, with an alphabet that opens and closes nights the way a person does
/// after Dose 2 (check-ins, sleep events from the events button), restarts boxd (the state
/// rebuilt from the persisted records only, as boxd does at start) and forgets old nights.
/// The invariants must hold across all of them: above all, no Dose 1 by a plain press within
/// 240 minutes of the last dose taken, however many nights were opened since.
@Suite struct ModelRestartTests {
    typealias Model = ModelSafetyTests

    static let alphabet: [Model.Step] = [
        .gesture(.single, button: "dose"), .gesture(.confirmHold, button: "dose"), .gesture(.hold, button: "dose"),
        .gesture(.single, button: "events"), .gesture(.double, button: "events"),
        .cli(.checkIn(CheckInAnswers(), confirmed: false)), .cli(.takeDose(confirmed: false)),
        .wait(.minutes(10)), .wait(.minutes(45)),
        .restart, .forget,
    ]

    static let depth = 6

    @Test(arguments: [Phase.noDose1, .active, .closed, .completed, .finalizing])
    func noSequenceWithRestartsBreaksTheSafetyRules(from phase: Phase) {
        let started = ContinuousClock.now
        let r = Model.explore(from: Model.start(phase, keepLog: true), alphabet: Self.alphabet, depth: Self.depth)
        print("model[restarts, \(phase)]: depth \(Self.depth), \(r.transitions) transitions, \(r.states) states, \(ContinuousClock.now - started)")
        #expect(r.violations.isEmpty, "\(r.violations.joined(separator: "\n"))")
        #expect(r.transitions > 1000, "the exploration must actually explore (\(r.transitions) transitions)")
    }

    /// The path of defect 1, step by step, so a regression names it plainly: Dose 2, a
    /// check-in, a bathroom trip (a new night), a check-in, a glass of water (another), a
    /// restart, one press.
    @Test func defect1sPathRecordsNoDose1() {
        var node = Model.start(.completed, keepLog: true)
        let path: [Model.Step] = [.cli(.checkIn(CheckInAnswers(), confirmed: false)), .gesture(.single, button: "events"),
                                  .cli(.checkIn(CheckInAnswers(), confirmed: false)), .gesture(.double, button: "events"),
                                  .restart, .gesture(.single, button: "dose")]
        var recorded: [DoseRecord] = []
        for step in path {
            let (after, t) = Model.apply(step, to: node)
            recorded += t.records.compactMap { if case .dose(let d) = $0 { d } else { nil } }
            node = after
        }
        #expect(node.state.night.priorDose != nil, "the restarted box forgot the last dose")
        #expect(recorded.isEmpty, "a plain press after the restart recorded \(recorded.map(\.type))")
    }
}
