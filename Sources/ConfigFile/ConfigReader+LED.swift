import TOMLKit

extension BoxConfig {
    /// The names an LED class device of `[led]` may have: the packaged unit lets boxd write to
    /// these devices only (its ReadWritePaths=), and the udev rule gives group gpio their files.
    public static let ledClassNames = ["dosetap", "dosetap-red", "dosetap-green", "dosetap-blue"]
}

extension Reader {
    /// `[led]`: GPIO lines (`line`, or `red`, `green` and `blue`) that boxd drives itself, or
    /// LED class devices (`class`, or `class_red`, `class_green` and `class_blue`) that the
    /// kernel animates; one kind, and either one LED or all three colours.
    mutating func ledSection(_ led: TOMLTable?) throws(ConfigError) -> (BoxConfig.LEDWiring?, activeLow: Bool) {
        let activeLow = try bool(led, "led", "active_low", default: false)
        guard let led else { return (nil, activeLow) }
        let lineKeys = ["line", "red", "green", "blue"].filter { led[$0] != nil }
        let classKeys = ["class", "class_red", "class_green", "class_blue"].filter { led[$0] != nil }
        if !lineKeys.isEmpty && !classKeys.isEmpty {
            throw ConfigError("led", "give GPIO lines (\(lineKeys.joined(separator: ", "))) or LED class devices "
                              + "(\(classKeys.joined(separator: ", "))), not both")
        }
        if !classKeys.isEmpty {
            if activeLow {
                throw ConfigError("led.active_low", "is for LEDs on GPIO lines; an LED class device's polarity is set where it is "
                                  + "defined (the gpio-led overlay's active_low)")
            }
            return (try classWiring(led, keys: classKeys), false)
        }
        if led["line"] != nil {
            if lineKeys.count > 1 {
                throw ConfigError("led", "give either line (a single LED) or red, green and blue (an RGB LED), not both")
            }
            return (.single(line: try line(led, "led", "line")), activeLow)
        }
        guard !lineKeys.isEmpty else { return (nil, activeLow) }
        for c in ["red", "green", "blue"] where led[c] == nil {
            throw ConfigError("led.\(c)", "is required for an RGB LED (or give led.line for a single LED)")
        }
        return (.rgb(red: try line(led, "led", "red"), green: try line(led, "led", "green"), blue: try line(led, "led", "blue")), activeLow)
    }

    private mutating func classWiring(_ led: TOMLTable, keys: [String]) throws(ConfigError) -> BoxConfig.LEDWiring {
        if led["class"] != nil {
            if keys.count > 1 {
                throw ConfigError("led", "give either class (a single LED) or class_red, class_green and class_blue (an RGB LED), not both")
            }
            return .classSingle(name: try className(led, "class"))
        }
        for c in ["class_red", "class_green", "class_blue"] where led[c] == nil {
            throw ConfigError("led.\(c)", "is required for an RGB LED of LED class devices (or give led.class for a single LED)")
        }
        let (r, g, b) = (try className(led, "class_red"), try className(led, "class_green"), try className(led, "class_blue"))
        guard Set([r, g, b]).count == 3 else {
            throw ConfigError("led", "class_red, class_green and class_blue must name three devices, not \(r), \(g) and \(b)")
        }
        return .classRGB(red: r, green: g, blue: b)
    }

    /// A name under /sys/class/leds that the packaged rule and unit cover.
    private mutating func className(_ led: TOMLTable, _ key: String) throws(ConfigError) -> String {
        let name = try string(led, "led", key, default: "")
        guard BoxConfig.ledClassNames.contains(name) else {
            throw ConfigError("led.\(key)", "\"\(name)\" is not one of \(BoxConfig.ledClassNames.joined(separator: ", ")): the packaged "
                              + "unit lets boxd write only to these LEDs (label the overlay's LED so)")
        }
        return name
    }
}
