import BoxControl
import BoxHardware
import DoseCore
import Foundation

/// Everything that reaches the engine, in one ordered stream read by one loop on the actor:
/// the buttons' edges and gesture deadlines (handed over on the GPIO reader's thread), boxctl's
/// commands, the devices' fault changes, and the timers. Each input is done before the next is read.
enum EngineInput: Sendable {
    case button(ButtonInput)
    /// The edge source ended (a fault, or boxd stopping).
    case buttonsEnded
    case command(Command, uid: UInt32, answer: @Sendable (Reply) -> Void)
    /// A device's fault changed on its own thread (`DeviceFaultSignal`).
    case devicesChanged
    /// A timer fell due: the night's next deadline, a retry, the clock check, or a gesture's
    /// deadline once the edge source has ended.
    case timer
}

extension Engine {
    /// Hands the edge source the loop's stream (at `start`). Every edge of every source
    /// arrives here, and only here.
    func startButtons() {
        guard !buttonsStarted else { return }
        buttonsStarted = true
        buttonsLive = true
        let feed = inputFeed, acknowledger = acknowledger
        hardware.edges.start(ButtonSink(yield: { input in
            acknowledger?.handing(input)
            feed.yield(.button(input))
        }, finish: { feed.yield(.buttonsEnded) }))
    }

    /// The loop, from the engine's making until `shutdown`: `for await` resumes on the actor
    /// itself, one hop from the thread that yielded. Inputs that come while it is busy (an
    /// fsync) wait in the stream, in order.
    func readInputs() async {
        for await input in inputStream {
            switch input {
            case .button(.edge(let e)): edgeCame(e)
            case .button(.deadline(let d)): deadlineCame(d)
            case .buttonsEnded: sourceEnded()
            case .command(let command, let uid, let answer): take(command, uid: uid, answer: answer)
            case .devicesChanged: devicesChanged()
            case .timer: tick()
            }
        }
    }

    /// A command is answered in its turn; one that waits for the box (a sound, a sentence, a
    /// simulated press waiting for its edges to come round the loop) runs beside the loop.
    private func take(_ command: Command, uid: UInt32, answer: @escaping @Sendable (Reply) -> Void) {
        if let reply = answerNow(command, uid: uid) { return answer(reply) }
        Task { answer(await self.answerLater(command)) }
    }

    /// Asks the loop to answer `command` and waits for the reply.
    public nonisolated func handle(_ command: Command, uid: UInt32) async -> Reply {
        await withCheckedContinuation { (c: CheckedContinuation<Reply, Never>) in
            if case .terminated = inputFeed.yield(.command(command, uid: uid, answer: { c.resume(returning: $0) })) {
                c.resume(returning: .busy("boxd is stopping"))
            }
        }
    }

    /// Ends the loop (boxd stopping): what is in the stream is still done.
    func endInputs() { inputFeed.finish() }
}
