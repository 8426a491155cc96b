import PushSupport

/// What a labelled family is in the exposition (`counter`, `gauge`); its operations are in the
/// family's constrained extension (`Counter`, `Gauge`).
package protocol LabeledKind {
    static var type: String { get }
}

/// A family with one value per combination of label values, as counters and gauges keep them:
/// the check of the label values, the lock, the read and the exposition lines.
package final class LabeledFamily<Kind: LabeledKind>: MetricFamily {
    let name: String
    package let help: String
    let labelNames: [String]
    private let values = Protected<[[String]: Double]>([:])
    var type: String { Kind.type }

    package init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    /// Changes the value of the label values (given in the order of the label names; 0 when never set).
    func update(_ labelValues: [String], _ change: (inout Double) -> Void) {
        precondition(labelValues.count == labelNames.count, "\(name): wrong number of label values")
        values.withLock { change(&$0[labelValues, default: 0]) }
    }

    /// The current value for the label values (0 when never changed).
    package func value(_ labelValues: String...) -> Double { values.withLock { $0[labelValues] ?? 0 } }

    func render(into out: inout String) {
        let snapshot = values.withLock { $0 }
        for (labels, value) in snapshot.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            out += name + renderLabels(labelNames, labels) + " " + renderValue(value) + "\n"
        }
    }
}
