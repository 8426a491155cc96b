/// A monotonically increasing count, per label combination.
package typealias Counter = LabeledFamily<CounterKind>

package enum CounterKind: LabeledKind {
    package static var type: String { "counter" }
}

extension LabeledFamily where Kind == CounterKind {
    /// Adds `amount` (non-negative) for the label values, given in the order of the label names.
    package func increment(_ labelValues: String..., by amount: Double = 1) {
        add(labelValues, amount)
    }

    package func add(_ labelValues: [String], _ amount: Double) {
        precondition(amount >= 0, "\(name): counters only go up")
        update(labelValues) { $0 += amount }
    }
}
