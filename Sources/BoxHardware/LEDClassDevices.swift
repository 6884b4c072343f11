import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Why an LED class device cannot be driven, in words that say what to fix.
public struct LEDClassError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// An LED class device in sysfs (/sys/class/leds/NAME) whose `pattern` trigger is selected.
/// boxd never writes `brightness` or `trigger`: either would end the trigger, and the
/// `pattern` and `repeat` files it makes, which the udev rule gave group gpio, with it.
public final class SysfsLEDClass: LEDClassDevice {
    public let name: String
    public let maxBrightness: Int
    public let directory: String
    /// `pattern` and `repeat`, open for writing (written at offset 0 each time).
    private let files: Mutex<(pattern: Int32, repeatFile: Int32)>

    public init(name: String, root: String = "/sys/class/leds") throws(LEDClassError) {
        let directory = root + "/" + name
        guard let trigger = Self.read(directory + "/trigger") else {
            throw LEDClassError("no LED class device \"\(name)\" in \(root) (on a Pi: dtoverlay=gpio-led,gpio=N,label=\(name),"
                                + "trigger=pattern in config.txt)")
        }
        // The selected trigger is the one in brackets: "none [pattern] timer ...".
        guard trigger.split(whereSeparator: \.isWhitespace).contains("[pattern]") else {
            throw LEDClassError("the LED \"\(name)\" does not run the kernel's pattern trigger (modprobe ledtrig-pattern; "
                                + "udev/99-dosetap-led.rules selects it)")
        }
        guard let max = Self.read(directory + "/max_brightness").flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
              max > 0 else {
            throw LEDClassError("the LED \"\(name)\" has no usable max_brightness")
        }
        self.name = name
        self.directory = directory
        maxBrightness = max
        let pattern = try Self.open(directory + "/pattern")
        let repeatFile: Int32
        do {
            repeatFile = try Self.open(directory + "/repeat")
        } catch {
            Glibc.close(pattern)
            throw error
        }
        files = Mutex((pattern, repeatFile))
    }

    deinit {
        files.withLock { f in
            Glibc.close(f.pattern)
            Glibc.close(f.repeatFile)
        }
    }

    public func write(pattern: String, repeatCount: Int) throws {
        try files.withLock { f throws(LEDClassError) in
            try put(pattern, f.pattern, "pattern")
            try put(String(repeatCount), f.repeatFile, "repeat")
        }
    }

    /// One write of the whole value: sysfs takes an attribute in a single write.
    private func put(_ text: String, _ fd: Int32, _ file: String) throws(LEDClassError) {
        let count = text.utf8.count
        let n = text.withCString { pwrite(fd, $0, count, 0) }
        guard n == count else {
            throw LEDClassError("writing \(directory)/\(file): \(n < 0 ? String(cString: strerror(errno)) : "\(n) of \(count) bytes")"
                                + " (the trigger was changed? the LED keeps its last pattern)")
        }
    }

    private static func open(_ path: String) throws(LEDClassError) -> Int32 {
        let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC)
        guard fd < 0 else { return fd }
        let code = errno
        let hint = switch code {
        case EACCES: " (install udev/99-dosetap-led.rules: it gives group gpio these files)"
        case EROFS: " (the unit's ReadWritePaths= lists /sys/class/leds/dosetap and dosetap-red, -green, -blue; add another name in a drop-in)"
        default: ""
        }
        throw LEDClassError("cannot write \(path): \(String(cString: strerror(code)))\(hint)")
    }

    private static func read(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}

/// An LED class device without a kernel (`--hardware sim`, tests): keeps what was written.
public final class SimulatedLEDClass: LEDClassDevice {
    public struct Written: Sendable, Equatable {
        public var pattern: String
        public var repeatCount: Int
        public init(pattern: String, repeatCount: Int) {
            self.pattern = pattern
            self.repeatCount = repeatCount
        }
    }

    public let name: String
    public let maxBrightness: Int
    private let state = Mutex<[Written]>([])

    public init(name: String, maxBrightness: Int = 1) {
        self.name = name
        self.maxBrightness = maxBrightness
    }

    public func write(pattern: String, repeatCount: Int) throws {
        state.withLock { $0.append(Written(pattern: pattern, repeatCount: repeatCount)) }
    }

    /// Every pattern written, oldest first.
    public var written: [Written] { state.withLock { $0 } }
    public var last: Written? { state.withLock { $0.last } }
}
