import Foundation

#if os(Linux) && !GPIOD_V2
import CGPIOD

/// The real driver for libgpiod 1.6 (the v1 API, as Debian 12 and Raspberry Pi OS Bookworm ship
/// it), which talks to the kernel's v1 GPIO character-device uAPI: one request and one event
/// descriptor per line. Built when pkg-config finds libgpiod 1.x (see Package.swift); with
/// libgpiod 2, LibgpiodV2Driver takes its place.
struct LibgpiodDriver: GPIODriver {
    /// Opens /dev/gpiochip* one by one (GPIOChipLocator.chipDevicePaths) instead of
    /// gpiod_chip_iter_new(): in 1.6 the iterator fails as a whole if any single chip cannot be opened.
    func chips() -> [ChipInfo] {
        GPIOChipLocator.chipDevicePaths().compactMap { path in
            let entry = (path as NSString).lastPathComponent
            guard let chip = gpiod_chip_open(path) else { return nil }
            defer { gpiod_chip_close(chip) }
            return ChipInfo(
                path: path,
                name: gpiod_chip_name(chip).map { String(cString: $0) } ?? entry,
                label: gpiod_chip_label(chip).map { String(cString: $0) } ?? "",
                lineCount: Int(gpiod_chip_num_lines(chip))
            )
        }
    }

    func open(_ chip: ChipInfo) throws(GPIOError) -> any GPIOChipSession {
        guard let handle = gpiod_chip_open(chip.path) else {
            throw .openFailed(path: chip.path, errno: errno)
        }
        return LibgpiodSession(chip: chip, handle: handle)
    }
}

/// One gpiod_chip and its requested lines.
final class LibgpiodSession: GPIOChipSession, @unchecked Sendable {
    // @unchecked: the C handles are only touched under `lock`, except readEvents, which
    // uses nothing but a file descriptor (gpiod_line_event_read_fd_multiple is a read(2)
    // plus a conversion) and never runs after close(): the reader thread closes the
    // session itself, after its last read.
    let chip: ChipInfo
    private let lock = NSLock()
    private var handle: OpaquePointer?
    private var lines: [Int: OpaquePointer] = [:]
    /// Each event descriptor's line offset, for the events read from it.
    private var fdLines: [Int32: Int] = [:]

    init(chip: ChipInfo, handle: OpaquePointer) {
        self.chip = chip
        self.handle = handle
    }

    deinit {
        close()
    }

    private func line(_ offset: Int, key: String) throws(GPIOError) -> OpaquePointer {
        guard let handle else { throw .closed }
        guard offset >= 0, offset < chip.lineCount, let line = gpiod_chip_get_line(handle, UInt32(offset)) else {
            throw .lineOutOfRange(key: key, line: offset, chip: chip)
        }
        return line
    }

    func requestEdges(_ edgeLines: [EdgeLine], consumer: String) throws(GPIOError) -> [Int32] {
        lock.lock()
        defer { lock.unlock() }
        var fds: [Int32] = []
        for edgeLine in edgeLines {
            fds.append(try requestEdges(edgeLine, consumer: consumer))
        }
        return fds
    }

    private func requestEdges(_ edgeLine: EdgeLine, consumer: String) throws(GPIOError) -> Int32 {
        let (offset, key) = (edgeLine.line, edgeLine.key)
        let line = try line(offset, key: key)
        // No ACTIVE_LOW flag: edges stay physical and the recogniser's activeLow decides
        // (see decodeEdge).
        let flags: Int32 = switch edgeLine.bias {
        case .pullUp: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .pullDown: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        case .asIs: 0
        }
        guard gpiod_line_request_both_edges_events_flags(line, consumer, flags) == 0 else {
            throw .requestFailed(key: key, line: offset, chip: chip, errno: errno)
        }
        lines[offset] = line
        let fd = gpiod_line_event_get_fd(line)
        guard fd >= 0 else {
            throw .requestFailed(key: key, line: offset, chip: chip, errno: errno)
        }
        // Non-blocking, so a spurious wake-up of poll(2) can never park the reader in read(2)
        // where close() could not wake it.
        let fl = fcntl(fd, F_GETFL)
        guard fl >= 0, fcntl(fd, F_SETFL, fl | O_NONBLOCK) == 0 else {
            throw .requestFailed(key: key, line: offset, chip: chip, errno: errno)
        }
        fdLines[fd] = offset
        return fd
    }

    func readEvents(fd: Int32, max: Int) throws(DriverErrno) -> [GPIORawEvent] {
        // The descriptor's line, under the lock: close() clears the map.
        guard let offset = lock.withLock({ fdLines[fd] }) else { throw DriverErrno(code: EBADF) }
        var buffer = [gpiod_line_event](repeating: gpiod_line_event(), count: max)
        let n = buffer.withUnsafeMutableBufferPointer { buf -> Int32 in
            guard let base = buf.baseAddress else { return 0 }
            return gpiod_line_event_read_fd_multiple(fd, base, UInt32(buf.count))
        }
        guard n >= 0 else { throw DriverErrno(code: errno) }
        return buffer.prefix(Int(n)).map { event in
            // Mapped to our mirror of the constants so decodeEdge needs no C header.
            let type = event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE)
                ? GPIOEventType.risingEdge : GPIOEventType.fallingEdge
            return GPIORawEvent(line: offset, type: type, ts: event.ts)
        }
    }

    func requestOutputs(_ levels: [LineLevel], consumer: String) throws(GPIOError) {
        lock.lock()
        defer { lock.unlock() }
        for level in levels {
            let line = try line(level.line, key: level.key)
            guard gpiod_line_request_output(line, consumer, level.value) == 0 else {
                throw .requestFailed(key: level.key, line: level.line, chip: chip, errno: errno)
            }
            lines[level.line] = line
        }
    }

    /// One line after the other: the v1 API has no call that sets lines of separate requests together.
    func setValues(_ levels: [LineLevel]) throws(GPIOError) {
        lock.lock()
        defer { lock.unlock() }
        for level in levels {
            guard handle != nil, let line = lines[level.line] else { throw .closed }
            guard gpiod_line_set_value(line, level.value) == 0 else {
                throw .writeFailed(key: level.key, line: level.line, errno: errno)
            }
        }
    }

    func close() {
        lock.lock()
        defer { lock.unlock() }
        guard let handle else { return }
        for line in lines.values { gpiod_line_release(line) }
        lines.removeAll()
        fdLines.removeAll()
        gpiod_chip_close(handle)
        self.handle = nil
    }
}

#elseif !os(Linux)

/// libgpiod exists only on Linux; elsewhere every chip lookup fails cleanly.
struct LibgpiodDriver: GPIODriver {
    func chips() -> [ChipInfo] { [] }
    func open(_ chip: ChipInfo) throws(GPIOError) -> any GPIOChipSession {
        throw .unsupportedPlatform
    }
}

#endif
