@testable import BoxGPIO
import BoxHardware
import DoseCore
import Foundation
import Testing

@Suite struct LEDColourTests {
    @Test(arguments: [
        (LEDColor.off, RGBLevels(red: false, green: false, blue: false)),
        (.white, RGBLevels(red: true, green: true, blue: true)),
        (.blue, RGBLevels(red: false, green: false, blue: true)),
        (.green, RGBLevels(red: false, green: true, blue: false)),
        (.yellow, RGBLevels(red: true, green: true, blue: false)),
        (.amber, RGBLevels(red: true, green: true, blue: false)),
        (.red, RGBLevels(red: true, green: false, blue: false)),
        (.magenta, RGBLevels(red: true, green: false, blue: true)),
    ])
    func mixing(color: LEDColor, dies: RGBLevels) {
        #expect(RGBLevels(color) == dies)
    }

    @Test func everyColourIsCovered() {
        #expect(Set(LEDColor.allCases.map { RGBLevels($0) }).count == 7) // amber == yellow
    }

    @Test func rgbLineLevelsActiveHigh() {
        let wiring = LEDWiring.rgb(red: 22, green: 23, blue: 24)
        #expect(ledLineLevels(for: .yellow, wiring: wiring, activeLow: false) == [
            LineLevel(key: "led.red", line: 22, value: 1),
            LineLevel(key: "led.green", line: 23, value: 1),
            LineLevel(key: "led.blue", line: 24, value: 0),
        ])
        #expect(ledLineLevels(for: .off, wiring: wiring, activeLow: false).map(\.value) == [0, 0, 0])
        #expect(ledLineLevels(for: .white, wiring: wiring, activeLow: false).map(\.value) == [1, 1, 1])
    }

    @Test func rgbLineLevelsCommonAnode() {
        let wiring = LEDWiring.rgb(red: 22, green: 23, blue: 24)
        #expect(ledLineLevels(for: .blue, wiring: wiring, activeLow: true).map(\.value) == [1, 1, 0])
        #expect(ledLineLevels(for: .off, wiring: wiring, activeLow: true).map(\.value) == [1, 1, 1])
    }

    @Test func singleLEDIsLitForAnyColourButOff() {
        for color in LEDColor.allCases {
            let lit: Int32 = color == .off ? 0 : 1
            #expect(ledLineLevels(for: color, wiring: .single(line: 22), activeLow: false)
                == [LineLevel(key: "led.line", line: 22, value: lit)])
            #expect(ledLineLevels(for: color, wiring: .single(line: 22), activeLow: true).map(\.value) == [1 - lit])
        }
    }
}

@Suite struct GPIOLEDTests {
    let rgb = LEDWiring.rgb(red: 22, green: 23, blue: 24)

    @Test func requestsOutputsDark() throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5])
        let led = try GPIOLED(driver: driver, chip: Chips.pi5, wiring: rgb, activeLow: false)
        defer { led.close() }
        let session = try #require(driver.sessions.first)
        #expect(session.outputs.mapValues(\.initial) == [22: 0, 23: 0, 24: 0])
        #expect(session.outputs[22]?.consumer == "boxd")
        #expect(led.color == .off)
    }

    @Test func commonAnodeStartsHigh() throws {
        let driver = SimulatedGPIO(chips: [Chips.pi4])
        let led = try GPIOLED(driver: driver, chip: Chips.pi4, wiring: rgb, activeLow: true)
        defer { led.close() }
        #expect(try #require(driver.sessions.first).outputs.mapValues(\.initial) == [22: 1, 23: 1, 24: 1])
    }

    @Test func writesMixTheColour() throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5])
        let led = try GPIOLED(driver: driver, chip: Chips.pi5, wiring: rgb, activeLow: false)
        let session = try #require(driver.sessions.first)

        try led.write(.yellow)
        #expect([22, 23, 24].map { session.level($0) } == [1, 1, 0])
        try led.write(.blue)
        #expect([22, 23, 24].map { session.level($0) } == [0, 0, 1])
        try led.write(.white)
        #expect([22, 23, 24].map { session.level($0) } == [1, 1, 1])
        #expect(led.color == .white)

        led.close()
        #expect([22, 23, 24].map { session.level($0) } == [0, 0, 0])
        #expect(session.isClosed)
        #expect(led.color == nil)
        #expect(throws: GPIOError.closed) { try led.write(.red) }
        led.close()
    }

    @Test func singleLEDThroughTheProtocol() throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5])
        let led: any LEDOutput = try GPIOLED(driver: driver, chip: Chips.pi5, wiring: .single(line: 22), activeLow: false)
        let session = try #require(driver.sessions.first)
        try led.write(.amber)
        #expect(session.level(22) == 1)
        try led.write(.off)
        #expect(session.level(22) == 0)
        #expect(session.outputs.keys.sorted() == [22])
    }

    @Test func writeFailureIsTyped() throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5])
        let led = try GPIOLED(driver: driver, chip: Chips.pi5, wiring: rgb, activeLow: false)
        defer { led.close() }
        try #require(driver.sessions.first).failSet(line: 23, errno: EIO)
        let error = #expect(throws: GPIOError.self) { try led.write(.green) }
        #expect(error?.description == "led.green: cannot set line 23: Input/output error")
    }

    @Test func badWiringIsRefusedBeforeOpening() {
        let driver = SimulatedGPIO(chips: [Chips.pi5])
        let error = #expect(throws: GPIOError.self) {
            _ = try GPIOLED(driver: driver, chip: Chips.pi5, wiring: .rgb(red: 22, green: 60, blue: 24), activeLow: false)
        }
        #expect(error?.description == "led.green: 60 is not a line of chip pinctrl-rp1 (0..53)")
        #expect(driver.sessions.isEmpty)
    }

    @Test func busyLineReleasesWhatWasTaken() throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5])
        driver.failRequest(line: 24, errno: EBUSY)
        #expect(throws: GPIOError.requestFailed(key: "led.blue", line: 24, chip: Chips.pi5, errno: EBUSY)) {
            _ = try GPIOLED(driver: driver, chip: Chips.pi5, wiring: rgb, activeLow: false)
        }
        #expect(try #require(driver.sessions.first).isClosed)
    }

    @Test func lookupByPath() throws {
        let driver = SimulatedGPIO(chips: [Chips.pi5Brcm, Chips.pi5])
        let led = try GPIOLED(locator: GPIOChipLocator(driver: driver), chip: "/dev/gpiochip4", wiring: rgb, activeLow: false)
        defer { led.close() }
        #expect(led.chip == Chips.pi5)
    }
}
