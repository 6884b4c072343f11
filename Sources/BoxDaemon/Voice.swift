import BoxALSA
import BoxHardware
import CBoxSys
import Dispatch
import Foundation
import Logging
import Synchronization

/// The box's voice in the shell (#15): the core's sentences (`Effect.speak`) made into sound
/// and handed to the tones' player, which says each after the sound before it.
///
/// On the real clock a sentence takes its turn in the player at once and is made on a thread
/// of its own at a lower priority than the engine, the LED and the tones (nice 10): the
/// player writes espeak-ng's first chunks while the rest is made, so the first words come
/// within a few tens of milliseconds, and on a busy CPU a word may come later but a light or
/// an alarm never does. A newer sound or a stop drops a sentence not yet said (the player
/// logs it; an alarm wins). On the simulated clock a sentence is made and said at once, so a
/// test reads it right after the transition.
final class Voice: Sendable {
    let synthesizer: any SpeechSynthesizer
    let player: any TonePlayer
    let volume: Double
    let synchronous: Bool
    /// How long a sentence asked by boxctl may wait behind what the player is playing.
    let waitAhead: Duration
    let logger: Logger
    private let worker: VoiceThread
    /// Bumped by every sound and stop: a sentence made for an older one is stale (players
    /// that cannot take a sentence before it is made).
    private let generation = Atomic<Int>(0)
    /// Recent sentences' clips: the milestones come back every night.
    private let cache = Mutex<[String: SpeechClip]>([:])
    private let lastFailure = Mutex<String?>(nil)
    static let cacheSize = 32
    /// Synthesis runs below the engine, the LED and the tones (nice 0).
    static let nice: Int32 = 10
    /// A bound on one sentence's length, for a wait that starts before it is made (the box's
    /// longest, the status, is about 6 s).
    static let longestSentence: Duration = .seconds(30)

    init(synthesizer: any SpeechSynthesizer, player: any TonePlayer, volume: Double, synchronous: Bool,
         waitAhead: Duration, logger: Logger) {
        self.synthesizer = synthesizer
        self.player = player
        self.volume = volume
        self.synchronous = synchronous
        self.waitAhead = waitAhead
        self.logger = logger
        worker = VoiceThread(name: "boxd-voice", nice: Self.nice) { what, error in
            logger.warning("the voice's thread \(what) refused (errno \(error))")
        }
    }

    /// Ahead of a sentence there may be an alarm ringing out (the config's ring) and the
    /// sentences queued behind it (the hold's status is one, about 6 s): the alarm wins, and
    /// `boxctl say-status` waits for its turn rather than reporting a time-out.
    static func waitAhead(ringSeconds: Double) -> Duration { .seconds(ringSeconds) + .seconds(30) }

    /// The calling thread's nice value (the voice's thread runs at `nice`).
    static func currentThreadNice() -> Int32 { box_thread_nice() }

