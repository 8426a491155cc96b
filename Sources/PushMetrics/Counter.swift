import PushSupport

/// A monotonically increasing count, per label combination.
package final class Counter: MetricFamily {
    let name: String
    package let help: String
    let labelNames: [String]
    private let values = Protected<[[String]: Double]>([:])
    var type: String { "counter" }

    package init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    /// Adds `amount` (non-negative) for the label values, given in the order of the label names.
    package func increment(_ labelValues: String..., by amount: Double = 1) {
        add(labelValues, amount)
    }

    package func add(_ labelValues: [String], _ amount: Double) {
        precondition(labelValues.count == labelNames.count, "\(name): wrong number of label values")
        precondition(amount >= 0, "\(name): counters only go up")
        values.withLock { $0[labelValues, default: 0] += amount }
    }

    /// The current value for the label values (0 when never incremented).
    package func value(_ labelValues: String...) -> Double { values.withLock { $0[labelValues] ?? 0 } }

    func render(into out: inout String) {
        let snapshot = values.withLock { $0 }
        for (labels, value) in snapshot.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            out += name + renderLabels(labelNames, labels) + " " + renderValue(value) + "\n"
        }
    }
}
