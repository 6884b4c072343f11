import BoxGPIO
import BoxHardware
import ConfigFile
import DoseCore
import Foundation
import Logging
import Synchronization

/// The configured GPIO chip, opened now or later: when it cannot be opened (no chip, no
/// permission, a busy line, a Pi 5 config on a Pi 4) the box does not fall back to
/// simulated buttons and does not stop: it runs with the fault `gpio_unavailable` and the
/// reason, and tries again every `retryInterval` until the chip opens. The alarms keep
/// ringing meanwhile. Every change of `fault` (opened, a new reason, a reader that ended)
/// rings `faultSignal`.
final class RetryingGPIO: EdgeSource, LEDOutput {
    struct State {
        var backend: GPIOBackend?
        /// The backend's reader is running: it takes the deadlines.
        var reading = false
        var openError: String?
        var lastColor: LEDColor = .off
        /// The deadline asked for, until it was yielded.
        var deadline: Duration?
        /// Yields the deadline while no reader runs (no edge can come then).
        var timer: Task<Void, Never>?
        var closed = false
        /// Where the inputs go (the engine's), once `start` gave it.
        var sink: ButtonSink?
    }

    let config: BoxConfig
    let logger: Logger
    let retryInterval: Duration
    let faultSignal: DeviceFaultSignal
    private let state: Mutex<State>

    init(config: BoxConfig, logger: Logger, retryInterval: Duration = .seconds(10), faultSignal: DeviceFaultSignal = DeviceFaultSignal()) {
        self.config = config
        self.logger = logger
        self.retryInterval = retryInterval
        self.faultSignal = faultSignal
        state = Mutex(State())
        if !tryOpen() { startRetrying() }
    }

    /// Why the buttons cannot be read now, or nil when they work.
    var fault: String? {
        state.withLock { s in s.openError ?? s.backend?.health() }
    }

    var description: String {
        state.withLock { s in s.backend.map { "gpio (\($0.chipDescription))" } ?? "gpio (not open: \(s.openError ?? "?"))" }
    }

    /// One attempt; on success the reader hands its inputs to the sink (once there is one),
    /// takes the deadline asked for, and the LED shows what it should.
    @discardableResult
    func tryOpen() -> Bool {
        do {
            let backend = try GPIOBackend.open(config: config, logger: logger)
            let (color, deadline, sink, wasBroken) = state.withLock { s -> (LEDColor, Duration?, ButtonSink?, Bool) in
                defer { s.openError = nil }
                s.backend = backend
                s.reading = true
                s.timer?.cancel()
                s.timer = nil
                return (s.lastColor, s.deadline, s.sink, s.openError != nil)
            }
            try? backend.led.write(color)
            backend.buttons.wake(at: deadline)
            if let sink { backend.buttons.start(relay(to: sink)) }
            if wasBroken { faultSignal.ring() }
            return true
        } catch {
            let reason = "\(error)"
            let changed = state.withLock { s -> Bool in
                defer { s.openError = reason }
                return s.openError != reason
            }
            if changed {
                logger.error("GPIO unavailable, retrying every \(retryInterval): \(reason)")
                faultSignal.ring()
            }
            return false
        }
    }

    private func startRetrying() {
        let interval = retryInterval
        Task.detached { [weak self] in
            while true {
                try? await QuietRuntime.sleep(for: interval)
                guard let self, !self.state.withLock({ $0.closed }) else { return }
                if self.tryOpen() { return }
            }
        }
    }

    func start(_ sink: ButtonSink) {
        let reader = state.withLock { s -> (any EdgeSource)? in
            guard s.sink == nil else { return nil }
            s.sink = sink
            return s.reading ? s.backend?.buttons : nil
        }
        reader?.start(relay(to: sink))
    }

    /// The open reader's inputs go straight to the sink, on the reader's thread; when the
    /// reader ends (a fault), no edge can come, so a timer takes the deadline.
    private func relay(to sink: ButtonSink) -> ButtonSink {
        ButtonSink(yield: { [self] input in
            if case .deadline(let d) = input { state.withLock { s in if s.deadline == d { s.deadline = nil } } }
            sink.yield(input)
        }, finish: { [self] in
            state.withLock { s in
                s.reading = false
                armTimer(&s)
            }
            faultSignal.ring() // the reader's fault (none when it was closed: then nobody listens)
        })
    }

    func wake(at deadline: Duration?) {
        let reader = state.withLock { s -> (any EdgeSource)? in
            s.deadline = deadline
            if s.reading { return s.backend?.buttons }
            armTimer(&s)
            return nil
        }
        reader?.wake(at: deadline)
    }

    /// Without a reader, the deadline is a plain timer on the edge clock (CLOCK_MONOTONIC).
    private func armTimer(_ s: inout State) {
        s.timer?.cancel()
        s.timer = nil
        guard let deadline = s.deadline, !s.closed else { return }
        s.timer = Task.detached { [self] in
            do { try await RealClock().sleep(untilEdge: deadline) } catch { return }
            let sink = state.withLock { s -> ButtonSink? in
                guard s.deadline == deadline, !s.reading else { return nil }
                s.deadline = nil
                return s.sink
            }
            sink?.yield(.deadline(deadline))
        }
    }

    func close() {
        let (backend, sink) = state.withLock { s -> (GPIOBackend?, ButtonSink?) in
            s.closed = true
            s.timer?.cancel()
            return (s.backend, s.sink)
        }
        backend?.buttons.close()
        sink?.finish()
    }

    func write(_ color: LEDColor) throws {
        let led = state.withLock { s -> (any LEDOutput)? in
            s.lastColor = color
            return s.backend?.led
        }
        try led?.write(color)
    }
}
