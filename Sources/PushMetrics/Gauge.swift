import PushSupport

/// A value that goes up and down, per label combination.
package final class Gauge: MetricFamily {
    package let name: String
    package let help: String
    let labelNames: [String]
    private let values = Protected<[[String]: Double]>([:])
    var type: String { "gauge" }

    package init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    package func set(_ value: Double, _ labelValues: String...) {
        precondition(labelValues.count == labelNames.count, "\(name): wrong number of label values")
        values.withLock { $0[labelValues] = value }
    }

    package func add(_ delta: Double, _ labelValues: String...) {
        precondition(labelValues.count == labelNames.count, "\(name): wrong number of label values")
        values.withLock { $0[labelValues, default: 0] += delta }
    }

    package func value(_ labelValues: String...) -> Double { values.withLock { $0[labelValues] ?? 0 } }

    func render(into out: inout String) {
        let snapshot = values.withLock { $0 }
        for (labels, value) in snapshot.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            out += name + renderLabels(labelNames, labels) + " " + renderValue(value) + "\n"
        }
    }
}

/// A gauge without labels whose value is read at render time; nil renders no sample.
final class SampledGauge: MetricFamily {
    let name: String
    let help: String
    let sample: @Sendable () -> Double?
    var type: String { "gauge" }

    init(name: String, help: String, sample: @escaping @Sendable () -> Double?) {
        self.name = name
        self.help = help
        self.sample = sample
    }

    func render(into out: inout String) {
        guard let value = sample() else { return }
        out += name + " " + renderValue(value) + "\n"
    }
}
