import BoxControl
@testable import BoxDaemon
import BoxHardware
import DoseCore
import Foundation
import NightLog
import Synchronization
import Testing

/// A speaker that works until an alarm is asked of it, then fails (a USB speaker pulled out as
/// the alarm starts; a full disk under the simulated sink): only the shell learns it, at play.
final class SpeakerThatDiesAtTheAlarm: TonePlayer {
    private let broken = Mutex(false)
    let sampleRate = 16_000
    func play(_ sound: Sound, volume: Double, repeatFor: Duration?) {
        if case .alarm = sound { broken.withLock { $0 = true } }
    }
    func say(_ clip: SpeechClip, volume: Double) {}
    func stop() {}
    var fault: String? { broken.withLock { $0 } ? "the speaker failed (test)" : nil }
}

/// #29: an alarm the speaker did not play is never written as "rang"; the log and the feed
/// say at once that it could not sound.
@Suite struct SilentAlarmEngineTests {
    @Test func anAlarmWhosePlayFailsIsLoggedAsSilentNeverAsRang() async throws {
        let rig = try Rig(audio: SpeakerThatDiesAtTheAlarm())
        defer { rig.cleanup() }
        await rig.engine.start()
        _ = await rig.press()
        await rig.advance("150m") // window open: the first alarm, and the speaker dies with it
        let feed = try rig.log.feed(after: 0, limit: 100)
        #expect(!feed.contains { $0.kind == .alarmRang }, "\(feed.map(\.kind))")
        let silent = feed.filter { $0.kind == .alarmSilent }
        #expect(silent.map(\.eventType) == ["window_open"] && silent.first?.level == "gentle")
        #expect(feed.contains { $0.kind == .faultRaised && $0.eventType == "audio_unavailable" })
        let dose1 = try #require(feed.first { $0.kind == .dose1 }.flatMap { Date(iso8601: $0.at) })
        let told = try #require(silent.first.flatMap { Date(iso8601: $0.at) })
        #expect(abs(told.timeIntervalSince(dose1) - 150 * 60) < 60, "told at the alarm's minute, not after an escalation's wait")
        await rig.advance("15m") // main alarm: the fault is known now, silent from the start
        let later = try rig.log.feed(after: feed.last?.id ?? 0, limit: 100)
        #expect(later.filter { $0.kind == .alarmSilent }.map(\.eventType) == ["pre_alarm", "main_alarm"])
        #expect(!later.contains { $0.kind == .alarmRang })
    }

    /// What `boxctl watch` prints for it: loud, and never "rang".
    @Test func watchSaysTheAlarmCouldNotSound() {
        let e = FeedEvent(id: 7, kind: .alarmSilent, at: "2026-11-22T05:45:00.120Z", sessionID: "s", sessionDate: "2026-11-21",
                          subject: "d1", eventType: "main_alarm", level: "critical")
        let line = e.text(in: TimeZone(identifier: "America/New_York")!)
        #expect(line == "#7  00:45  ALARM COULD NOT SOUND: main alarm (critical): the box cannot wake them (speaker failed)")
        #expect(!line.contains("rang"))
    }
}
