import Foundation
import Testing
@testable import DoseCore

/// Explores every sequence of button gestures and time steps up to depth 8 from each
/// phase (breadth first, merging identical states) and checks the safety invariants after
/// every step.
@Suite struct ModelSafetyTests {
    enum Step: Hashable, CustomStringConvertible {
        case gesture(Gesture)
        case wait(Duration)
        var description: String {
            switch self {
            case .gesture(let g): "\(g)"
            case .wait(let d): "+\(d.seconds)s"
            }
        }
    }

    static let alphabet: [Step] = [
        .gesture(.single), .gesture(.double), .gesture(.hold), .gesture(.confirmHold), .gesture(.releasedAfterHold),
        .wait(.seconds(1)), .wait(.seconds(20)), .wait(.minutes(10)), .wait(.minutes(45)),
    ]

    struct Node: Hashable {
        var state: BoxState
        var now: Moment
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
        }
        let ids = (0..<3).map { "id-\(now.monoNanos)-\($0)" }
        let t = DoseReducer.reduce(node.state, action, Context(now: now, source: source, ids: ids))
        return (Node(state: t.state, now: now), t)
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
        case .finalizing: h.takeDose1(); h.at(minutesAfterDose1: 120); h.cli(.logSleepEvent(.wakeFinal, notes: nil))
        }
        #expect(h.phase == phase)
        return Node(state: h.state, now: h.now)
    }

    @Test(arguments: Phase.allCases)
    func noButtonSequenceBreaksTheSafetyRules(from phase: Phase) {
        var frontier: [Node] = [Self.start(phase)]
        var seen: Set<Node> = Set(frontier)
        var transitions = 0
        for _ in 0..<8 {
            var next: [Node] = []
            for node in frontier {
                for step in Self.alphabet {
                    let (after, t) = Self.apply(step, to: node)
                    transitions += 1
                    Self.checkInvariants(step: step, before: node, after: after, transition: t)
                    if seen.insert(after).inserted { next.append(after) }
                }
            }
            frontier = next
        }
        print("model[\(phase)]: \(transitions) transitions, \(seen.count) states")
        #expect(transitions > 1000, "the exploration must actually explore (\(transitions) transitions)")
    }

    static func checkInvariants(step: Step, before: Node, after: Node, transition t: Transition) {
        let doses = t.records.compactMap { if case .dose(let d) = $0 { d } else { nil } }
        // No button sequence ever records an extra dose.
        #expect(!doses.contains { $0.type == .extraDose }, "extra dose from a button after \(step)")
        // No early or late dose without a confirm hold.
        for d in doses where d.type == .dose2 && (d.metadata.isEarly == true || d.metadata.isLate == true) {
            #expect(step == .gesture(.confirmHold), "early/late dose2 recorded by \(step)")
            #expect(before.state.pending != nil, "early/late dose2 without a pending confirmation")
        }
        // A night never holds two dose2 events, nor two Dose 1s.
        let live = after.state.night.liveDoseEvents
        #expect(live.filter { $0.type == .dose2 }.count <= 1)
        #expect(live.filter { $0.type == .dose1 }.count <= 1)
        // Every plan holds the 240-min expiry until Dose 2 is taken or skipped.
        let night = after.state.night
        if night.isOpen, night.dose1 != nil, !night.isDose2Resolved {
            #expect(after.state.plan.holdsExpiry)
        }
        // Acknowledgement only after commit: persist is first whenever anything is written.
        if !t.records.isEmpty {
            if case .persist = t.effects.first {} else { Issue.record("persist is not the first effect") }
        }
        // The durable night is exactly the fold of what was persisted.
        if !t.records.isEmpty {
            var folded = before.state.night
            for r in t.records { folded.apply(r) }
            #expect(folded == night)
        } else {
            #expect(before.state.night == night)
        }
    }
}
