import DoseCore

/// The text a pattern is written as to an LED class device's `pattern` file (the kernel's
/// `pattern` trigger, Documentation/leds/ledtrig-pattern): "brightness duration" pairs.
/// Each segment is two pairs, the level for its duration and the same level for 0 ms, so
/// the trigger steps between levels instead of fading.
public enum KernelPattern {
    /// How long one pair of a steady LED holds: the trigger needs two pairs and restarts
    /// them when they end, so a steady LED costs one timer an hour, in the kernel.
    public static let holdMs = 3_600_000

    /// `lit`: whether this die shows the pattern's colour (an unlit die stays dark).
    /// `once`: a flash that plays one pass; it ends dark even when its last segment is lit.
    public static func text(_ p: LEDPattern, lit: Bool, brightness: Int, once: Bool) -> String {
        let on = lit ? brightness : 0
        if on == 0 || p.segments.isEmpty { return pairs([(0, holdMs)]) }
        if p.segments.count == 1 && p.repeats && !once { return pairs([(on, holdMs)]) }
        var steps = p.segments.enumerated().map { (i, ms) in (i % 2 == 0 ? on : 0, ms) }
        if once && steps.count % 2 == 1 { steps.append((0, 0)) }
        return pairs(steps)
    }

    private static func pairs(_ steps: [(level: Int, ms: Int)]) -> String {
        steps.map { "\($0.level) \($0.ms) \($0.level) 0" }.joined(separator: " ")
    }
}

/// One LED class device, its `pattern` trigger running (/sys/class/leds/NAME).
public protocol LEDClassDevice: Sendable {
    var name: String { get }
    var maxBrightness: Int { get }
    /// Writes the pattern, then the repeat count (-1: until the next pattern), which starts
    /// the pattern from its first step.
    func write(pattern: String, repeatCount: Int) throws
}

/// The box's LED as LED class devices (one LED, or one per colour of an RGB LED) that the
/// kernel animates: boxd writes each pattern once and sleeps until the phase changes.
public final class KernelLED: LEDPatternOutput {
    public enum Dies: Sendable {
        case single(any LEDClassDevice)
        case rgb(red: any LEDClassDevice, green: any LEDClassDevice, blue: any LEDClassDevice)
    }

    public let dies: Dies

    public init(_ dies: Dies) {
        self.dies = dies
    }

    public var devices: [any LEDClassDevice] {
        switch dies {
        case .single(let d): [d]
        case .rgb(let r, let g, let b): [r, g, b]
        }
    }

    public func play(_ pattern: LEDPattern, once: Bool) throws {
        let lit: [Bool] = switch dies {
        case .single: [pattern.color != .off]
        case .rgb:
            { l in [l.red, l.green, l.blue] }(RGBLevels(pattern.color))
        }
        var failure: (any Error)?
        for (device, lit) in zip(devices, lit) {
            // Every die gets its pattern even when one fails: a dead die must not freeze the others.
            do {
                try device.write(pattern: KernelPattern.text(pattern, lit: lit, brightness: device.maxBrightness, once: once),
                                 repeatCount: once ? 1 : -1)
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }

    /// A steady colour (or dark).
    public func write(_ color: LEDColor) throws {
        try play(LEDPattern(name: "steady", color: color, segments: color == .off ? [] : [1], repeats: true), once: false)
    }
}
