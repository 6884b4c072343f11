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
/// ringing meanwhile.
final class RetryingGPIO: EdgeSource, LEDOutput {
    struct State {
        var backend: GPIOBackend?
        var openError: String?
        var lastColor: LEDColor = .off
        var closed = false
    }

    let config: BoxConfig
    let logger: Logger
    let retryInterval: Duration
    private let state: Mutex<State>
    private let stream: AsyncStream<ButtonEdge>
    private let continuation: AsyncStream<ButtonEdge>.Continuation
    private let yielded = EdgeCount()

    init(config: BoxConfig, logger: Logger, retryInterval: Duration = .seconds(10)) {
        self.config = config
        self.logger = logger
        self.retryInterval = retryInterval
        state = Mutex(State())
        (stream, continuation) = AsyncStream.makeStream(of: ButtonEdge.self)
        if !tryOpen() { startRetrying() }
    }

    /// Why the buttons cannot be read now, or nil when they work.
    var fault: String? {
        state.withLock { s in s.openError ?? s.backend?.health() }
    }

    var description: String {
        state.withLock { s in s.backend.map { "gpio (\($0.chipDescription))" } ?? "gpio (not open: \(s.openError ?? "?"))" }
    }

    /// One attempt; on success the edges are forwarded and the LED shows what it should.
    @discardableResult
    func tryOpen() -> Bool {
        do {
            let backend = try GPIOBackend.open(config: config, logger: logger)
            let color = state.withLock { s -> LEDColor in
                s.backend = backend
                s.openError = nil
                return s.lastColor
            }
            try? backend.led.write(color)
            let continuation = self.continuation
            let yielded = self.yielded
            let buttons = backend.buttons
            yielded.attach(buttons)
            Task.detached {
                for await edge in buttons.edges() { continuation.yield(edge) }
                yielded.detach(buttons) // every edge it read was forwarded
            }
            return true
        } catch {
            let reason = "\(error)"
            let changed = state.withLock { s -> Bool in
                defer { s.openError = reason }
                return s.openError != reason
            }
            if changed { logger.error("GPIO unavailable, retrying every \(retryInterval): \(reason)") }
            return false
        }
    }

    private func startRetrying() {
        let interval = retryInterval
        Task.detached { [weak self] in
            while true {
                try? await Task.sleep(for: interval)
                guard let self, !self.state.withLock({ $0.closed }) else { return }
                if self.tryOpen() { return }
            }
        }
    }

    func edges() -> AsyncStream<ButtonEdge> { stream }

    var edgesYielded: Int? { yielded.value }

    var hasUnreadEdges: Bool { yielded.openSource?.hasUnreadEdges ?? false }

    func close() {
        let backend = state.withLock { s -> GPIOBackend? in
            s.closed = true
            return s.backend
        }
        backend?.buttons.close()
        continuation.finish()
    }

    func write(_ color: LEDColor) throws {
        let led = state.withLock { s -> (any LEDOutput)? in
            s.lastColor = color
            return s.backend?.led
        }
        try led?.write(color)
    }
}

/// Edges read by every chip opened so far: the open one's reader thread counts them as it
/// reads from the kernel (before the forwarding hop), closed ones' counts are kept.
private final class EdgeCount: Sendable {
    private let count = Mutex<(closed: Int, open: (any EdgeSource)?)>((0, nil))
    func attach(_ source: any EdgeSource) { count.withLock { $0.open = source } }
    func detach(_ source: any EdgeSource) {
        count.withLock { c in
            c.closed += source.edgesYielded ?? 0
            c.open = nil
        }
    }
    var value: Int { count.withLock { $0.closed + ($0.open?.edgesYielded ?? 0) } }
    var openSource: (any EdgeSource)? { count.withLock { $0.open } }
}
