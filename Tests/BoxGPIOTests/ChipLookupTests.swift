@testable import BoxGPIO
import Foundation
import Testing

@Suite struct ChipLookupTests {
    let pi5Chips = [Chips.pi5Brcm, Chips.pi5]

    @Test func findsByLabel() throws {
        #expect(try GPIOChipLocator.find("pinctrl-rp1", in: pi5Chips) == Chips.pi5)
        #expect(try GPIOChipLocator.find("pinctrl-bcm2711", in: [Chips.pi4, Chips.pi4Expander]) == Chips.pi4)
    }

    @Test func findsByName() throws {
        #expect(try GPIOChipLocator.find("gpiochip4", in: pi5Chips) == Chips.pi5)
        #expect(try GPIOChipLocator.find(" gpiochip0 ", in: pi5Chips) == Chips.pi5Brcm)
    }

    @Test func findsByPath() throws {
        #expect(try GPIOChipLocator.find("/dev/gpiochip4", in: pi5Chips) == Chips.pi5)
        #expect(try GPIOChipLocator.find("/dev/./gpiochip4", in: pi5Chips) == Chips.pi5)
    }

    @Test func pathMatchesOnlyPaths() {
        // "gpiochip4" without /dev/ is a name; "/gpiochip4" is a path that does not exist.
        #expect(throws: GPIOError.self) { try GPIOChipLocator.find("/gpiochip4", in: pi5Chips) }
    }

    /// The Pi 5 on later kernels has gpiochip0..gpiochip13: gpiochip10 must not come before
    /// gpiochip2, or "auto" could settle on another chip first; other entries are not chips.
    @Test func chipDevicesComeInNumberOrder() throws {
        let dev = FileManager.default.temporaryDirectory.appendingPathComponent("chips-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dev, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dev) }
        for name in ["gpiochip10", "gpiochip2", "gpiochip0", "gpiochipX", "gpiomem", "ttyS0"] {
            #expect(FileManager.default.createFile(atPath: dev + "/" + name, contents: nil))
        }
        #expect(GPIOChipLocator.chipDevicePaths(devDirectory: dev) == [dev + "/gpiochip0", dev + "/gpiochip2", dev + "/gpiochip10"])
        #expect(GPIOChipLocator.chipDevicePaths(devDirectory: dev + "/missing").isEmpty)
    }

    @Test func nameWinsOverLabel() throws {
        let odd = ChipInfo(path: "/dev/gpiochip9", name: "gpiochip9", label: "gpiochip4", lineCount: 8)
        #expect(try GPIOChipLocator.find("gpiochip4", in: [odd, Chips.pi5]) == Chips.pi5)
    }

    @Test func duplicateLabelsTakeTheFirstChip() throws {
        let twin = ChipInfo(path: "/dev/gpiochip5", name: "gpiochip5", label: "pinctrl-rp1", lineCount: 54)
        #expect(try GPIOChipLocator.find("pinctrl-rp1", in: [Chips.pi5, twin]) == Chips.pi5)
    }

    @Test func autoPicksTheHeaderChip() throws {
        #expect(try GPIOChipLocator.find("auto", in: pi5Chips) == Chips.pi5)
        #expect(try GPIOChipLocator.find("auto", in: [Chips.pi4, Chips.pi4Expander]) == Chips.pi4)
        let pi3 = ChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2835", lineCount: 54)
        #expect(try GPIOChipLocator.find("auto", in: [pi3]) == pi3)
        let error = #expect(throws: GPIOError.self) { try GPIOChipLocator.find("auto", in: [Chips.pi4Expander]) }
        #expect(error?.description == "no GPIO chip matches 'auto' (looked for pinctrl-rp1, pinctrl-bcm2711, pinctrl-bcm2835; found: gpiochip1 [raspberrypi-exp-gpio, 8 lines])")
    }

    @Test func missingChipListsWhatWasFound() {
        let error = #expect(throws: GPIOError.self) { try GPIOChipLocator.find("pinctrl-rp1", in: [Chips.pi4]) }
        #expect(error?.description == "no GPIO chip matches 'pinctrl-rp1' (found: gpiochip0 [pinctrl-bcm2711, 58 lines])")
    }

    @Test func missingChipListsEveryChip() {
        let error = #expect(throws: GPIOError.self) {
            try GPIOChipLocator.find("pinctrl-rp1", in: [Chips.pi4, Chips.pi4Expander])
        }
        #expect(error?.description == "no GPIO chip matches 'pinctrl-rp1' (found: gpiochip0 [pinctrl-bcm2711, 58 lines], gpiochip1 [raspberrypi-exp-gpio, 8 lines])")
    }

