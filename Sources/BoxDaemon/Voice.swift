import BoxALSA
import BoxHardware
import Dispatch
import Foundation
import Logging
import Synchronization

/// The box's voice in the shell (#15): the core's sentences (`Effect.speak`) made into sound
/// and handed to the tones' player, which says each after the sound before it.
///
/// On the real clock synthesis runs on a queue of its own, so a sentence never holds up the
/// engine or the tone that comes first; a sentence still being made when a newer sound or a
/// stop arrives is dropped with a log line (an alarm wins). On the simulated clock it is said
/// at once, so a test reads it right after the transition.
final class Voice: Sendable {
    let synthesizer: any SpeechSynthesizer
    let player: any TonePlayer
    let volume: Double
    let synchronous: Bool
    /// How long a sentence asked by boxctl may wait behind what the player is playing.
    let waitAhead: Duration
    let logger: Logger
    private let queue = DispatchQueue(label: "boxd-voice")
    /// Bumped by every sound and stop: a sentence made for an older one is stale.
    private let generation = Atomic<Int>(0)
    /// Recent sentences' clips: the milestones come back every night.
    private let cache = Mutex<[String: SpeechClip]>([:])
    private let lastFailure = Mutex<String?>(nil)
    static let cacheSize = 32

    init(synthesizer: any SpeechSynthesizer, player: any TonePlayer, volume: Double, synchronous: Bool,
         waitAhead: Duration, logger: Logger) {
        self.synthesizer = synthesizer
        self.player = player
        self.volume = volume
        self.synchronous = synchronous
        self.waitAhead = waitAhead
        self.logger = logger
    }

    /// Ahead of a sentence there may be an alarm ringing out (the config's ring) and the
    /// sentences queued behind it (the hold's status is one, about 6 s): the alarm wins, and
    /// `boxctl say-status` waits for its turn rather than reporting a time-out.
    static func waitAhead(ringSeconds: Double) -> Duration { .seconds(ringSeconds) + .seconds(30) }

    /// A new sound or a stop: sentences not yet handed to the player are stale.
    func overtaken() { generation.add(1, ordering: .sequentiallyConsistent) }

    func say(_ text: String) {
        let asked = generation.load(ordering: .sequentiallyConsistent)
        let work: @Sendable () -> Void = { [self] in
            guard let clip = clip(text) else { return }
            guard generation.load(ordering: .sequentiallyConsistent) == asked else {
                logger.notice("speech dropped (a newer sound came first): \(text)")
                return
            }
            player.say(clip, volume: volume)
        }
        logger.info("say \"\(text)\"")
        if synchronous { work() } else { queue.async(execute: work) }
    }

    /// What `sayAndWait` measured: why it was not said (nil: said), how long synthesis took,
    /// and when its first sample went out after the request (ALSA only).
    struct Said: Sendable {
        var problem: String?
        var synthesis: Duration
        var firstSample: Duration?
    }

    /// Says `text` after whatever plays and returns once it has been written out (ALSA) or
    /// into the sim's WAV: `boxctl say-status` and `boxctl test voice`.
    func sayAndWait(_ text: String) async -> Said {
        logger.info("say \"\(text)\" (asked for)")
        return await withCheckedContinuation { (done: CheckedContinuation<Said, Never>) in
            queue.async { [self] in
                let asked = ContinuousClock.now
                guard let clip = clip(text) else {
                    done.resume(returning: Said(problem: lastFailure.withLock { $0 } ?? "espeak-ng could not speak", synthesis: .zero))
                    return
                }
                let synthesis = ContinuousClock.now - asked
                guard let alsa = player as? ALSAPlayer else {
                    player.say(clip, volume: volume)
                    done.resume(returning: Said(problem: player.fault, synthesis: synthesis))
                    return
                }
                let length = Duration.seconds(Double(clip.samples.count) / Double(alsa.sampleRate))
                let problem = alsa.sayBlocking(clip, volume: volume, timeout: length + waitAhead)
                let start = alsa.lastSpeechStart.flatMap { $0.text == text && $0.at >= asked ? $0.at - asked : nil }
                done.resume(returning: Said(problem: problem, synthesis: synthesis, firstSample: start))
            }
        }
    }

    private func clip(_ text: String) -> SpeechClip? {
        if let cached = cache.withLock({ $0[text] }) { return cached }
        do {
            let clip = try synthesizer.clip(text, sampleRate: player.sampleRate)
            cache.withLock { c in
                if c.count >= Self.cacheSize { c.removeAll() }
                c[text] = clip
            }
            lastFailure.withLock { $0 = nil }
            return clip
        } catch {
            // Said once per distinct failure; the tones go on without the voice.
            let message = "\(error)"
            if lastFailure.withLock({ f in defer { f = message }; return f != message }) {
                logger.error("voice cannot speak: \(message)")
            }
            return nil
        }
    }
}
