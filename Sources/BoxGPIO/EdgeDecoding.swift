import BoxHardware
import DoseCore
import Foundation

/// Turns one libgpiod event into the physical edge the gesture recogniser expects.
///
/// The recogniser works on the line's physical level: with `activeLow: true` (a button to
/// ground with a pull-up), `.falling` is the press. GPIOButtons therefore never sets
/// GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW and passes `activeLowRequested: false`.
///
/// If ACTIVE_LOW were requested, the reported type would be inverted: in the v1 uAPI the
/// kernel (gpiolib-cdev lineevent_irq_thread) derives a both-edge event's id from
/// gpiod_get_value_cansleep(), the *logical* value, and libgpiod 1.6 copies the id through
/// unchanged (GPIOEVENT_EVENT_RISING_EDGE -> GPIOD_LINE_EVENT_RISING_EDGE, anything else
/// -> FALLING). The v2 uAPI does the same (edge_irq_thread reads the logical value for a
/// both-edge line), and libgpiod 2 copies it through as GPIOD_EDGE_EVENT_*. So a press on a
/// pull-up button arrives as RISING; `activeLowRequested` undoes that.
///
/// The timestamp is the kernel's CLOCK_MONOTONIC (since Linux 5.7 for the v1 uAPI; the v2
/// driver asks for it explicitly and turns its nanoseconds into a timespec), as
/// seconds*1e9 + nanoseconds on the edge clock. Unknown types decode as falling, as
/// libgpiod itself does.
public func decodeEdge(eventType: Int32, ts: timespec, activeLowRequested: Bool) -> RawEdge {
    let reportedRising = eventType == GPIOEventType.risingEdge
    let physicalRising = activeLowRequested ? !reportedRising : reportedRising
    let at = Duration.seconds(Int64(ts.tv_sec)) + Duration.nanoseconds(Int64(ts.tv_nsec))
    return RawEdge(physicalRising ? .rising : .falling, at: at)
}

/// libgpiod 2's edge timestamp (u64 nanoseconds on the event clock) as the timespec the
/// decoding takes, the form libgpiod 1.6 gives.
func timespec(nanoseconds ns: UInt64) -> timespec {
    timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
}

/// Merges the edges read from several lines in one wake-up into one sequence ordered by
/// timestamp. Each line's own order is kept as the kernel delivered it, even if its
/// timestamps were not monotonic: this is a k-way merge of the per-line queues, not a sort.
func mergeByTime(_ perLine: [[ButtonEdge]]) -> [ButtonEdge] {
    var heads = Array(repeating: 0, count: perLine.count)
    var merged: [ButtonEdge] = []
    merged.reserveCapacity(perLine.reduce(0) { $0 + $1.count })
    while true {
        var best: Int?
        for (i, queue) in perLine.enumerated() where heads[i] < queue.count {
            if let b = best {
                // Strictly earlier only: ties go to the line listed first (stable).
                if queue[heads[i]].edge.at < perLine[b][heads[b]].edge.at { best = i }
            } else {
                best = i
            }
        }
        guard let b = best else { return merged }
        merged.append(perLine[b][heads[b]])
        heads[b] += 1
    }
}
