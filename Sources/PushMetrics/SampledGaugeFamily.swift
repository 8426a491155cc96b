/// A labelled gauge whose series are read when the registry renders (e.g. queue depth per
/// provider sampled from the store at scrape time).
final class SampledGaugeFamily: MetricFamily {
    let name: String
    let help: String
    let labelNames: [String]
    let sample: @Sendable () -> [([String], Double)]
    var type: String { "gauge" }

    init(name: String, help: String, labelNames: [String], sample: @escaping @Sendable () -> [([String], Double)]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.sample = sample
    }

    func render(into out: inout String) {
        for (labels, value) in sample().sorted(by: { $0.0.lexicographicallyPrecedes($1.0) })
        where labels.count == labelNames.count {
            out += name + renderLabels(labelNames, labels) + " " + renderValue(value) + "\n"
        }
    }
}
