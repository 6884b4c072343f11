@testable import BoxGPIO

/// Chips as Raspberry Pi kernels name them.
enum Chips {
    static let pi4 = ChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2711", lineCount: 58)
    static let pi4Expander = ChipInfo(path: "/dev/gpiochip1", name: "gpiochip1", label: "raspberrypi-exp-gpio", lineCount: 8)
    static let pi5 = ChipInfo(path: "/dev/gpiochip4", name: "gpiochip4", label: "pinctrl-rp1", lineCount: 54)
    static let pi5Brcm = ChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "gpio-brcmstb@107d508500", lineCount: 32)
}
