import Foundation
import Testing
@testable import DoseCore

/// Notices: every alarm that rings and each caregiver escalation is announced once, after
/// the sounds, and never again after a restart that finds it in the log.
@Suite struct NoticeTests {
    static func notices(_ effects: [Effect]) -> [NoticeRecord] {
        effects.compactMap { if case .notice(let n) = $0 { n } else { nil } }
    }

    /// What the log would hold: the records, with the notices in the order they were made.
    static func log(_ h: Harness) -> [LogRecord] { h.persisted + notices(h.allEffects).map(LogRecord.notice) }

    static func caregiver(_ effects: [Effect], since d1: Moment) -> [String] {
        notices(effects).filter { $0.kind != .alarmRang && $0.kind != .alarmSilent }.map { "\($0.kind.rawValue)@\(Int($0.at.elapsed(since: d1).minutes))" }
    }

    /// Ticks every minute from `from` through `to` minutes after Dose 1.
    static func tick(_ h: inout Harness, from: Int, to: Int) {
        for m in from...to { h.at(minutesAfterDose1: Double(m)) }
    }

    @Test func aNightWithoutDose2EscalatesOnceAtEachStep() throws {
        var h = Harness()
        h.takeDose1()
        let d1 = try #require(h.state.night.dose1).at
        Self.tick(&h, from: 140, to: 245)
        #expect(Self.caregiver(h.allEffects, since: d1) == ["alarm_unanswered@173", "dose2_missing@225", "window_closed_without_dose2@240"])
        // Each alarm that rang has its notice, same alert and level, after its sound.
        let rang = Self.notices(h.allEffects).filter { $0.kind == .alarmRang }.map { "\($0.alert!.rawValue)/\($0.level!)" }
        let played = h.allSounds.compactMap { if case .alarm(let k, let l) = $0 { "\(k.rawValue)/\(l)" } else { nil } }
        #expect(rang == played && rang.count >= 10)
        #expect(h.persisted.allSatisfy { if case .notice = $0 { false } else { true } }, "notices are never in a transition's records")
        #expect(Self.notices(h.allEffects).allSatisfy { $0.dose1ID == h.state.night.dose1?.id })
    }

    @Test func theMinuteBeforeEachStepIsQuiet() throws {
        var h = Harness()
        h.takeDose1()
        let d1 = try #require(h.state.night.dose1).at
        h.at(minutesAfterDose1: 172.99)
        #expect(Self.caregiver(h.allEffects, since: d1).isEmpty)
        h.at(minutesAfterDose1: 173)
        #expect(Self.caregiver(h.lastEffects, since: d1) == ["alarm_unanswered@173"])
        h.at(minutesAfterDose1: 224.99)
        #expect(Self.caregiver(h.lastEffects, since: d1).isEmpty)
        h.at(minutesAfterDose1: 225)
        #expect(Self.caregiver(h.lastEffects, since: d1) == ["dose2_missing@225"])
    }

