import Foundation
import PushProtocol

/// What one provider's `PushBench e2e` run measured, from the node's `/metrics` before and
/// after, /proc and the registrations' `lastDeliveryAt`.
struct RunFigures {
    var provider: Provider
    var deliveries: Int
    /// From the first Notify sent to the last delivery's answer.
    var seconds: Double
    var delivered: Double
    var retried: Double
    var failed: Double
    /// Accept → answer of the delivering try, from `pushnode_delivery_latency_seconds`.
    var latency: LatencyBuckets
    var cpuSeconds: Double
    var sinkCPUSeconds: Double
    var peakMiB: Double
    var limits = Limits(h2load: 0, encryptOneThread: 0, encryptTwoThreads: 0)

    /// Outcomes that end a delivery (`retried` does not).
    static let finalOutcomes = TryOutcome.allCases.filter { $0 != .retried }

    static func finals(_ metrics: MetricsText, _ provider: String) -> Double {
        finalOutcomes.reduce(0) { $0 + metrics.sum("pushnode_deliveries_total", ["provider": provider, "outcome": $1.rawValue]) }
    }

    init(provider: Provider, deliveries: Int, seconds: Double, before: MetricsText, after: MetricsText,
         cpuSeconds: Double, sinkCPUSeconds: Double, peakMiB: Double) {
        let name = provider.rawValue
        func delta(_ outcome: TryOutcome) -> Double {
            after.sum("pushnode_deliveries_total", ["provider": name, "outcome": outcome.rawValue])
                - before.sum("pushnode_deliveries_total", ["provider": name, "outcome": outcome.rawValue])
        }
        self.provider = provider
        self.deliveries = deliveries
        self.seconds = seconds
        delivered = delta(.delivered)
        retried = delta(.retried)
        failed = Self.finalOutcomes.dropFirst().reduce(0) { $0 + delta($1) }
        latency = LatencyBuckets(before: before.buckets("pushnode_delivery_latency_seconds", ["provider": name]),
                                 after: after.buckets("pushnode_delivery_latency_seconds", ["provider": name]))
        self.cpuSeconds = cpuSeconds
        self.sinkCPUSeconds = sinkCPUSeconds
        self.peakMiB = peakMiB
    }

    var rate: Double { delivered / max(seconds, 1e-9) }
    var cpuMicrosecondsPerDelivery: Double { cpuSeconds * 1e6 / max(delivered, 1) }

    var line: String {
        var text = String(format: "%@ delivered/s %6.0f  (%d in %.2f s)  /h2load %.2f", provider.label, rate,
                          Int(delivered), seconds, rate / limits.h2load)
        if provider == .webpush {
            text += String(format: "  /encrypt(2 threads) %.2f", rate / limits.encryptTwoThreads)
            if let python = try? limits.pywebpush?.get() { text += String(format: "  /pywebpush %.1f×", rate / python) }
        }
        text += String(format: "  accept→answer ms p50 %.0f p99 %.0f max ≤%@  >1 s: %.0f  retried %.0f failed %.0f",
                       latency.quantile(0.5) * 1000, latency.quantile(0.99) * 1000, latency.maxBound, latency.over(1),
                       retried, failed)
        text += String(format: "  CPU %.0f µs/delivery (sink %.0f)  peak RSS %.1f MiB", cpuMicrosecondsPerDelivery,
                       sinkCPUSeconds * 1e6 / max(delivered, 1), peakMiB)
        return text
    }

    static func median(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.sorted()[values.count / 2] }

    static func medianLine(_ provider: Provider, _ runs: [RunFigures]) -> String {
        var text = String(format: "%@ delivered/s %6.0f  /h2load %.2f", provider.label, median(runs.map(\.rate)),
                          median(runs.map { $0.rate / $0.limits.h2load }))
        if provider == .webpush {
            text += String(format: "  /encrypt(2 threads) %.2f", median(runs.map { $0.rate / $0.limits.encryptTwoThreads }))
            let pythonRatios = runs.compactMap { run in (try? run.limits.pywebpush?.get()).map { run.rate / $0 } }
            if !pythonRatios.isEmpty { text += String(format: "  /pywebpush %.1f×", median(pythonRatios)) }
        }
        text += String(format: "  p50 %.0f ms p99 %.0f ms  runs with a delivery >1 s: %d of %d  retried %.0f  CPU %.0f µs/delivery  peak RSS %.1f MiB",
                       median(runs.map { $0.latency.quantile(0.5) * 1000 }), median(runs.map { $0.latency.quantile(0.99) * 1000 }),
                       runs.filter { $0.latency.over(1) > 0 }.count, runs.count, runs.reduce(0) { $0 + $1.retried },
                       median(runs.map(\.cpuMicrosecondsPerDelivery)), runs.map(\.peakMiB).max() ?? 0)
        return text
    }
}

extension RunFigures {
    /// PostgreSQL's figures over SQLite's for one provider: the median of the ratios of runs
    /// measured back to back (run i of one store with run i of the other).
    static func ratioLine(_ provider: Provider, postgres: [RunFigures], sqlite: [RunFigures]) -> String {
        let pairs = zip(postgres, sqlite)
        return String(format: "%@ delivered/s %.2f (%.0f / %.0f)  CPU per delivery %.2f (%.0f / %.0f µs)  p99 %.2f",
                      provider.label, median(pairs.map { $0.rate / $1.rate }), median(postgres.map(\.rate)), median(sqlite.map(\.rate)),
                      median(pairs.map { $0.cpuMicrosecondsPerDelivery / $1.cpuMicrosecondsPerDelivery }),
                      median(postgres.map(\.cpuMicrosecondsPerDelivery)), median(sqlite.map(\.cpuMicrosecondsPerDelivery)),
                      median(pairs.map { $0.latency.quantile(0.99) / max($1.latency.quantile(0.99), 1e-9) }))
    }
}

/// One run's share of a cumulative Prometheus histogram: the difference of two scrapes.
struct LatencyBuckets {
    /// Upper bounds and the observations at or below each, ascending, `+Inf` last.
    var cumulative: [(bound: Double, count: Double)]

    init(before: [(bound: Double, count: Double)], after: [(bound: Double, count: Double)]) {
        let earlier = Dictionary(before.map { ($0.bound, $0.count) }, uniquingKeysWith: { $1 })
        cumulative = after.map { ($0.bound, $0.count - (earlier[$0.bound] ?? 0)) }
    }

    var total: Double { cumulative.last?.count ?? 0 }

    /// Linear interpolation inside the bucket that holds the quantile, as `histogram_quantile` does.
    func quantile(_ q: Double) -> Double {
        guard total > 0 else { return 0 }
        let rank = q * total
        var lower = (bound: 0.0, count: 0.0)
        for bucket in cumulative {
            if bucket.count >= rank {
                guard bucket.bound.isFinite else { return lower.bound }
                let width = bucket.count - lower.count
                return lower.bound + (bucket.bound - lower.bound) * (width > 0 ? (rank - lower.count) / width : 0)
            }
            lower = bucket
        }
        return lower.bound
    }

    /// Observations above `seconds` (a bucket bound).
    func over(_ seconds: Double) -> Double {
        total - (cumulative.first { $0.bound == seconds }?.count ?? 0)
    }

    /// The upper bound of the highest bucket that holds an observation, in ms ("∞" beyond the last).
    var maxBound: String {
        guard total > 0, let bucket = cumulative.first(where: { $0.count >= total }) else { return "-" }
        return bucket.bound.isFinite ? String(format: "%.0f", bucket.bound * 1000) : "∞"
    }
}

private extension Provider {
    /// The name padded to one column.
    var label: String { rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) }
}
