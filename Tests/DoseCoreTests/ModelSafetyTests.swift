import Foundation
import Testing
@testable import DoseCore

/// Explores every sequence of button gestures, boxctl commands and time steps from each
/// phase (breadth first, merging identical states) and checks the safety invariants after
/// every step. Two alphabets: buttons (the dose button and an events button, every gesture
/// the recogniser emits) and time to depth 8, and everything (boxctl included) to depth 5,
/// which is what keeps the run within seconds.
///
/// The invariants are judged by the test's own reading of what was persisted (`Ledger`),
/// never by `Night.apply`, which the reducer itself uses; and the dose window by the minutes
/// since Dose 1 against constants.json, never by the flags the reducer set.
@Suite struct ModelSafetyTests {
    enum Step: Hashable, CustomStringConvertible {
        case gesture(Gesture, button: String)
        case wait(Duration)
        case cli(Action)
        /// boxd killed and started again: the state rebuilt from the persisted records only
        /// (`PersistedNight`, exactly what boxd reads at start), then its first tick.
        case restart
        /// `boxctl forget --confirm` of every night `Forgetting` lets go.
        case forget
        /// An alcoholic drink logged now (#33): the shell tells the core every drink's time.
        case drink
        var description: String {
            switch self {
            case .gesture(let g, let b): b == "dose" ? "\(g)" : "\(b):\(g)"
            case .wait(let d): "+\(d.seconds)s"
            case .cli(let a): "boxctl \(a)"
            case .restart: "RESTART"
            case .forget: "boxctl forget --confirm"
            case .drink: "boxctl drink add beer"
            }
        }

        /// The dose button's confirm hold: the only gesture that may answer a confirmation.
        var isDoseConfirmHold: Bool { self == .gesture(.confirmHold, button: "dose") }

        /// Steps that carry a person's explicit confirmation (boxctl --confirm).
        var isConfirmedCLI: Bool {
            switch self {
            case .cli(.takeDose(confirmed: true)), .cli(.extraDose(confirmed: true)),
                 .cli(.checkIn(_, confirmed: true)), .cli(.logSleepEvent(_, _, confirmed: true)): true
            default: false
            }
        }
    }

    /// Both buttons: the dose button and an events button (bathroom, water, wake_final).
    static let settings = BoxSettings(timeZone: Harness.tz, buttons: [
        "dose": .doseButton, "events": GestureMap(single: .log(.bathroom), double: .log(.water), hold: .log(.wakeFinal)),
    ])
    static let buttons: [Step] = [Gesture.pressed, .single, .double, .hold, .confirmHold, .releasedAfterHold]
        .map { Step.gesture($0, button: "dose") }
        // The events button's hold logs wake_final, which must not end a night owing Dose 2.
        // (Its single press logs a bathroom event, its confirm hold must not answer a dose
        // confirmation, and a stuck dose button raises a fault until it recovers: each doubles
        // the states, so they are in the command alphabet, which keeps this one within time; so
        // is the long hold that skips.)
        + [Step.gesture(.hold, button: "events")]
        + [.wait(.seconds(1)), .wait(.seconds(20)), .wait(.minutes(10)), .wait(.minutes(45))]
    static let commands: [Step] = [
        .cli(.takeDose(confirmed: false)), .cli(.takeDose(confirmed: true)), .cli(.skipDose2(reason: nil)),
        .cli(.snooze), .cli(.undo), .cli(.extraDose(confirmed: true)),
        .cli(.checkIn(CheckInAnswers(), confirmed: false)), .cli(.checkIn(CheckInAnswers(), confirmed: true)),
        .cli(.logSleepEvent(.wakeFinal, notes: nil, confirmed: false)),
        .cli(.logSleepEvent(.wakeFinal, notes: nil, confirmed: true)),
        .gesture(.single, button: "events"), .gesture(.confirmHold, button: "events"),
        .gesture(.stuck, button: "dose"), .gesture(.recovered, button: "dose"), .gesture(.skipHold, button: "dose"),
        .drink,
    ]