    /// The daemon sleeps until the state's next deadline: an escalation must be one, or it
    /// would wait for the next alarm (the remaining-time warning at 210 min).
    @Test func eachEscalationIsADeadlineOfItsOwn() throws {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 172)
        #expect(h.state.nextDeadline(at: h.now) == .minutes(1), "173 min: alarm unanswered")
        h.at(minutesAfterDose1: 173)
        #expect(h.state.nextDeadline(at: h.now) == .minutes(210 - 173), "then the next alarm")
        h.at(minutesAfterDose1: 224)
        #expect(h.state.nextDeadline(at: h.now) == .minutes(1))
    }

    @Test func dose2TakenOrSkippedMeansNobodyIsTold() throws {
        for skip in [false, true] {
            var h = Harness()
            h.takeDose1()
            let d1 = try #require(h.state.night.dose1).at
            Self.tick(&h, from: 150, to: 170)
            if skip { h.cli(.skipDose2(reason: nil)) } else { h.press(.single) }
            #expect(h.state.night.isDose2Resolved)
            Self.tick(&h, from: 171, to: 245)
            #expect(Self.caregiver(h.allEffects, since: d1).isEmpty, "skip \(skip)")
        }
    }

    @Test func aRestartThatFindsTheNoticeInTheLogDoesNotRepeatIt() throws {
        var h = Harness()
        h.takeDose1()
        let d1 = try #require(h.state.night.dose1).at
        Self.tick(&h, from: 150, to: 200)
        #expect(Self.caregiver(h.allEffects, since: d1) == ["alarm_unanswered@173"])
        // boxd restarts: the night is rebuilt from the log, notices included.
        var after = Harness(settings: h.state.settings, now: h.now)
        after.state = BoxState.rebuilt(settings: h.state.settings, records: Self.log(h))
        after.persisted = Self.log(h)
        Self.tick(&after, from: 201, to: 241)
        #expect(Self.caregiver(after.allEffects, since: d1) == ["dose2_missing@225", "window_closed_without_dose2@240"])
    }

    @Test func aBoxThatWasDownWhenStepsFellDueGivesThemLateInOrder() throws {
        var h = Harness()
        h.takeDose1()
        let d1 = try #require(h.state.night.dose1).at
        Self.tick(&h, from: 150, to: 170)
        var after = Harness(settings: h.state.settings, now: h.now)
        after.state = BoxState.rebuilt(settings: h.state.settings, records: Self.log(h))
        after.at(minutesAfterDose1: 230) // down from 170 to 230
        #expect(Self.caregiver(after.lastEffects, since: d1) == ["alarm_unanswered@230", "dose2_missing@230"])
    }

    // MARK: - An alarm that could not sound (#29)

    /// The speaker is known to be broken: every alarm that falls due is told at once, at its
    /// own minute, as one that could not sound; none is ever called "rang".
    @Test func anAlarmOnABrokenSpeakerIsToldAtOnceAsSilentNeverAsRang() throws {
        var h = Harness()
        h.takeDose1()
        let d1 = try #require(h.state.night.dose1).at
        h.send(.setFault(.audioUnavailable, active: true), from: .system)
        Self.tick(&h, from: 140, to: 175)
        let notices = Self.notices(h.allEffects)
        #expect(!notices.contains { $0.kind == .alarmRang })
        let silent = notices.filter { $0.kind == .alarmSilent }.map { "\($0.alert!.rawValue)/\($0.level!)@\(Int($0.at.elapsed(since: d1).minutes))" }
        #expect(silent.first == "window_open/gentle@150", "told at the minute it fell due, not after the escalation's wait")
        #expect(silent.contains("main_alarm/critical@165"))
        let played = h.allSounds.compactMap { if case .alarm(let k, let l) = $0 { "\(k.rawValue)/\(l)" } else { nil } }
        #expect(silent.map { String($0.prefix { $0 != "@" }) } == played, "one notice per alarm, and the box still tries to play each")
        #expect(Self.caregiver(h.allEffects, since: d1).contains("alarm_unanswered@173"))
    }

    /// The shell learns of a failed play only when it plays: `.alarmNotHeard` gives the silent
    /// notice for that alarm, and the fault.
    @Test func aPlayThatFailedIsToldAsSilentAndRaisesTheAudioFault() throws {
        var h = Harness()
        h.takeDose1()
        h.at(minutesAfterDose1: 165)
        #expect(Self.notices(h.lastEffects).map(\.kind) == [.alarmRang], "the core does not know yet")
        h.send(.alarmNotHeard(.mainAlarm, .critical), from: .system)
        let told = Self.notices(h.lastEffects)
        #expect(told.map(\.kind) == [.alarmSilent] && told.first?.alert == .mainAlarm && told.first?.level == .critical)
        #expect(told.first?.dose1ID == h.state.night.dose1?.id)
        #expect(h.state.faults.contains(.audioUnavailable))
        #expect(h.lastEffects.contains { if case .faultNotice(let f) = $0 { f.code == "audio_unavailable" && f.raised } else { false } })
        // The next alarm, with the fault known, is silent from the start.
        h.at(minutesAfterDose1: 167)
        #expect(Self.notices(h.lastEffects).map(\.kind) == [.alarmSilent])
        // The speaker back: alarms ring again.
        h.send(.setFault(.audioUnavailable, active: false), from: .system)
        h.at(minutesAfterDose1: 169)
        #expect(Self.notices(h.lastEffects).map(\.kind) == [.alarmRang])
    }
}
