import Foundation
import Testing
@testable import DoseCore

/// Explores every sequence of button gestures, boxctl commands and time steps from each
/// phase (breadth first, merging identical states) and checks the safety invariants after
/// every step. Two alphabets: buttons and time to depth 8, and everything (boxctl
/// included) to depth 5, which is what keeps the run within seconds.
@Suite struct ModelSafetyTests {
    enum Step: Hashable, CustomStringConvertible {
        case gesture(Gesture)
        case wait(Duration)
        case cli(Action)
        var description: String {
            switch self {
            case .gesture(let g): "\(g)"
            case .wait(let d): "+\(d.seconds)s"
            case .cli(let a): "boxctl \(a)"
            }
        }

        /// Steps that carry a person's explicit confirmation (boxctl --confirm).
        var isConfirmedCLI: Bool {
            switch self {
            case .cli(.takeDose(confirmed: true)), .cli(.extraDose(confirmed: true)),
                 .cli(.checkIn(_, confirmed: true)), .cli(.logSleepEvent(_, _, confirmed: true)): true
            default: false
            }
        }
    }

    static let buttons: [Step] = [
        .gesture(.single), .gesture(.double), .gesture(.hold), .gesture(.confirmHold), .gesture(.releasedAfterHold),
        .wait(.seconds(1)), .wait(.seconds(20)), .wait(.minutes(10)), .wait(.minutes(45)),
    ]
    static let commands: [Step] = [
        .cli(.takeDose(confirmed: false)), .cli(.takeDose(confirmed: true)), .cli(.skipDose2(reason: nil)),
        .cli(.snooze), .cli(.undo), .cli(.extraDose(confirmed: true)),
        .cli(.checkIn(CheckInAnswers(), confirmed: false)), .cli(.checkIn(CheckInAnswers(), confirmed: true)),
        .cli(.logSleepEvent(.wakeFinal, notes: nil, confirmed: false)),
        .cli(.logSleepEvent(.wakeFinal, notes: nil, confirmed: true)),
    ]

    struct Node: Hashable {
        var state: BoxState
        var now: Moment
        /// The doses taken (not undone) in any night so far, tracked by the test itself from
        /// what was persisted; only the last few matter.
        var taken: [TakenDose] = []
        var lastDose: Moment? { taken.last?.at }
    }

    struct TakenDose: Hashable {
        var id: String
        var at: Moment
    }

    /// Ids derived from the clock, so equal histories give equal states and merge.
    static func apply(_ step: Step, to node: Node) -> (Node, Transition) {
        var now = node.now
        let action: Action
        let source: Source
        switch step {
        case .gesture(let g):
            action = .gesture(g, button: "dose")
            source = .button("dose")
        case .wait(let d):
            now = now.advanced(by: d)
            action = .tick
            source = .system
        case .cli(let a):
            action = a
            source = .cli(uid: 1000)
        }
        let ids = (0..<4).map { "id-\(now.monoNanos)-\($0)" }
        let t = DoseReducer.reduce(node.state, action, Context(now: now, source: source, ids: ids))
        var taken = node.taken
        for record in t.records {
            switch record {
            case .dose(let d) where d.type.countsAsDose: taken.append(TakenDose(id: d.id, at: d.at))
            case .undone(let u): taken.removeAll { $0.id == u.eventID }
            default: break
            }
        }
        return (Node(state: t.state, now: now, taken: Array(taken.suffix(3))), t)
    }

    /// Starting points: one per phase, reached through the reducer itself.
    static func start(_ phase: Phase) -> Node {
        var h = Harness()
        switch phase {
        case .noDose1: break
        case .beforeWindow: h.takeDose1(); h.at(minutesAfterDose1: 100)
        case .active: h.takeDose1(); h.at(minutesAfterDose1: 170)
        case .nearClose: h.takeDose1(); h.at(minutesAfterDose1: 230)
        case .closed: h.takeDose1(); h.at(minutesAfterDose1: 245)
        case .completed: h.takeDose1(); h.at(minutesAfterDose1: 170); h.press(.single); h.advance(.seconds(10))
        case .finalizing:
            h.takeDose1(); h.at(minutesAfterDose1: 170); h.press(.single); h.advance(.seconds(10))
            h.cli(.logSleepEvent(.wakeFinal, notes: nil))
        }
        #expect(h.phase == phase)
        let taken = h.state.night.liveDoseEvents.filter(\.type.countsAsDose).map { TakenDose(id: $0.id, at: $0.at) }
        return Node(state: h.state, now: h.now, taken: taken)
    }

    /// Explores from `start` and returns the number of transitions and the first violations.
    static func explore(from start: Node, alphabet: [Step], depth: Int) -> (transitions: Int, states: Int, violations: [String]) {
        var frontier: [Node] = [start]
        var seen: Set<Node> = Set(frontier)
        var transitions = 0
        var violations: [String] = []
        // Paths are kept only to report a violation by the steps that led to it.
        var paths: [Node: [Step]] = [start: []]
        for _ in 0..<depth {
            var next: [Node] = []
            for node in frontier {
                for step in alphabet {
                    let (after, t) = apply(step, to: node)
                    transitions += 1
                    for v in violationsOf(step: step, before: node, after: after, transition: t) where violations.count < 5 {
                        violations.append("\(v) after [\(((paths[node] ?? []) + [step]).map(\.description).joined(separator: ", "))]")
                    }
                    if seen.insert(after).inserted {
                        next.append(after)
                        paths[after] = (paths[node] ?? []) + [step]
                    }
                }
            }
            frontier = next
        }
        return (transitions, seen.count, violations)
    }

