import Foundation

#if os(Linux) && GPIOD_V2
import CGPIOD

/// The real driver for libgpiod 2 (the v2 API: Debian 13 trixie and Raspberry Pi OS of today
/// ship 2.2), which talks to the kernel's v2 GPIO character-device uAPI. Built when
/// pkg-config finds libgpiod 2.x (see Package.swift); with 1.6, LibgpiodDriver takes its place.
///
/// What v2 gives that the box uses:
/// - One request for all of a session's lines: the buttons share one event descriptor, so
///   their edges come in the kernel's order across lines, and a request is all or nothing.
///   The LED's lines are one request too, and a colour is set in one call. Buttons and LED
///   stay two requests: the button reader releases its lines on a fault and is rebuilt,
///   while the LED keeps its own.
/// - The edge-event clock, set to CLOCK_MONOTONIC explicitly (the recogniser's timeline).
/// - A kernel event buffer sized for bounce on every line at once (`eventsPerLine`).
/// - Not the kernel's debounce period: the recogniser debounces (leading edge), see the
///   README's "Buttons on libgpiod 2".
struct LibgpiodV2Driver: GPIODriver {
    /// Opens /dev/gpiochip* one by one (GPIOChipLocator.chipDevicePaths).
    func chips() -> [ChipInfo] {
        GPIOChipLocator.chipDevicePaths().compactMap { path in
            let entry = (path as NSString).lastPathComponent
            guard let chip = gpiod_chip_open(path) else { return nil }
            defer { gpiod_chip_close(chip) }
            guard let info = gpiod_chip_get_info(chip) else { return nil }
            defer { gpiod_chip_info_free(info) }
            return ChipInfo(
                path: path,
                name: gpiod_chip_info_get_name(info).map { String(cString: $0) } ?? entry,
                label: gpiod_chip_info_get_label(info).map { String(cString: $0) } ?? "",
                lineCount: gpiod_chip_info_get_num_lines(info)
            )
        }
    }

    func open(_ chip: ChipInfo) throws(GPIOError) -> any GPIOChipSession {
        guard let handle = gpiod_chip_open(chip.path) else {
            throw .openFailed(path: chip.path, errno: errno)
        }
        return LibgpiodV2Session(chip: chip, handle: handle)
    }
}

/// One gpiod_chip and its one line request.
final class LibgpiodV2Session: GPIOChipSession, @unchecked Sendable {
    // @unchecked: every C handle is touched under `lock` only. readEvents takes it too: the
    // edge-event buffer belongs to the session, and only the reader thread reads.
    let chip: ChipInfo
    private let lock = NSLock()
    private var handle: OpaquePointer?
    private var request: OpaquePointer?
    private var events: OpaquePointer?
    private var eventCapacity = 0
    private var requested: Set<Int> = []

    /// The kernel's edge FIFO per requested line (its default is 16). The buttons share one
    /// FIFO, so one bouncing contact must not crowd out another line's edges.
    static let eventsPerLine = 64

    init(chip: ChipInfo, handle: OpaquePointer) {
        self.chip = chip
        self.handle = handle
    }

    deinit {
        close()
    }

    private enum Use {
        case edges(GPIOBias)
        case output(Int32)
    }

    private struct Line {
        var offset: Int
        var key: String
        var use: Use
    }

    func requestEdges(_ lines: [EdgeLine], consumer: String) throws(GPIOError) -> [Int32] {
        lock.lock()
        defer { lock.unlock() }
        // Nothing to request is not an error, as with the v1 driver's line-by-line requests.
        guard !lines.isEmpty else { return [] }
        let request = try requestLines(lines.map { Line(offset: $0.line, key: $0.key, use: .edges($0.bias)) }, consumer: consumer)
        let fd = gpiod_line_request_get_fd(request)
        // Non-blocking, so a spurious wake-up of poll(2) can never park the reader in read(2)
        // where close() could not wake it.
        let fl = fcntl(fd, F_GETFL)
        guard fl >= 0, fcntl(fd, F_SETFL, fl | O_NONBLOCK) == 0 else {
            throw .requestFailed(key: lines[0].key, line: lines[0].line, chip: chip, errno: errno)
        }
        let capacity = EdgeReader.batch
        guard let buffer = gpiod_edge_event_buffer_new(capacity) else {
            throw .requestFailed(key: lines[0].key, line: lines[0].line, chip: chip, errno: errno)
        }
        events = buffer
        eventCapacity = gpiod_edge_event_buffer_get_capacity(buffer)
        return Array(repeating: fd, count: lines.count)
    }

    func readEvents(fd: Int32, max: Int) throws(DriverErrno) -> [GPIORawEvent] {
        lock.lock()
        defer { lock.unlock() }
        guard let request, let events, gpiod_line_request_get_fd(request) == fd else {
            throw DriverErrno(code: EBADF)
        }
        let n = gpiod_line_request_read_edge_events(request, events, Swift.min(max, eventCapacity))
        guard n >= 0 else { throw DriverErrno(code: errno) }
        return (0..<Int(n)).compactMap { i in
            guard let event = gpiod_edge_event_buffer_get_event(events, UInt(i)) else { return nil }
            // Mapped to our mirror of the constants so decodeEdge needs no C header.
            let type = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE
                ? GPIOEventType.risingEdge : GPIOEventType.fallingEdge
            return GPIORawEvent(
                line: Int(gpiod_edge_event_get_line_offset(event)), type: type,
                ts: timespec(nanoseconds: gpiod_edge_event_get_timestamp_ns(event))
            )
        }
    }

