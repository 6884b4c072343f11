import Foundation
import Testing
@testable import DoseCore

/// A write that failed is the core's to answer (`Action.persistFailed`): the fault, and the
/// error tone only for a hand on the button; boxctl hears of it from its reply.
@Suite struct PersistFailedTests {
    @Test func aButtonWhoseDoseCouldNotBeWrittenHearsTheErrorToneAndSeesTheFault() {
        var h = Harness()
        let before = h.state
        #expect(h.send(.persistFailed, from: .button("dose")) == .accepted(.faultChanged))
        #expect(h.sounds == [.error])
        #expect(h.state.faults.contains(.logUnwritable))
        #expect(h.lastEffects.contains(.led(.fault)))
        #expect(h.state.night == before.night) // nothing of the failed action happened
        #expect(h.persisted.isEmpty)
    }

    @Test func aBoxctlActionThatCouldNotBeWrittenIsSilentAtTheBedside() {
        var h = Harness()
        h.send(.persistFailed, from: .cli(uid: 1000))
        #expect(h.sounds.isEmpty)
        #expect(!h.lastEffects.contains { if case .flash = $0 { true } else { false } })
        #expect(h.state.faults.contains(.logUnwritable))
    }

    @Test func timePassingAfterAFailedWriteStillRingsTheAlarms() {
        var h = Harness()
        h.takeDose1()
        h.send(.persistFailed, from: .system)
        h.at(minutesAfterDose1: 150)
        #expect(h.sounds == [.alarm(.windowOpen, .gentle)])
    }
}
