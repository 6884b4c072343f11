import DoseCore
import Foundation
import Plot

typealias BodyNode = Node<HTML.BodyContext>

/// An SVG element: name, attributes (numbers and fixed names only: Plot does not escape
/// attribute values) and children.
func svg(_ name: String, _ attributes: KeyValuePairs<String, String>, _ children: [BodyNode] = []) -> BodyNode {
    .element(named: name, nodes: attributes.map { .attribute(named: $0.key, value: $0.value) } + children)
}

/// A coordinate, rounded to 0.1 so the page is the same on every machine.
func f(_ v: Double) -> String { String(format: "%.1f", v) }

/// One column per session date of the range; the y axis is minutes after Dose 1, the
/// window drawn as a band, each night's target as a dash and its Dose 2 as a dot.
struct IntervalChart {
    let nights: [NightFacts]
    let from: String
    let to: String

    static let width = 720.0, height = 250.0
    static let left = 44.0, right = 712.0, top = 8.0, bottom = 214.0
    /// The y axis: early overrides (down to the button's floor, 120 min) and late ones fit, 30
    /// minutes past the close.
    static let lowest = DoseConstants.box.safety.dose2ButtonFloorMin, highest = DoseConstants.box.window.closeMin + 30

    var dates: [String] {
        var out: [String] = []
        var d = from
        while d <= to, out.count < 3660, let next = SessionDate.adding(days: 1, to: d) {
            out.append(d)
            d = next
        }
        return out
    }

    static func y(_ minutes: Double) -> Double {
        let m = min(max(minutes, lowest), highest)
        return top + (highest - m) / (highest - lowest) * (bottom - top)
    }

    var node: BodyNode {
        let rules = DoseConstants.box.window
        let dates = self.dates
        let step = (Self.right - Self.left) / Double(max(dates.count, 1))
        func x(_ i: Int) -> Double { Self.left + step * (Double(i) + 0.5) }
        let column = Dictionary(uniqueKeysWithValues: dates.enumerated().map { ($0.element, $0.offset) })

        var nodes: [BodyNode] = [
            svg("title", [:], [.text("Minutes from Dose 1 to Dose 2 for each night, against the \(DoseConstants.box.windowText)-minute window")]),
            svg("rect", ["class": "window", "x": f(Self.left), "y": f(Self.y(rules.closeMin)), "width": f(Self.right - Self.left),
                         "height": f(Self.y(rules.openMin) - Self.y(rules.closeMin)), "fill": "#dcefd9"]),
        ]
        // A grid line per target step (165, 180, … 225 fall on it).
        for m in stride(from: rules.openMin, through: rules.closeMin, by: Double(DoseConstants.box.planner.nudgeStepMin)) {
            nodes.append(svg("line", ["class": "grid", "x1": f(Self.left), "x2": f(Self.right), "y1": f(Self.y(m)), "y2": f(Self.y(m)),
                                      "stroke": "#9bb89a", "stroke-width": "0.5"]))
            nodes.append(svg("text", ["x": f(Self.left - 4), "y": f(Self.y(m) + 3), "text-anchor": "end"], [.text(DoseConstants.number(m))]))
        }
        let labelEvery = max(1, Int((Double(dates.count) / 10).rounded(.up)))
        for (i, d) in dates.enumerated() where i % labelEvery == 0 || i == dates.count - 1 {
            nodes.append(svg("text", ["x": f(x(i)), "y": f(Self.bottom + 14), "text-anchor": "middle"], [.text(String(d.dropFirst(5)))]))
        }
        nodes.append(svg("text", ["x": "4", "y": f(Self.top + 8)], [.text("min")]))

        for n in nights {
            guard let i = column[n.sessionDate] else { continue }
            let cx = x(i)
            nodes.append(svg("line", ["class": "target", "x1": f(cx - min(7, step / 2)), "x2": f(cx + min(7, step / 2)),
                                      "y1": f(Self.y(Double(n.targetMinutes))), "y2": f(Self.y(Double(n.targetMinutes))),
                                      "stroke": "#333", "stroke-width": "1.5", "stroke-dasharray": "3 2"]))
            if let interval = n.intervalMinutes {
                let kind = n.onTime ? "on-time" : (n.tookDose2InWindow(rules) ? "in-window" : "outside")
                let colour = n.onTime ? "#1b7f2a" : (kind == "in-window" ? "#2456b3" : "#c0161b")
                nodes.append(svg("circle", ["class": "dose2 \(kind)", "cx": f(cx), "cy": f(Self.y(interval)), "r": "4.5", "fill": colour],
                                 [svg("title", [:], [.text("\(n.sessionDate): \(Int(interval.rounded())) min, target \(n.targetMinutes)")])]))
            } else if n.dose1 != nil && n.isClosed {
                nodes.append(svg("text", ["class": n.skipped ? "skipped" : "no-dose2", "x": f(cx), "y": f(Self.y(Self.lowest) - 4),
                                          "text-anchor": "middle", "fill": "#c0161b"],
                                 [.text(n.skipped ? "S" : "×"), svg("title", [:], [.text("\(n.sessionDate): \(n.skipped ? "skipped" : "no Dose 2")")])]))
            }
        }
        return svg("svg", ["id": "interval-chart", "viewBox": "0 0 \(Int(Self.width)) \(Int(Self.height))", "role": "img",
                           "xmlns": "http://www.w3.org/2000/svg"], nodes)
    }
}