    func requestOutputs(_ levels: [LineLevel], consumer: String) throws(GPIOError) {
        lock.lock()
        defer { lock.unlock() }
        guard !levels.isEmpty else { return }
        _ = try requestLines(levels.map { Line(offset: $0.line, key: $0.key, use: .output($0.value)) }, consumer: consumer)
    }

    /// All lines in one call (GPIO_V2_LINE_SET_VALUES): the LED never shows half a colour.
    /// The kernel answers for the call, so a failure names the first line.
    func setValues(_ levels: [LineLevel]) throws(GPIOError) {
        lock.lock()
        defer { lock.unlock() }
        guard let first = levels.first else { return }
        guard handle != nil, let request, levels.allSatisfy({ requested.contains($0.line) }) else { throw .closed }
        let offsets = levels.map { UInt32($0.line) }
        let values = levels.map { $0.value != 0 ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE }
        guard gpiod_line_request_set_values_subset(request, levels.count, offsets, values) == 0 else {
            throw .writeFailed(key: first.key, line: first.line, errno: errno)
        }
    }

    func close() {
        lock.lock()
        defer { lock.unlock() }
        guard let handle else { return }
        if let request { gpiod_line_request_release(request) }
        if let events { gpiod_edge_event_buffer_free(events) }
        request = nil
        events = nil
        requested = []
        gpiod_chip_close(handle)
        self.handle = nil
    }

    /// Requests `lines` together. If the kernel refuses, each line is tried alone to find
    /// the one it refuses (and released again), so the error names that line, as the v1
    /// driver's line-by-line requests do.
    private func requestLines(_ lines: [Line], consumer: String) throws(GPIOError) -> OpaquePointer {
        guard let handle else { throw .closed }
        guard let first = lines.first else { throw .closed }
        guard request == nil else {
            // A session holds one request: a second would be a programming error.
            throw .requestFailed(key: first.key, line: first.offset, chip: chip, errno: EBUSY)
        }
        for line in lines where line.offset < 0 || line.offset >= chip.lineCount {
            throw .lineOutOfRange(key: line.key, line: line.offset, chip: chip)
        }
        switch Self.request(lines, on: handle, consumer: consumer) {
        case .success(let made):
            request = made
            requested = Set(lines.map(\.offset))
            return made
        case .failure(let refused):
            if lines.count > 1 {
                for line in lines {
                    switch Self.request([line], on: handle, consumer: consumer) {
                    case .success(let alone): gpiod_line_request_release(alone)
                    case .failure(let alone):
                        throw .requestFailed(key: line.key, line: line.offset, chip: chip, errno: alone.code)
                    }
                }
            }
            throw .requestFailed(key: first.key, line: first.offset, chip: chip, errno: refused.code)
        }
    }

    private static func request(_ lines: [Line], on handle: OpaquePointer, consumer: String) -> Result<OpaquePointer, DriverErrno> {
        guard let config = gpiod_line_config_new() else { return .failure(DriverErrno(code: errno)) }
        defer { gpiod_line_config_free(config) }
        for line in lines {
            guard let settings = gpiod_line_settings_new() else { return .failure(DriverErrno(code: errno)) }
            defer { gpiod_line_settings_free(settings) }
            let configured: Bool
            switch line.use {
            case .edges(let bias):
                // No active-low: edges stay physical and the recogniser's activeLow decides
                // (see decodeEdge). No debounce period: the recogniser debounces.
                configured = gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) == 0
                    && gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH) == 0
                    && gpiod_line_settings_set_bias(settings, bias.v2) == 0
                    && gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC) == 0
            case .output(let value):
                configured = gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT) == 0
                    && gpiod_line_settings_set_output_value(settings, value != 0 ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE) == 0
            }
            guard configured else { return .failure(DriverErrno(code: errno)) }
            var offset = UInt32(line.offset)
            guard gpiod_line_config_add_line_settings(config, &offset, 1, settings) == 0 else {
                return .failure(DriverErrno(code: errno))
            }
        }
        guard let requestConfig = gpiod_request_config_new() else { return .failure(DriverErrno(code: errno)) }
        defer { gpiod_request_config_free(requestConfig) }
        gpiod_request_config_set_consumer(requestConfig, consumer)
        if lines.contains(where: { if case .edges = $0.use { true } else { false } }) {
            gpiod_request_config_set_event_buffer_size(requestConfig, lines.count * eventsPerLine)
        }
        guard let made = gpiod_chip_request_lines(handle, requestConfig, config) else {
            return .failure(DriverErrno(code: errno))
        }
        return .success(made)
    }
}

private extension GPIOBias {
    var v2: gpiod_line_bias {
        switch self {
        case .pullUp: GPIOD_LINE_BIAS_PULL_UP
        case .pullDown: GPIOD_LINE_BIAS_PULL_DOWN
        case .asIs: GPIOD_LINE_BIAS_AS_IS
        }
    }
}

#endif