    @Test(arguments: Phase.allCases)
    func noButtonSequenceBreaksTheSafetyRules(from phase: Phase) {
        let r = Self.explore(from: Self.start(phase), alphabet: Self.buttons, depth: 8)
        print("model[buttons, \(phase)]: \(r.transitions) transitions, \(r.states) states")
        #expect(r.violations.isEmpty, "\(r.violations.joined(separator: "\n"))")
        #expect(r.transitions > 1000, "the exploration must actually explore (\(r.transitions) transitions)")
    }

    @Test(arguments: Phase.allCases)
    func noSequenceOfButtonsAndCommandsBreaksTheSafetyRules(from phase: Phase) {
        let r = Self.explore(from: Self.start(phase), alphabet: Self.buttons + Self.commands, depth: 5)
        print("model[all, \(phase)]: \(r.transitions) transitions, \(r.states) states")
        #expect(r.violations.isEmpty, "\(r.violations.joined(separator: "\n"))")
        #expect(r.transitions > 1000, "the exploration must actually explore (\(r.transitions) transitions)")
    }

    /// Issue 17: with tonight's record in doubt (a damaged log), no sequence records a dose
    /// without a confirmation.
    @Test(arguments: Phase.allCases)
    func aDamagedLogNeverLeadsToAnUnconfirmedDose(from phase: Phase) {
        var start = Self.start(phase)
        start.state = DoseReducer.reduce(start.state, .enterDoubt(since: start.now.wall), Context(now: start.now)).state
        let r = Self.explore(from: start, alphabet: Self.buttons + Self.commands, depth: 5)
        print("model[doubt, \(phase)]: \(r.transitions) transitions, \(r.states) states")
        #expect(r.violations.isEmpty, "\(r.violations.joined(separator: "\n"))")
    }

    static let floor = Duration.minutes(DoseConstants.box.safety.dose2ButtonFloorMin)
    static let interval = Duration.minutes(DoseConstants.box.safety.newDose1AfterLastDoseMin)

    static func violationsOf(step: Step, before: Node, after: Node, transition t: Transition) -> [String] {
        var out: [String] = []
        let doses = t.records.compactMap { if case .dose(let d) = $0 { d } else { nil } }
        let night = after.state.night
        let prior = before.state.night
        for d in doses {
            // In doubt, no dose but by a confirm hold of a doubt confirmation or --confirm.
            if before.state.doubt != nil, d.type == .dose1 || d.type == .dose2, !step.isConfirmedCLI,
               !(step == .gesture(.confirmHold) && before.state.pending != nil) {
                out.append("a dose recorded in doubt by \(step)")
            }
            // No extra dose but by a confirmed boxctl command.
            if d.type == .extraDose, !step.isConfirmedCLI { out.append("extra dose by \(step)") }
            // No early or late Dose 2 without a confirm hold (button) or --confirm (boxctl).
            if d.type == .dose2, d.metadata.isEarly == true || d.metadata.isLate == true, !step.isConfirmedCLI {
                if step != .gesture(.confirmHold) { out.append("early/late Dose 2 by \(step)") }
                if before.state.pending == nil { out.append("early/late Dose 2 without a pending confirmation") }
            }
            // Dose 2 is never recorded by a button before the floor.
            if d.type == .dose2, case .gesture = step, let d1 = prior.dose1, d.at.elapsed(since: d1.at) < floor {
                out.append("Dose 2 by a button \(d.at.elapsed(since: d1.at)) after Dose 1")
            }
            // No second Dose 1 while a night owes Dose 2, nor within the interval of the last dose.
            if d.type == .dose1, !step.isConfirmedCLI {
                if prior.isOpen, prior.dose1 != nil, !prior.isDose2Resolved { out.append("Dose 1 while Dose 2 is owed") }
                if let last = before.lastDose, d.at.elapsed(since: last) < interval {
                    out.append("Dose 1 \(d.at.elapsed(since: last)) after the last dose")
                }
            }
        }
        // A night that owes Dose 2 in a running window is never closed without a confirmation.
        for case .sessionClosed(let c) in t.records where !step.isConfirmedCLI {
            if c.terminalState == .aborted, prior.dose1 != nil { out.append("a night owing Dose 2 closed by \(step)") }
        }
        // Undo and confirm never coincide: no pending confirmation while a dose is undoable.
        if after.state.pending != nil, let last = night.lastUndoable,
           after.now.elapsed(since: last.at) < after.state.settings.undoWindow {
            out.append("a confirmation pending inside the undo window")
        }
        // A night never holds two dose2 events, nor two Dose 1s.
        if night.liveDoseEvents.filter({ $0.type == .dose2 }).count > 1 { out.append("two Dose 2") }
        if night.liveDoseEvents.filter({ $0.type == .dose1 }).count > 1 { out.append("two Dose 1") }
        // Every plan holds the 240-min expiry until Dose 2 is taken or skipped.
        if night.isOpen, night.dose1 != nil, !night.isDose2Resolved, !after.state.plan.holdsExpiry { out.append("plan without expiry") }
        // Acknowledgement only after commit: persist is first whenever anything is written.
        if !t.records.isEmpty, case .persist = t.effects.first {} else if !t.records.isEmpty { out.append("persist is not first") }
        // The durable night is exactly the fold of what was persisted.
        var folded = prior
        for r in t.records { folded.apply(r) }
        if folded != night { out.append("the night is not the fold of the records") }
        return out
    }
}
