import Testing
@testable import PushMetrics

@Suite struct MetricsRegistryTests {
    @Test func rendersCountersAndGaugesInPrometheusText() {
        let registry = MetricsRegistry()
        let requests = registry.counter("pushnode_test_requests_total", help: "Requests.", labels: ["route", "status"])
        requests.increment("/a", "200")
        requests.increment("/a", "200")
        requests.increment("/b", "404", by: 3)
        let queue = Queue(depth: 7)
        registry.gauge("pushnode_test_depth", help: "Depth.", of: queue) { Double($0.depth) }
        let gauge = registry.gauge("pushnode_test_level", help: "Level.")
        gauge.set(1.5)
        #expect(registry.render() == """
            # HELP pushnode_test_requests_total Requests.
            # TYPE pushnode_test_requests_total counter
            pushnode_test_requests_total{route="/a",status="200"} 2
            pushnode_test_requests_total{route="/b",status="404"} 3
            # HELP pushnode_test_depth Depth.
            # TYPE pushnode_test_depth gauge
            pushnode_test_depth 7
            # HELP pushnode_test_level Level.
            # TYPE pushnode_test_level gauge
            pushnode_test_level 1.5

            """)
    }

    @Test func histogramsAreCumulativeWithSumAndCount() {
        let registry = MetricsRegistry()
        let h = registry.histogram("pushnode_test_seconds", help: "Time.", buckets: [0.1, 1])
        h.observe(0.05)
        h.observe(0.5)
        h.observe(5)
        #expect(registry.render() == """
            # HELP pushnode_test_seconds Time.
            # TYPE pushnode_test_seconds histogram
            pushnode_test_seconds_bucket{le="0.1"} 1
            pushnode_test_seconds_bucket{le="1"} 2
            pushnode_test_seconds_bucket{le="+Inf"} 3
            pushnode_test_seconds_sum 5.55
            pushnode_test_seconds_count 3

            """)
    }

    @Test func labelValuesAreEscaped() {
        let registry = MetricsRegistry()
        registry.counter("pushnode_test_total", help: "x", labels: ["v"]).increment("a\"b\\c\nd")
        #expect(registry.render().contains(#"pushnode_test_total{v="a\"b\\c\nd"} 1"#))
    }

    @Test func registeringANameAgainReturnsTheSameFamily() {
        let registry = MetricsRegistry()
        registry.counter("pushnode_test_total", help: "x").increment()
        registry.counter("pushnode_test_total", help: "x").increment()
        #expect(registry.counter("pushnode_test_total", help: "x").value() == 2)
    }

    /// A sampled metric does not keep its subject alive: what it measures may hold the registry
    /// (the API server's router renders it), and a strong reference would be a cycle. Once the
    /// subject is gone its metric renders no sample.
    @Test func sampledMetricsHoldTheirSubjectWeakly() {
        let registry = MetricsRegistry()
        var queue: Queue? = Queue(depth: 3)
        weak let watched = queue
        registry.gauge("pushnode_test_depth", help: "Depth.", of: queue!) { Double($0.depth) }
        registry.gauge("pushnode_test_by_kind", help: "By kind.", labels: ["kind"], of: queue!) { [(["a"], Double($0.depth))] }
        registry.counter("pushnode_test_total", help: "Total.", labels: [], of: queue!) { [([], Double($0.depth * 2))] }
        #expect(registry.render().contains("pushnode_test_depth 3\n"))
        #expect(registry.render().contains(#"pushnode_test_by_kind{kind="a"} 3"#))
        #expect(registry.render().contains("pushnode_test_total 6\n"))
        queue = nil
        #expect(watched == nil)
        #expect(registry.render() == """
            # HELP pushnode_test_depth Depth.
            # TYPE pushnode_test_depth gauge
            # HELP pushnode_test_by_kind By kind.
            # TYPE pushnode_test_by_kind gauge
            # HELP pushnode_test_total Total.
            # TYPE pushnode_test_total counter

            """)
    }
}

/// A subject for sampled metrics.
private final class Queue: Sendable {
    let depth: Int

    init(depth: Int) { self.depth = depth }
}
