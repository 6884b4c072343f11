import Foundation

/// Everything that can go wrong between boxd and the GPIO chip. Every case has a message
/// meant for the person setting the box up (`boxctl doctor`, the journal, the fault list).
public enum GPIOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No /dev/gpiochip* could be opened at all.
    case noChips
    /// Chips exist, but none has this path, name or label.
    case noMatchingChip(spec: String, found: [ChipInfo])
    /// A configured line number is outside the chip's range.
    case lineOutOfRange(key: String, line: Int, chip: ChipInfo)
    /// Two configuration keys name the same line.
    case lineAlreadyUsed(key: String, line: Int, usedBy: String)
    /// gpiod_chip_open failed for a chip the enumeration had found.
    case openFailed(path: String, errno: Int32)
    /// The kernel refused to hand a line over (busy, bad flags, permissions).
    case requestFailed(key: String, line: Int, chip: ChipInfo, errno: Int32)
    /// Setting an output line failed.
    case writeFailed(key: String, line: Int, errno: Int32)
    /// Reading a button line's events failed; the edge stream has ended.
    case readFailed(button: String, line: Int, errno: Int32)
    /// The kernel reported the line's event descriptor as broken (POLLERR/POLLHUP/POLLNVAL).
    case lineLost(button: String, line: Int)
    /// A plain system call (poll, pipe) failed.
    case systemCallFailed(call: String, errno: Int32)
    /// The lines were already released by `close()`.
    case closed
    /// libgpiod is Linux-only.
    case unsupportedPlatform

    public var description: String {
        switch self {
        case .noChips:
            return "no GPIO chip found (is /dev/gpiochip* present and readable by group gpio?)"
        case .noMatchingChip(let spec, let found):
            let list = found.map(\.summary).joined(separator: ", ")
            if spec == "auto" {
                let labels = GPIOChipLocator.autoLabels.joined(separator: ", ")
                return "no GPIO chip matches 'auto' (looked for \(labels); found: \(list))"
            }
            return "no GPIO chip matches '\(spec)' (found: \(list))"
        case .lineOutOfRange(let key, let line, let chip):
            let range = chip.lineCount > 0 ? "0..\(chip.lineCount - 1)" : "it has no lines"
            return "\(key): \(line) is not a line of chip \(chip.displayName) (\(range))"
        case .lineAlreadyUsed(let key, let line, let usedBy):
            return "\(key): line \(line) is already used by \(usedBy)"
        case .openFailed(let path, let code):
            return "cannot open GPIO chip \(path): \(errnoText(code))\(hint(code))"
        case .requestFailed(let key, let line, let chip, let code):
            return "\(key): cannot request line \(line) of chip \(chip.displayName): \(errnoText(code))\(hint(code))"
        case .writeFailed(let key, let line, let code):
            return "\(key): cannot set line \(line): \(errnoText(code))"
        case .readFailed(let button, let line, let code):
            return "button \(button) (line \(line)): reading events failed: \(errnoText(code))"
        case .lineLost(let button, let line):
            return "button \(button) (line \(line)): the kernel closed the event descriptor"
        case .systemCallFailed(let call, let code):
            return "\(call) failed: \(errnoText(code))"
        case .closed:
            return "the GPIO lines were already released"
        case .unsupportedPlatform:
            return "GPIO through libgpiod is only available on Linux"
        }
    }
}

func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// The two errno values people actually hit while wiring a box, with what to do about them.
private func hint(_ code: Int32) -> String {
    switch code {
    case EACCES, EPERM: " (is boxd in group gpio, and does the udev rule give gpio rw on /dev/gpiochip*?)"
    case EBUSY: " (another program holds the line: see the consumer column of `gpioinfo`)"
    default: ""
    }
}
