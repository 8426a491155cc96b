/// A value that goes up and down, per label combination.
package typealias Gauge = LabeledFamily<GaugeKind>

package enum GaugeKind: LabeledKind {
    package static var type: String { "gauge" }
}

extension LabeledFamily where Kind == GaugeKind {
    package func set(_ value: Double, _ labelValues: String...) {
        update(labelValues) { $0 = value }
    }

    package func add(_ delta: Double, _ labelValues: String...) {
        update(labelValues) { $0 += delta }
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
