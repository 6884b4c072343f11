import Foundation
import Testing
@testable import DoseCore

/// Fault events: a fault a caregiver should hear of (the speaker, the buttons, the log) is
/// written to the log once when it is raised and once when it clears, with no session, so
/// the event feed carries it; the clock's sync and simulated buttons are not news.
@Suite struct FaultEventTests {
    static func events(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .faultNotice(let f) = $0 { "\(f.raised ? "raised" : "cleared") \(f.code)" } else { nil } }
    }

    @Test func theSpeakerFailingAndComingBackIsTwoEventsHoweverOftenItIsReported() {
        var h = Harness()
        h.send(.setFault(.audioUnavailable, active: true), from: .system)
        #expect(Self.events(h.lastEffects) == ["raised audio_unavailable"])
        let raisedAt = h.now
        h.advance(minutes: 1)
        h.send(.setFault(.audioUnavailable, active: true), from: .system) // the retry found it still gone
        #expect(Self.events(h.lastEffects).isEmpty)
        h.send(.setFault(.audioUnavailable, active: false), from: .system)
        #expect(Self.events(h.lastEffects) == ["cleared audio_unavailable"])
        h.send(.setFault(.audioUnavailable, active: false), from: .system)
        #expect(Self.events(h.allEffects) == ["raised audio_unavailable", "cleared audio_unavailable"])
        let records = h.allEffects.compactMap { if case .faultNotice(let f) = $0 { f } else { nil } }
        #expect(records.map(\.at) == [raisedAt, h.now])
        #expect(Set(records.map(\.id)).count == 2)
        #expect(h.persisted.isEmpty, "a fault event is never part of a transition's records (it must not wait on, or fail, a dose)")
    }

    @Test func theClockAndSimulatedButtonsAreNotNews() {
        var h = Harness()
        for fault in [Fault.clockUnsynced, .buttonsSimulated] {
            h.send(.setFault(fault, active: true), from: .system)
            h.send(.setFault(fault, active: false), from: .system)
        }
        #expect(Self.events(h.allEffects).isEmpty)
        #expect(Fault.clockUnsynced.isCaregiverNews == false && Fault.buttonsSimulated.isCaregiverNews == false)
    }

    @Test func aStuckButtonAndAFailedWriteAreNews() {
        var h = Harness()
        h.press(.stuck)
        h.press(.recovered)
        h.send(.persistFailed, from: .button("dose"))
        h.send(.persistFailed, from: .button("dose")) // the next failed press: already raised
        #expect(Self.events(h.allEffects) == ["raised button_stuck:dose", "cleared button_stuck:dose", "raised log_unwritable"])
        #expect(h.state.faults.contains(.logUnwritable))
    }

    /// A fault event is about the box, not the night: it never changes the night rebuilt
    /// from the log.
    @Test func aFaultRecordLeavesTheNightAlone() {
        var h = Harness()
        h.takeDose1()
        let before = h.state.night
        var night = before
        night.apply(.fault(FaultRecord(id: "f", code: "audio_unavailable", raised: true, at: h.now)))
        #expect(night == before)
    }

    @Test func aStoredCodeNamesItsFault() {
        for fault in [Fault.audioUnavailable, .logUnwritable, .logRecovered, .buttonStuck("snooze"), .gpioUnavailable,
                      .buttonsSimulated, .clockUnsynced] {
            #expect(Fault(code: fault.code) == fault)
        }
        #expect(Fault(code: "speaker_on_fire") == nil)
    }

    /// docs/install.md's troubleshooting table is what a user reads at 2 a.m.: every fault
    /// boxd can raise has a row there (a new fault without one fails here).
    @Test func theInstallGuideExplainsEveryFault() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("docs/install.md"), encoding: .utf8)
        let table = guide.components(separatedBy: "## 8. Troubleshooting").last ?? ""
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("| `") }
        // A switch with no default: a new case must be placed here before this compiles.
        func listed(_ fault: Fault) -> String {
            switch fault {
            case .buttonStuck: "button_stuck:<name>"
            case .audioUnavailable, .logUnwritable, .logRecovered, .logLostRecords, .witnessRebuilt,
                 .gpioUnavailable, .buttonsSimulated, .clockUnsynced: fault.code
            }
        }
        for fault in Fault.withoutName + [.buttonStuck("dose")] {
            #expect(rows.contains { $0.hasPrefix("| `\(listed(fault))`") }, "docs/install.md has no row for \(fault.code)")
        }
        #expect(rows.count == Fault.withoutName.count + 1, "a row for a fault boxd does not have")
    }
}