    struct Node: Hashable {
        var state: BoxState
        var now: Moment
        /// The doses taken (not undone) in any night so far, tracked by the test itself from
        /// what was persisted; only the last few matter.
        var taken: [TakenDose] = []
        /// Tonight as the test reads it from the persisted records.
        var ledger: Ledger
        /// Every persisted record in append order, notices included (the night log), kept only
        /// when the alphabet restarts or forgets (it makes more states distinct).
        var log: [LogRecord]?
        var lastDose: Moment? { taken.last?.at }
    }

    struct TakenDose: Hashable {
        var id: String
        var at: Moment
    }

    /// The test's own fold of persisted records, independent of `Night.apply`: the open
    /// session's live Dose 1 and Dose 2, a skip, and whether it closed. A second live Dose 1
    /// or Dose 2 in one session is a violation of its own.
    struct Ledger: Hashable {
        var session: String?
        var dose1: TakenDose?
        var dose2: TakenDose?
        var skip: String?
        var closed = false
        var problems: [String] = []

        mutating func read(_ record: LogRecord) {
            switch record {
            case .sessionOpened(let s): self = Ledger(session: s.id)
            case .dose(let d) where d.type == .dose1:
                if dose1 != nil { problems.append("a second live Dose 1 in one session") }
                dose1 = TakenDose(id: d.id, at: d.at)
            case .dose(let d) where d.type == .dose2:
                if dose2 != nil { problems.append("a second live Dose 2 in one session") }
                dose2 = TakenDose(id: d.id, at: d.at)
            case .dose(let d) where d.type == .dose2Skipped: skip = d.id
            case .undone(let u):
                if dose1?.id == u.eventID { dose1 = nil }
                if dose2?.id == u.eventID { dose2 = nil }
                if skip == u.eventID { skip = nil }
            case .sessionClosed: closed = true
            default: break
            }
        }

        init(session: String? = nil) { self.session = session }

        init(replaying records: [LogRecord]) {
            for r in records { read(r) }
        }
    }

    /// Ids derived from the clock, so equal histories give equal states and merge.
    static func apply(_ step: Step, to node: Node) -> (Node, Transition) {
        var now = node.now
        var action: Action = .tick
        var source: Source = .system
        var state = node.state
        var log = node.log
        switch step {
        case .gesture(let g, let button):
            action = .gesture(g, button: button)
            source = .button(button)
        case .wait(let d):
            now = now.advanced(by: d)
            action = .tick
            source = .system
        case .cli(let a):
            action = a
            source = .cli(uid: 1000)
        case .restart:
            // The drinks are read from the log again at start, as the supply is.
            let drinks = state.drinks
            state = BoxState.rebuilt(settings: state.settings, from: PersistedNight(log: log ?? []))
            state.drinks = drinks
        case .drink:
            action = .drinksChanged(state.drinks + [now.wall])
        case .forget:
            log = forgetting(log ?? [], latest: state.night.session?.id, now: now)
        }
        // Ids from the clock (and the log's length, so a restart never reuses one).
        let ids = (0..<4).map { "id-\(now.monoNanos)-\(log?.count ?? 0)-\($0)" }
        let t = DoseReducer.reduce(state, action, Context(now: now, source: source, ids: ids))
        log? += t.records + t.effects.compactMap { effect -> LogRecord? in
            switch effect {
            case .notice(let n): .notice(n)
            case .faultNotice(let f): .fault(f)
            default: nil
            }
        }
        var taken = node.taken
        var ledger = node.ledger
        for record in t.records {
            ledger.read(record)
            switch record {
            case .dose(let d) where d.type.countsAsDose: taken.append(TakenDose(id: d.id, at: d.at))
            case .undone(let u): taken.removeAll { $0.id == u.eventID }
            default: break
            }
        }
        return (Node(state: t.state, now: now, taken: Array(taken.suffix(3)), ledger: ledger, log: log), t)
    }