/// The nights with Dose 1 as one bar, split by how each ended, with the counts beside it.
struct OutcomeBar {
    let nights: [NightFacts]

    enum Outcome: String, CaseIterable {
        case onTime = "on-time", inWindow = "in-window", outside, skipped, noDose2 = "no-dose2"
        var label: String {
            switch self {
            case .onTime: "on time"
            case .inWindow: "in the window, off target"
            case .outside: "outside the window (override)"
            case .skipped: "skipped"
            case .noDose2: "no Dose 2"
            }
        }
        var colour: String {
            switch self {
            case .onTime: "#1b7f2a"
            case .inWindow: "#2456b3"
            case .outside: "#c0161b"
            case .skipped: "#e0a000"
            case .noDose2: "#777"
            }
        }
    }

    static func outcome(_ n: NightFacts) -> Outcome {
        if n.intervalMinutes != nil {
            return n.onTime ? .onTime : (n.tookDose2InWindow(DoseConstants.box.window) ? .inWindow : .outside)
        }
        return n.skipped ? .skipped : .noDose2
    }

    var node: BodyNode {
        let counted = nights.filter { $0.isClosed && $0.dose1 != nil }
        let counts = Outcome.allCases.map { o in (o, counted.filter { Self.outcome($0) == o }.count) }
        let total = Double(max(counted.count, 1))
        var nodes: [BodyNode] = [svg("title", [:], [.text("How the \(counted.count) nights with Dose 1 ended")])]
        var x = 4.0
        for (o, n) in counts where n > 0 {
            let w = 712 * Double(n) / total
            nodes.append(svg("rect", ["class": "outcome \(o.rawValue)", "data-count": "\(n)", "x": f(x), "y": "4", "width": f(w), "height": "22",
                                      "fill": o.colour]))
            x += w
        }
        for (i, (o, n)) in counts.enumerated() {
            let lx = 4 + Double(i % 3) * 240, ly = 44 + Double(i / 3) * 16
            nodes.append(svg("rect", ["x": f(lx), "y": f(ly - 9), "width": "10", "height": "10", "fill": o.colour]))
            nodes.append(svg("text", ["x": f(lx + 14), "y": f(ly)], [.text("\(o.label): \(n)")]))
        }
        return svg("svg", ["id": "outcome-bar", "viewBox": "0 0 720 76", "role": "img", "xmlns": "http://www.w3.org/2000/svg"], nodes)
    }
}
