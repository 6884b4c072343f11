import DoseCore
import Foundation
import Plot

/// The evenings before (#33): the nights with alcohol logged the evening before beside those
/// without, each night's Dose 1 → Dose 2 interval a dot on one minutes axis with the window
/// drawn across both rows, and each row's count and on-time rate. Side by side, never
/// compared: no difference is computed and no conclusion drawn; that is the clinician's.
struct EveningChart {
    let nights: [NightFacts]

    static let left = 170.0, right = 712.0, rowHeight = 34.0, top = 14.0
    static let lowest = IntervalChart.lowest, highest = IntervalChart.highest

    static func x(_ minutes: Double) -> Double {
        let m = min(max(minutes, lowest), highest)
        return left + (m - lowest) / (highest - lowest) * (right - left)
    }

    /// The closed nights with Dose 1, split by whether alcohol was logged the evening before.
    var groups: [(name: String, cls: String, nights: [NightFacts])] {
        let counted = nights.filter { $0.isClosed && $0.dose1 != nil }
        return [("No alcohol logged", "none", counted.filter { !($0.evening?.hadAlcohol ?? false) }),
                ("Alcohol logged", "alcohol", counted.filter { $0.evening?.hadAlcohol ?? false })]
    }

    /// "12 nights, on time 7 of 11 with Dose 2 (63.6%)".
    static func figures(_ nights: [NightFacts]) -> String {
        let taken = nights.filter { $0.intervalMinutes != nil }
        let onTime = taken.filter(\.onTime).count
        let rate = taken.isEmpty ? "" : " (" + ClinicianReport.percent(100 * Double(onTime) / Double(taken.count)) + ")"
        return "\(nights.count) night\(nights.count == 1 ? "" : "s"), on time \(onTime) of \(taken.count) with Dose 2\(rate)"
    }

    var node: BodyNode {
        let rules = DoseConstants.box.window
        let groups = self.groups
        let bottom = Self.top + Self.rowHeight * Double(groups.count)
        var nodes: [BodyNode] = [
            svg("title", [:], [.text("Dose 1 to Dose 2 intervals of the nights with and without alcohol logged the evening before")]),
            svg("rect", ["class": "window", "x": f(Self.x(rules.openMin)), "y": f(Self.top), "width": f(Self.x(rules.closeMin) - Self.x(rules.openMin)),
                         "height": f(bottom - Self.top), "fill": "#dcefd9"]),
        ]
        for m in stride(from: rules.openMin, through: rules.closeMin, by: Double(DoseConstants.box.planner.nudgeStepMin) * 2) {
            nodes.append(svg("text", ["x": f(Self.x(m)), "y": f(bottom + 11), "text-anchor": "middle"], [.text(DoseConstants.number(m))]))
        }
        for (i, g) in groups.enumerated() {
            let y = Self.top + Self.rowHeight * (Double(i) + 0.5)
            nodes.append(svg("text", ["x": "4", "y": f(y - 3)], [.text(g.name)]))
            nodes.append(svg("text", ["class": "figures", "x": "4", "y": f(y + 9)], [.text(Self.figures(g.nights))]))
            nodes.append(svg("line", ["x1": f(Self.left), "x2": f(Self.right), "y1": f(y), "y2": f(y), "stroke": "#bbb", "stroke-width": "0.5"]))
            for n in g.nights {
                guard let m = n.intervalMinutes else { continue }
                nodes.append(svg("circle", ["class": "evening \(g.cls)\(n.onTime ? " on-time" : "")", "cx": f(Self.x(m)), "cy": f(y), "r": "3.5",
                                            "fill": n.onTime ? "#1b7f2a" : "#2456b3", "fill-opacity": "0.75"]))
            }
        }
        return svg("svg", ["id": "evening-chart", "viewBox": "0 0 720 \(f(bottom + 16))", "role": "img", "xmlns": "http://www.w3.org/2000/svg"],
                   nodes)
    }
}
