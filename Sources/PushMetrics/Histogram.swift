import PushSupport

/// Observations counted into cumulative buckets, per label combination.
package final class Histogram: MetricFamily {
    /// Latency buckets in seconds, 0.5 ms to 10 s.
    package static let defaultBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Series {
        var counts: [UInt64]
        var sum: Double = 0
        var count: UInt64 = 0
    }

    let name: String
    package let help: String
    let labelNames: [String]
    let buckets: [Double]
    private let series = Protected<[[String]: Series]>([:])
    var type: String { "histogram" }

    package init(name: String, help: String, labelNames: [String], buckets: [Double]) {
        precondition(!buckets.isEmpty && buckets == buckets.sorted(), "\(name): buckets must be sorted")
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.buckets = buckets
    }

    package func observe(_ value: Double, _ labelValues: String...) {
        precondition(labelValues.count == labelNames.count, "\(name): wrong number of label values")
        let index = buckets.firstIndex { value <= $0 } ?? buckets.count
        series.withLock { table in
            var s = table[labelValues] ?? Series(counts: Array(repeating: 0, count: buckets.count + 1))
            s.counts[index] += 1
            s.sum += value
            s.count += 1
            table[labelValues] = s
        }
    }

    /// Observations so far for the label values.
    package func count(_ labelValues: String...) -> UInt64 { series.withLock { $0[labelValues]?.count ?? 0 } }

    func render(into out: inout String) {
        let snapshot = series.withLock { $0 }
        for (labels, s) in snapshot.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            var cumulative: UInt64 = 0
            for (i, bound) in buckets.enumerated() {
                cumulative += s.counts[i]
                out += name + "_bucket" + renderLabels(labelNames, labels, extra: ("le", renderValue(bound))) + " \(cumulative)\n"
            }
            out += name + "_bucket" + renderLabels(labelNames, labels, extra: ("le", "+Inf")) + " \(s.count)\n"
            out += name + "_sum" + renderLabels(labelNames, labels) + " " + renderValue(s.sum) + "\n"
            out += name + "_count" + renderLabels(labelNames, labels) + " \(s.count)\n"
        }
    }
}
