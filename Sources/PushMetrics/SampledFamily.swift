/// A labelled gauge or counter whose series are read when the registry renders (e.g. queue depth
/// per provider sampled from the store at scrape time, or counts another module keeps).
final class SampledFamily: MetricFamily {
    let name: String
    let help: String
    let type: String
    let labelNames: [String]
    let sample: @Sendable () -> [([String], Double)]

    init(name: String, help: String, type: String, labelNames: [String], sample: @escaping @Sendable () -> [([String], Double)]) {
        self.name = name
        self.help = help
        self.type = type
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
