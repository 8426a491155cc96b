import Foundation
import PushNode
import PushProtocol
import PushStore

/// What `PushBench growth` measures on a filled store, each through the real path.
enum GrowthProbe {
    /// Notify latency in ms (sorted), as `PushBench ingest` measures it: an in-process node over
    /// the filled store without its delivery engine (`IngestBench.withoutDelivery`), `clients`
    /// keep-alive loopback connections each sending its share of `requests` signed Notifies.
    static func notifyLatencies(dataDir: String, storageURL: String?, clients: Int, requests: [[UInt8]]) throws -> [Double] {
        var config = BenchRun.loopbackConfig(dataDir: dataDir)
        if let storageURL {
            config.storage.driver = .postgres
            config.storage.url = storageURL
        }
        let node = Node(config: config, dependencies: IngestBench.withoutDelivery, log: .discard)
        do { try node.start() } catch { throw BenchFailure("node start: \(error)") }
        defer { node.shutdown() }
        let port = node.port
        let warmUp = try LoopbackConnection(port: port)
        for request in requests.prefix(clients) { try expectQueued(warmUp.exchange(request)) }
        let timed = Array(requests.dropFirst(clients))
        let latencies = Locked([Double]())
        _ = try BenchRun.onThreads(count: clients) { client in
            let connection = try LoopbackConnection(port: port)
            var own: [Double] = []
            for index in stride(from: client, to: timed.count, by: clients) {
                let start = DispatchTime.now().uptimeNanoseconds
                try expectQueued(connection.exchange(timed[index]))
                own.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            latencies.withLock { $0.append(contentsOf: own) }
        }
        return latencies.withLock { $0 }.sorted()
    }

    /// The delivery rate of the backlog: the `pushnode` binary over the filled store sends FCM
    /// to the sink; after its first delivery (credential minted, connection open), delivered/s
    /// and node CPU per delivery over `seconds` (or until `queued` are delivered), from `/metrics`,
    /// and how long a scrape took (each reads the queue depth from the store, `outboxStatistics`).
    /// Scrapes are a second apart: each one's CPU counts against the deliveries.
    static func drainRate(node: BenchNode, queued: Int, seconds: Double) throws
        -> (rate: Double, cpuMicroseconds: Double, scrapeMilliseconds: Double) {
        let scrape = try LoopbackConnection(port: node.adminPort)
        var scrapes: [Double] = []
        func delivered() throws -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            let metrics = try node.metrics(over: scrape)
            scrapes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            return metrics.sum("pushnode_deliveries_total", ["provider": "fcm", "outcome": "delivered"])
        }
        let firstDeadline = Date(timeIntervalSinceNow: 60)
        while try delivered() == 0 {
            guard Date() < firstDeadline else { throw BenchFailure("no FCM delivery within 60 s of the node's start") }
            usleep(200_000)
        }
        let before = try delivered()
        let cpuBefore = ProcessStats.cpuSeconds(node.pid)
        let start = Date()
        var after = before
        repeat {
            usleep(useconds_t(min(1, seconds) * 1e6))
            after = try delivered()
        } while Date().timeIntervalSince(start) < seconds && after < Double(queued)
        let elapsed = Date().timeIntervalSince(start)
        let count = max(after - before, 1)
        return ((after - before) / elapsed, (ProcessStats.cpuSeconds(node.pid) - cpuBefore) * 1e6 / count,
                IngestBench.percentile(scrapes.sorted(), 0.5))
    }

    private static func expectQueued(_ answer: (status: Int, body: [UInt8])) throws {
        guard answer.status == 200, String(decoding: answer.body, as: UTF8.self).contains("\"queued\":") else {
            throw BenchFailure("Notify answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
    }
}