    @Test func noChipsAtAll() {
        let error = #expect(throws: GPIOError.self) { try GPIOChipLocator.find("pinctrl-rp1", in: []) }
        #expect(error == .noChips)
        #expect(error?.description == "no GPIO chip found (is /dev/gpiochip* present and readable by group gpio?)")
    }

    @Test func emptySpecMatchesNothing() {
        #expect(throws: GPIOError.noMatchingChip(spec: "", found: [Chips.pi4])) {
            try GPIOChipLocator.find("", in: [Chips.pi4])
        }
    }

    @Test func locatorUsesTheDriversChips() throws {
        let locator = GPIOChipLocator(driver: SimulatedGPIO(chips: pi5Chips))
        #expect(locator.chips() == pi5Chips)
        #expect(try locator.locate("pinctrl-rp1") == Chips.pi5)
        let none = GPIOChipLocator(driver: SimulatedGPIO(chips: []))
        #expect(throws: GPIOError.noChips) { try none.locate("pinctrl-rp1") }
    }

    @Test func systemLocatorWithoutChipsDoesNotCrash() {
        // This machine has no GPIO chip: the real driver must come back empty, not trap.
        let chips = GPIOChipLocator.system.chips()
        if chips.isEmpty {
            #expect(throws: GPIOError.noChips) { try GPIOChipLocator.system.locate("pinctrl-rp1") }
            #expect(throws: GPIOError.noChips) {
                _ = try GPIOButtons(chip: "pinctrl-rp1", buttons: [ButtonLine(name: "dose", line: 17, activeLow: true)])
            }
            #expect(throws: GPIOError.noChips) {
                _ = try GPIOLED(chip: "pinctrl-rp1", wiring: .single(line: 22))
            }
        }
    }
}

@Suite struct LineValidationTests {
    @Test func lineOutOfRange() {
        let error = #expect(throws: GPIOError.self) { try validateLine(99, chip: Chips.pi5, key: "buttons.dose.line") }
        #expect(error?.description == "buttons.dose.line: 99 is not a line of chip pinctrl-rp1 (0..53)")
    }

    @Test func negativeLineAndEdges() throws {
        let error = #expect(throws: GPIOError.self) { try validateLine(-1, chip: Chips.pi4, key: "led.red") }
        #expect(error?.description == "led.red: -1 is not a line of chip pinctrl-bcm2711 (0..57)")
        try validateLine(0, chip: Chips.pi5, key: "x")
        try validateLine(53, chip: Chips.pi5, key: "x")
        #expect(throws: GPIOError.self) { try validateLine(54, chip: Chips.pi5, key: "x") }
    }

    @Test func unlabelledChipIsNamed() {
        let bare = ChipInfo(path: "/dev/gpiochip2", name: "gpiochip2", label: "", lineCount: 4)
        let error = #expect(throws: GPIOError.self) { try validateLine(4, chip: bare, key: "led.line") }
        #expect(error?.description == "led.line: 4 is not a line of chip gpiochip2 (0..3)")
    }

    @Test func duplicateAcrossButtonsAndLED() {
        let dose = ButtonLine(name: "dose", line: 17, activeLow: true)
        let led = LEDWiring.rgb(red: 17, green: 23, blue: 24)
        let error = #expect(throws: GPIOError.self) {
            try validateLines([dose.assignment] + led.assignments, chip: Chips.pi5)
        }
        #expect(error?.description == "led.red: line 17 is already used by buttons.dose.line")
    }

    @Test func duplicateBetweenButtons() {
        let lines = [ButtonLine(name: "dose", line: 17, activeLow: true), ButtonLine(name: "events", line: 17, activeLow: true)]
        let error = #expect(throws: GPIOError.self) { try validateDistinctLines(lines.map(\.assignment)) }
        #expect(error?.description == "buttons.events.line: line 17 is already used by buttons.dose.line")
    }

    @Test func duplicateWithinTheLED() {
        let error = #expect(throws: GPIOError.self) {
            try validateDistinctLines(LEDWiring.rgb(red: 22, green: 23, blue: 22).assignments)
        }
        #expect(error?.description == "led.blue: line 22 is already used by led.red")
    }

    @Test func theExampleConfigIsValid() throws {
        let buttons = [ButtonLine(name: "dose", line: 17, activeLow: true), ButtonLine(name: "events", line: 27, activeLow: true)]
        let led = LEDWiring.rgb(red: 22, green: 23, blue: 24)
        for chip in [Chips.pi4, Chips.pi5] {
            try validateLines(buttons.map(\.assignment) + led.assignments, chip: chip)
        }
    }

    @Test func buttonDefaults() {
        #expect(ButtonLine(name: "dose", line: 17, activeLow: true).bias == .pullUp)
        #expect(ButtonLine(name: "dose", line: 17, activeLow: false).bias == .pullDown)
        #expect(ButtonLine(name: "events", line: 27, activeLow: true).key == "buttons.events.line")
    }
}
