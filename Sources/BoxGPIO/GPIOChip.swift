import Foundation

/// What the kernel tells about one GPIO chip.
public struct ChipInfo: Sendable, Hashable, CustomStringConvertible {
    /// The character device, e.g. /dev/gpiochip4.
    public var path: String
    /// The kernel's name, e.g. gpiochip4. Numbers move between kernels and boards.
    public var name: String
    /// The driver's label, e.g. pinctrl-rp1 (Pi 5) or pinctrl-bcm2711 (Pi 4). Stable.
    public var label: String
    public var lineCount: Int

    public init(path: String, name: String, label: String, lineCount: Int) {
        self.path = path
        self.name = name
        self.label = label
        self.lineCount = lineCount
    }

    /// The label when there is one: it is what the config should name.
    public var displayName: String { label.isEmpty ? name : label }

    /// `gpiochip0 [pinctrl-bcm2711, 58 lines]`, the way gpiodetect shows it.
    public var summary: String { "\(name) [\(label), \(lineCount) lines]" }

    public var description: String { summary }
}

/// Finds the chip named in `[gpio] chip`: an absolute path (/dev/gpiochip4), a kernel name
/// (gpiochip4), a label (pinctrl-rp1) or "auto" (the first Raspberry Pi header chip found,
/// see `autoLabels`). A label is the robust choice: the Pi 5's RP1 chip was gpiochip4 on
/// early kernels and gpiochip0 on later ones.
public struct GPIOChipLocator: Sendable {
    let driver: any GPIODriver

    init(driver: any GPIODriver) {
        self.driver = driver
    }

    /// The chips of this machine, through the libgpiod of this build.
    public static var system: GPIOChipLocator { GPIOChipLocator(driver: systemDriver()) }

    /// Every chip that could be opened, in chip-number order. Empty without GPIO access.
    public func chips() -> [ChipInfo] {
        driver.chips()
    }

    /// Whether the machine has a GPIO character device at all, openable or not (a chip
    /// boxd may not open is a fault to show, not a reason to simulate).
    public static func anyChipPresent(devDirectory: String = "/dev") -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: devDirectory))?.contains { $0.hasPrefix("gpiochip") } ?? false
    }

    /// The GPIO character devices (gpiochipN) in `devDirectory`, in chip-number order
    /// (gpiochip2 before gpiochip10). Both drivers open them one by one from this list: a
    /// chip that cannot be opened is left out, never a failure of the whole list.
    static func chipDevicePaths(devDirectory: String = "/dev") -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: devDirectory)) ?? []
        let numbered: [(Int, String)] = entries.compactMap { entry in
            guard entry.hasPrefix("gpiochip"), let n = Int(entry.dropFirst("gpiochip".count)) else { return nil }
            return (n, entry)
        }
        return numbered.sorted { $0.0 < $1.0 }.map { devDirectory + "/" + $0.1 }
    }

    public func locate(_ spec: String) throws(GPIOError) -> ChipInfo {
        try Self.find(spec, in: driver.chips())
    }

    /// The chips that carry the 40-pin header, in the order "auto" tries them: Pi 5 / 500
    /// (RP1), Pi 4 / 400 / CM4, then Pi 3 / Zero 2 W and older.
    public static let autoLabels = ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"]

    /// The pure lookup. A path matches only a path, so "/dev/gpiochip4" never picks a chip
    /// whose label happens to be that string; otherwise the kernel name wins over the label.
    /// Two chips with the same label (twin expander boards) resolve to the lower-numbered one.
    public static func find(_ spec: String, in chips: [ChipInfo]) throws(GPIOError) -> ChipInfo {
        guard !chips.isEmpty else { throw .noChips }
        let wanted = spec.trimmingCharacters(in: .whitespaces)
        if wanted == "auto" {
            for label in autoLabels {
                if let chip = chips.first(where: { $0.label == label }) { return chip }
            }
        } else if wanted.hasPrefix("/") {
            let normalised = URL(fileURLWithPath: wanted).standardizedFileURL.path
            if let chip = chips.first(where: { $0.path == wanted || $0.path == normalised }) { return chip }
        } else if !wanted.isEmpty {
            if let chip = chips.first(where: { $0.name == wanted }) { return chip }
            if let chip = chips.first(where: { $0.label == wanted }) { return chip }
        }
        throw .noMatchingChip(spec: spec, found: chips)
    }
}

/// One configuration key that claims a line, e.g. `buttons.dose.line` = 17.
public struct LineAssignment: Sendable, Hashable {
    public var key: String
    public var line: Int
    public init(key: String, line: Int) {
        self.key = key
        self.line = line
    }
}

/// Checks that `line` exists on `chip`; `key` names the config entry in the message:
/// `buttons.dose.line: 99 is not a line of chip pinctrl-rp1 (0..53)`.
public func validateLine(_ line: Int, chip: ChipInfo, key: String) throws(GPIOError) {
    guard line >= 0, line < chip.lineCount else {
        throw .lineOutOfRange(key: key, line: line, chip: chip)
    }
}

/// Checks that no line is claimed twice, in config order, so the message names the later
/// key: `led.red: line 17 is already used by buttons.dose.line`. Needs no chip, so a
/// config can be checked on a laptop.
public func validateDistinctLines(_ assignments: [LineAssignment]) throws(GPIOError) {
    var owners: [Int: String] = [:]
    for assignment in assignments {
        if let owner = owners[assignment.line] {
            throw .lineAlreadyUsed(key: assignment.key, line: assignment.line, usedBy: owner)
        }
        owners[assignment.line] = assignment.key
    }
}

/// Both checks: every line's range first (in order), then duplicates. Call it once with the
/// buttons' and the LED's lines together to catch a clash between them.
public func validateLines(_ assignments: [LineAssignment], chip: ChipInfo) throws(GPIOError) {
    for assignment in assignments {
        try validateLine(assignment.line, chip: chip, key: assignment.key)
    }
    try validateDistinctLines(assignments)
}