    /// What `forget --confirm` leaves of `log`: the nights `Forgetting.plan` lets go removed
    /// with everything recorded in them.
    static func forgetting(_ log: [LogRecord], latest: String?, now: Moment) -> [LogRecord] {
        var undone: Set<String> = []
        for case .undone(let u) in log { undone.insert(u.eventID) }
        let nights = log.compactMap { record -> Forgetting.Night? in
            guard case .sessionOpened(let s) = record else { return nil }
            let last = log.lazy.reversed().compactMap { r -> Date? in
                guard case .dose(let d) = r, d.sessionID == s.id, d.type.countsAsDose, !undone.contains(d.id) else { return nil }
                return d.at.wall
            }.first
            return Forgetting.Night(sessionID: s.id, sessionDate: s.date, lastDose: last)
        }
        let gone = Set(Forgetting.plan(nights, latestSessionID: latest, now: now.wall).forget.map(\.sessionID))
        var goneDoses: Set<String> = []
        return log.filter { record in
            switch record {
            case .dose(let d) where gone.contains(d.sessionID): goneDoses.insert(d.id); return false
            case .undone(let u): return !goneDoses.contains(u.eventID)
            default: return !gone.contains(where: { record.belongs(toSession: $0) })
            }
        }
    }

    /// Starting points: one per phase, reached through the reducer itself.
    static func start(_ phase: Phase, keepLog: Bool = false) -> Node {
        var h = Harness(settings: settings)
        switch phase {
        case .noDose1: break
        // 104: 45 minutes on is 149, a minute before the window opens.
        case .beforeWindow: h.takeDose1(); h.at(minutesAfterDose1: 104)
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
        return Node(state: h.state, now: h.now, taken: taken, ledger: Ledger(replaying: h.persisted), log: keepLog ? h.persisted : nil)
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

    /// #32: the morning, where a hold asks the check-in and presses answer it. No sequence of
    /// the button (the long hold that saves included) and time breaks a rule.
    @Test func theMorningCheckInByTheButtonBreaksNoRule() {
        var h = Harness(settings: Self.settings)
        h.takeDose1()
        h.at(minutesAfterDose1: 170)
        h.press(.single)
        h.now = Harness.start.advanced(by: .seconds(9 * 3600)) // 07:00, the wake time
        h.advance(.seconds(1))
        let taken = h.state.night.liveDoseEvents.filter(\.type.countsAsDose).map { TakenDose(id: $0.id, at: $0.at) }
        let start = Node(state: h.state, now: h.now, taken: taken, ledger: Ledger(replaying: h.persisted), log: nil)
        let alphabet = Self.buttons.filter { if case .gesture(_, "events") = $0 { false } else { true } }
            + [.gesture(.skipHold, button: "dose")]
        let r = Self.explore(from: start, alphabet: alphabet, depth: 7)
        print("model[buttons, morning]: \(r.transitions) transitions, \(r.states) states")
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
    static let opens = Duration.minutes(DoseConstants.box.window.openMin)
    static let closes = Duration.minutes(DoseConstants.box.window.closeMin)

    static func violationsOf(step: Step, before: Node, after: Node, transition t: Transition) -> [String] {
        var out: [String] = []
        let doses = t.records.compactMap { if case .dose(let d) = $0 { d } else { nil } }
        let night = after.state.night
        for d in doses {
            // In doubt, no dose but by a confirm hold of a doubt confirmation or --confirm.
            if before.state.doubt != nil, d.type == .dose1 || d.type == .dose2, !step.isConfirmedCLI,
               !(step.isDoseConfirmHold && before.state.pending != nil) {
                out.append("a dose recorded in doubt by \(step)")
            }
            // #32: a skip never hides a dose that was taken, and a button skips only after the
            // long hold (at once with the voice off; with it on, by the answer to its question).
            if d.type == .dose2Skipped {
                if before.ledger.dose2 != nil { out.append("a skip over a Dose 2 taken, by \(step)") }
                // (A confirmed check-in or wake-final closes a night owing Dose 2 as skipped.)
                let byCLI = if case .cli(.skipDose2) = step { true } else { step.isConfirmedCLI }
                if !byCLI, step != .gesture(.skipHold, button: "dose"), before.state.skipQuestion == nil {
                    out.append("a skip without the long hold, by \(step)")
                }
            }
            // No extra dose but by a confirmed boxctl command.
            if d.type == .extraDose, !step.isConfirmedCLI { out.append("extra dose by \(step)") }
            if d.type == .dose2 {
                // Judged on the minutes since Dose 1 as the test read it, not on the flags: a
                // Dose 2 outside [150, 240) needs a confirm hold (button) or --confirm (boxctl),
                // and its flag must say which side it fell on.
                guard let d1 = before.ledger.dose1 else {
                    out.append("Dose 2 without a Dose 1 by \(step)")
                    continue
                }
                let elapsed = d.at.elapsed(since: d1.at)
                let early = elapsed < opens, late = elapsed >= closes
                if early || late, !step.isConfirmedCLI {
                    if !step.isDoseConfirmHold { out.append("Dose 2 at \(elapsed) (outside the window) by \(step)") }
                    if before.state.pending == nil { out.append("Dose 2 at \(elapsed) without a pending confirmation") }
                }
                if (d.metadata.isEarly == true) != early || (d.metadata.isLate == true) != late {
                    out.append("Dose 2 at \(elapsed) flagged early \(d.metadata.isEarly ?? false), late \(d.metadata.isLate ?? false)")
                }
                // Dose 2 is never recorded by a button before the floor.
                if case .gesture = step, elapsed < floor { out.append("Dose 2 by a button \(elapsed) after Dose 1") }
            }
            // #33: no Dose 1 after an alcoholic drink logged within the look-back but by a
            // confirmation (--confirm, or the confirm hold answering the drinks' question), and
            // then with the drinks noted on it. Judged on the drinks' times against constants.json.
            let lookback = DoseConstants.box.safety.alcoholLookbackH * 3600
            let drinks = before.state.drinks.filter { d.at.wall.timeIntervalSince($0) < lookback }.count
            if d.type == .dose1, drinks > 0 {
                if !step.isConfirmedCLI, !(step.isDoseConfirmHold && before.state.pending?.kind == .alcohol) {
                    out.append("Dose 1 after \(drinks) drink(s) without a confirmation, by \(step)")
                }
                if d.metadata.alcoholDrinks != drinks { out.append("Dose 1 after \(drinks) drink(s) noted \(d.metadata.alcoholDrinks ?? 0)") }
            }
            // No second Dose 1 while a night owes Dose 2, nor within the interval of the last dose.
            if d.type == .dose1, !step.isConfirmedCLI {
                let owed = before.ledger
                if !owed.closed, owed.dose1 != nil, owed.dose2 == nil, owed.skip == nil { out.append("Dose 1 while Dose 2 is owed") }
                if let last = before.lastDose, d.at.elapsed(since: last) < interval {
                    out.append("Dose 1 \(d.at.elapsed(since: last)) after the last dose")
                }
            }
        }
        // A night that owes Dose 2 in a running window is never closed without a confirmation.
        for case .sessionClosed(let c) in t.records where !step.isConfirmedCLI {
            if c.terminalState == .aborted, before.ledger.dose1 != nil { out.append("a night owing Dose 2 closed by \(step)") }
        }
        // The skip's question is asked by the long hold of the dose button only.
        if after.state.skipQuestion != nil, before.state.skipQuestion == nil, step != .gesture(.skipHold, button: "dose") {
            out.append("a skip asked by \(step)")
        }
        // Undo and confirm never coincide: no pending confirmation while a dose is undoable (in
        // an open night: a closed night's last dose is not, so a new night's Dose 1 may ask).
        if after.state.pending != nil, night.isOpen, let last = night.lastUndoable,
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
        // The night the box believes is the one the records say (the test's own fold).
        out += after.ledger.problems
        let l = after.ledger
        if l.session != night.session?.id {
            out.append("the box is in session \(night.session?.id ?? "none"), the log in \(l.session ?? "none")")
        } else if l.session != nil {
            if l.dose1?.at != night.dose1?.at { out.append("Dose 1: the box says \(String(describing: night.dose1?.at)), the log \(String(describing: l.dose1?.at))") }
            if l.dose2?.at != night.dose2?.at { out.append("Dose 2: the box says \(String(describing: night.dose2?.at)), the log \(String(describing: l.dose2?.at))") }
            if l.closed == night.isOpen { out.append("the box says the night is \(night.isOpen ? "open" : "closed"), the log otherwise") }
        }
        return out
    }
}