    /// Returns once the sentences asked so far are made (tests).
    func made() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in worker.async { done.resume() } }
    }

    /// A new sound or a stop: sentences not yet handed to the player are stale.
    func overtaken() { generation.add(1, ordering: .sequentiallyConsistent) }

    func say(_ text: String) {
        logger.info("say \"\(text)\"")
        if synchronous {
            if let clip = clip(text) { player.say(clip, volume: volume) }
            return
        }
        if let clip = cached(text) {
            player.say(clip, volume: volume)
        } else if let streaming = player as? any SpeechStreamPlayer {
            let stream = SpeechStream(text: text)
            streaming.say(stream, volume: volume)  // its turn is now, behind the sound before it
            worker.async { [self] in make(stream) }
        } else {
            let asked = generation.load(ordering: .sequentiallyConsistent)
            worker.async { [self] in
                guard let clip = clip(text) else { return }
                guard generation.load(ordering: .sequentiallyConsistent) == asked else {
                    logger.notice("speech dropped (a newer sound came first): \(text)")
                    return
                }
                player.say(clip, volume: volume)
            }
        }
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
        let asked = ContinuousClock.now
        guard !synchronous, let alsa = player as? ALSAPlayer else {
            return await withCheckedContinuation { (done: CheckedContinuation<Said, Never>) in
                worker.async { [self] in
                    guard let clip = clip(text) else {
                        done.resume(returning: Said(problem: lastFailure.withLock { $0 } ?? "espeak-ng could not speak", synthesis: .zero))
                        return
                    }
                    player.say(clip, volume: volume)
                    done.resume(returning: Said(problem: player.fault, synthesis: ContinuousClock.now - asked))
                }
            }
        }
        let stream = SpeechStream(text: text)
        let synthesis = Mutex<Duration>(.zero)
        if let clip = cached(text) {
            stream.append(clip.samples)
            stream.finish()
        } else {
            worker.async { [self] in
                make(stream)
                synthesis.withLock { $0 = ContinuousClock.now - asked }
            }
        }
        // The wait blocks a thread for as long as the sentence waits its turn and is said: not
        // the voice's own (it makes the next sentences), nor Swift's pool, nor libdispatch's
        // (whose first job would wake boxd every second from then on: QuietRuntime).
        return await withCheckedContinuation { (done: CheckedContinuation<Said, Never>) in
            Thread.detachNewThread { [self] in
                let problem = alsa.sayBlocking(stream, volume: volume, timeout: waitAhead + Self.longestSentence)
                let start = alsa.lastSpeechStart.flatMap { $0.text == text && $0.at >= asked ? $0.at - asked : nil }
                done.resume(returning: Said(problem: problem ?? stream.failure, synthesis: synthesis.withLock { $0 },
                                            firstSample: start))
            }
        }
    }

    /// Makes a sentence into its stream (on the voice's thread) and keeps it for next time.
    private func make(_ stream: SpeechStream) {
        synthesizer.stream(stream.text, sampleRate: player.sampleRate, into: stream)
        if let clip = stream.clip {
            remember(clip)
        } else if let failure = stream.failure {
            noteFailure(failure)
        }
    }

    private func cached(_ text: String) -> SpeechClip? { cache.withLock { $0[text] } }

    private func remember(_ clip: SpeechClip) {
        cache.withLock { c in
            if c.count >= Self.cacheSize { c.removeAll() }
            c[clip.text] = clip
        }
        lastFailure.withLock { $0 = nil }
    }

    /// Said once per distinct failure; the tones go on without the voice.
    private func noteFailure(_ message: String) {
        if lastFailure.withLock({ f in defer { f = message }; return f != message }) {
            logger.error("voice cannot speak: \(message)")
        }
    }

    private func clip(_ text: String) -> SpeechClip? {
        if let cached = cached(text) { return cached }
        do {
            let clip = try synthesizer.clip(text, sampleRate: player.sampleRate)
            remember(clip)
            return clip
        } catch {
            noteFailure("\(error)")
            return nil
        }
    }
}

/// A thread that runs jobs in order, at a nice value of its own; it sleeps (no wake-ups)
/// while there is nothing to do, and ends when its owner goes.
final class VoiceThread: Sendable {
    private final class Jobs: Sendable {
        let list = Mutex<(queue: [@Sendable () -> Void], closed: Bool)>(([], false))
        let ready = DispatchSemaphore(value: 0)

        func run(name: String, nice: Int32, refused: @Sendable (String, Int32) -> Void) {
            _ = box_name_this_thread(name)  // Foundation's Thread.name is not the kernel's
            let error = box_nice_this_thread(nice)
            if error != 0 { refused("runs at the default priority: setpriority", error) }  // it still runs
            var widenRefused = false  // said once, not at every sentence
            while true {
                ready.wait()
                let next: (job: (@Sendable () -> Void)?, closed: Bool) = list.withLock { l in
                    l.queue.isEmpty ? (nil, l.closed) : (l.queue.removeFirst(), false)
                }
                // Synthesis is the heaviest work boxd does: it runs on every CPU, not the one the
                // LED, the engine and the player keep (in the virtual box, a blink once came
                // 170 ms late while a sentence was made on that CPU). At each job, because
                // boxd may pin this thread after it started.
                if let job = next.job {
                    let widen = box_widen_this_thread()
                    if widen != 0, !widenRefused {
                        widenRefused = true
                        refused("shares boxd's one CPU: sched_setaffinity", widen)  // it still speaks
                    }
                    job()
                } else if next.closed { return }
            }
        }
    }

    private let jobs = Jobs()

    /// `refused`: told what could not be set (the nice value, the CPUs: a syscall filter) and
    /// its errno; the thread runs on without it.
    init(name: String, nice: Int32, refused: @escaping @Sendable (String, Int32) -> Void) {
        let thread = Thread { [jobs] in jobs.run(name: name, nice: nice, refused: refused) }
        thread.name = name
        thread.start()
    }

    deinit { close() }

    func async(_ job: @escaping @Sendable () -> Void) {
        jobs.list.withLock { $0.queue.append(job) }
        jobs.ready.signal()
    }

    /// Ends the thread once the jobs queued so far have run.
    func close() {
        jobs.list.withLock { $0.closed = true }
        jobs.ready.signal()
    }
}
