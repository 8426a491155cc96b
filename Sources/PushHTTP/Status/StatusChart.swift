import PushProtocol

/// The status page's chart: finished tries per minute for the last hour as stacked SVG bars
/// (one `<g class="minute">` per minute, a `<rect class="bar <outcome>">` per outcome with a
/// count, a `<title>` each for the hover text), with the hour's totals as the legend.
enum StatusChart {
    static func color(_ outcome: TryOutcome) -> String {
        switch outcome {
        case .delivered: "#2f9e5b"
        case .retried: "#e0a020"
        case .dead: "#d64545"
        case .rejected: "#8a5cd6"
        case .expired: "#9aa3ad"
        case .orphaned: "#5b6b7d"
        }
    }

    private static let width = 1100.0, height = 220.0
    private static let left = 44.0, right = 8.0, top = 10.0, bottom = 24.0

    static func section(_ minutes: [NodeStatus.Minute]) -> String {
        var totals: [TryOutcome: Int] = [:]
        for minute in minutes { for (outcome, count) in minute.stacked { totals[outcome, default: 0] += count } }
        let legend = TryOutcome.allCases.map { outcome in
            let name = outcome.rawValue
            return "<li data-outcome=\"\(name)\"><span class=\"swatch sw-\(name)\"></span>\(name) <b>\(totals[outcome] ?? 0)</b></li>"
        }
        return """
            <section id="activity"><h2>Finished tries per minute, last hour</h2>
            \(svg(minutes))
            <ul class="legend">\(legend.joined())</ul></section>

            """
    }

    static func svg(_ minutes: [NodeStatus.Minute]) -> String {
        let peak = max(1, minutes.map(\.total).max() ?? 0)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let slot = plotWidth / Double(max(1, minutes.count))
        var bars = ""
        for (index, minute) in minutes.enumerated() where minute.total > 0 {
            let x = left + Double(index) * slot + 1
            var y = top + plotHeight
            let parts = minute.stacked.filter { $0.count > 0 }
            let label = parts.map { "\($0.count) \($0.outcome.rawValue)" }.joined(separator: ", ")
            bars += "<g class=\"minute\"><title>\(HTMLText.escape(StatusPage.clockTime(minute.start))) UTC: \(label)</title>"
            for (outcome, count) in parts {
                let h = plotHeight * Double(count) / Double(peak)
                y -= h
                bars += "<rect class=\"bar \(outcome.rawValue)\" x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(max(1, slot - 2)))\" "
                    + "height=\"\(f(h))\" fill=\"\(color(outcome))\"/>"
            }
            bars += "</g>"
        }
        let baseline = top + plotHeight
        let axis = """
            <line x1="\(f(left))" y1="\(f(baseline))" x2="\(f(width - right))" y2="\(f(baseline))" stroke="#b8bec6"/>\
            <line x1="\(f(left))" y1="\(f(top))" x2="\(f(width - right))" y2="\(f(top))" stroke="#eceef1"/>\
            <text x="\(f(left - 6))" y="\(f(top + 4))" text-anchor="end" font-size="11" fill="#66707c">\(peak)</text>\
            <text x="\(f(left - 6))" y="\(f(baseline + 4))" text-anchor="end" font-size="11" fill="#66707c">0</text>\
            <text x="\(f(left))" y="\(f(height - 6))" font-size="11" fill="#66707c">−60 min</text>\
            <text x="\(f(left + plotWidth / 2))" y="\(f(height - 6))" text-anchor="middle" font-size="11" fill="#66707c">−30 min</text>\
            <text x="\(f(width - right))" y="\(f(height - 6))" text-anchor="end" font-size="11" fill="#66707c">now</text>
            """
        let total = minutes.reduce(0) { $0 + $1.total }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(f(width)) \(f(height))\" role=\"img\" "
            + "aria-label=\"\(total) finished tries in the last hour, at most \(peak) in a minute\">\(axis)\(bars)</svg>"
    }

    /// One decimal, no trailing `.0`.
    private static func f(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}
