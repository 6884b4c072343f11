import BoxControl
@testable import BoxDaemon
import BoxHardware
import DoseCore
import Foundation
import Synchronization
import Testing

/// A speaker that breaks and mends on its own thread, as the ALSA player does when its card
/// goes and comes back; it rings the fault signal only when told to.
final class SpeakerOnItsOwn: TonePlayer {
    private let current = Mutex<String?>(nil)
    let signal: DeviceFaultSignal
    let sampleRate = 16_000

    init(signal: DeviceFaultSignal) { self.signal = signal }

    func play(_ sound: Sound, volume: Double, repeatFor: Duration?) {}
    func say(_ clip: SpeechClip, volume: Double) {}
    func stop() {}
    var fault: String? { current.withLock { $0 } }

    func set(_ fault: String?, ring: Bool = true) {
        current.withLock { $0 = fault }
        if ring { signal.ring() }
    }
}

/// #31: a device's fault is reported, not polled. The speaker's change reaches the night (its
/// fault event, the LED) through the engine's input loop, with no press and no status asked.
@Suite struct DeviceFaultReportTests {
    static func rig() throws -> (Rig, SpeakerOnItsOwn) {
        let signal = DeviceFaultSignal()
        let speaker = SpeakerOnItsOwn(signal: signal)
        return (try Rig(audio: speaker, faults: signal), speaker)
    }

    /// Something answered after every input before it: `config` reads no device.
    static func afterTheLoop(_ rig: Rig) async { _ = await rig.request(.config) }

    @Test func aSpeakerThatBreaksAndMendsOnItsOwnIsRaisedAndClearedWithNoPress() async throws {
        let (rig, speaker) = try Self.rig()
        defer { rig.cleanup() }
        await rig.engine.start()
        #expect(await !rig.engine.state.faults.contains(.audioUnavailable))

        speaker.set("the card went away (test)")
        await Self.afterTheLoop(rig)
        #expect(await rig.engine.state.faults.contains(.audioUnavailable))
        #expect(await rig.engine.hardware.led.base == .fault, "the fault's light, with nobody asking")

        speaker.set(nil)
        await Self.afterTheLoop(rig)
        #expect(await !rig.engine.state.faults.contains(.audioUnavailable))
        let events = try rig.log.feed(after: 0, limit: 100).filter { $0.eventType == "audio_unavailable" }.map(\.kind)
        #expect(events == [.faultRaised, .faultCleared])
    }

    /// The control: a change nobody rings is not seen by a command that reads no device. The
    /// engine does not look at the devices on every input.
    @Test func aChangeNotRungWaitsForTheNextLook() async throws {
        let (rig, speaker) = try Self.rig()
        defer { rig.cleanup() }
        await rig.engine.start()
        speaker.set("the card went away (test)", ring: false)
        await Self.afterTheLoop(rig)
        #expect(await !rig.engine.state.faults.contains(.audioUnavailable))
        _ = await rig.request(.status) // status looks before it answers
        #expect(await rig.engine.state.faults.contains(.audioUnavailable))
    }
}
