import DoseCore

/// Which dies of an RGB LED are lit for a colour. Plain on/off lines cannot mix shades, so
/// amber is red+green like yellow; the patterns tell them apart by rhythm, not colour.
public struct RGBLevels: Sendable, Hashable {
    public var red: Bool
    public var green: Bool
    public var blue: Bool

    public init(red: Bool, green: Bool, blue: Bool) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public init(_ color: LEDColor) {
        switch color {
        case .off: self.init(red: false, green: false, blue: false)
        case .white: self.init(red: true, green: true, blue: true)
        case .blue: self.init(red: false, green: false, blue: true)
        case .green: self.init(red: false, green: true, blue: false)
        case .yellow, .amber: self.init(red: true, green: true, blue: false)
        case .red: self.init(red: true, green: false, blue: false)
        case .magenta: self.init(red: true, green: false, blue: true)
        }
    }
}
