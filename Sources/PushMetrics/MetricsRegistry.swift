import Foundation
import PushSupport

/// A small thread-safe metrics registry rendering the Prometheus text exposition format
/// (version 0.0.4). Names are `pushnode_*`.
///
/// Registering a name again returns the family already registered, so independent parts of the
/// node can ask for the same metric.
///
/// - SeeAlso: https://prometheus.io/docs/instrumenting/exposition_formats/
package final class MetricsRegistry: Sendable {
    private let families = Protected<[String: any MetricFamily]>([:])
    private let order = Protected<[String]>([])

    package init() {}

    package func counter(_ name: String, help: String, labels: [String] = []) -> Counter {
        register(name) { Counter(name: name, help: help, labelNames: labels) }
    }

    package func gauge(_ name: String, help: String, labels: [String] = []) -> Gauge {
        register(name) { Gauge(name: name, help: help, labelNames: labels) }
    }

    // MARK: Sampled metrics
    //
    // Read from a subject when the registry renders. The registry holds the subject weakly: what a
    // gauge measures (the API server, the store) often holds the registry itself — the server's
    // router renders it at `/metrics` — and a strong reference would make a cycle that keeps a
    // stopped node alive for good. Once the subject is gone, its metric renders no sample.

    /// A gauge read from `subject` when the registry renders (e.g. requests in flight).
    package func gauge<Subject: AnyObject & Sendable>(_ name: String, help: String, of subject: Subject,
                                                     sample: @escaping @Sendable (Subject) -> Double) {
        let reference = WeakReference(subject)
        _ = register(name) { SampledGauge(name: name, help: help) { reference.object.map(sample) } }
    }

    /// A labelled gauge whose series (label values in `labels` order, value) are read from `subject`
    /// when the registry renders (e.g. queue depth per provider, from the store).
    package func gauge<Subject: AnyObject & Sendable>(_ name: String, help: String, labels: [String], of subject: Subject,
                                                     sample: @escaping @Sendable (Subject) -> [([String], Double)]) {
        let reference = WeakReference(subject)
        _ = register(name) {
            SampledFamily(name: name, help: help, type: "gauge", labelNames: labels) { reference.object.map(sample) ?? [] }
        }
    }

    /// A labelled counter kept by `subject` (e.g. the service, which does not know this registry),
    /// read when the registry renders; the sample must never decrease.
    package func counter<Subject: AnyObject & Sendable>(_ name: String, help: String, labels: [String], of subject: Subject,
                                                       sample: @escaping @Sendable (Subject) -> [([String], Double)]) {
        let reference = WeakReference(subject)
        _ = register(name) {
            SampledFamily(name: name, help: help, type: "counter", labelNames: labels) { reference.object.map(sample) ?? [] }
        }
    }

    package func histogram(_ name: String, help: String, labels: [String] = [],
                          buckets: [Double] = Histogram.defaultBuckets) -> Histogram {
        register(name) { Histogram(name: name, help: help, labelNames: labels, buckets: buckets) }
    }

    /// The whole registry as Prometheus text, families in registration order.
    package func render() -> String {
        let names = order.withLock { $0 }
        let snapshot = families.withLock { $0 }
        var out = ""
        for name in names {
            guard let family = snapshot[name] else { continue }
            out += "# HELP \(name) \(Self.escapeHelp(family.help))\n# TYPE \(name) \(family.type)\n"
            family.render(into: &out)
        }
        return out
    }

    private func register<F: MetricFamily>(_ name: String, make: () -> F) -> F {
        families.withLock { families in
            if let existing = families[name] {
                guard let typed = existing as? F else {
                    preconditionFailure("metric \(name) registered twice with different types")
                }
                return typed
            }
            let family = make()
            families[name] = family
            order.withLock { $0.append(name) }
            return family
        }
    }

    static func escapeHelp(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}

/// A reference that does not keep its object alive (the subject of a sampled metric).
struct WeakReference<Object: AnyObject & Sendable>: Sendable {
    weak var object: Object?

    init(_ object: Object) { self.object = object }
}

/// One named metric with all its label combinations.
protocol MetricFamily: AnyObject, Sendable {
    var help: String { get }
    var type: String { get }
    func render(into out: inout String)
}

/// `{a="x",b="y"}` for label names and values, escaping values as the format requires (`\\`, `\"`,
/// `\n`). Written byte by byte: a scrape renders every series, and `PushBench e2e`'s 10 scrapes a
/// second spent 2 % of the node's CPU in Foundation's `replacingOccurrences` here.
func renderLabels(_ names: [String], _ values: [String], extra: (String, String)? = nil) -> String {
    if extra == nil && (names.isEmpty || values.isEmpty) { return "" }
    var out: [UInt8] = [UInt8(ascii: "{")]
    out.reserveCapacity(64)
    func append(_ name: String, _ value: String) {
        if out.count > 1 { out.append(UInt8(ascii: ",")) }
        out.append(contentsOf: name.utf8)
        out.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "\"")])
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
    for (name, value) in zip(names, values) { append(name, value) }
    if let extra { append(extra.0, extra.1) }
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
}

/// A sample value as Prometheus prints it.
func renderValue(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
