import Foundation
import PushProtocol
import PushStore

/// `PushBench growth`: the cost as the store grows. For each size (the i-th registration count
/// with the i-th queued count) a fresh store is filled (`GrowthFill`), then measured through
/// the real path (`GrowthProbe`): Notify latency over loopback HTTP to a small topic (fan-out
/// `probeFanOut`) of the filled store, then the rate at which the `pushnode` binary drains the
/// backlog to the FCM sink (`nghttpd`). Each size's figures and its ratio to the first size,
/// on SQLite, and with `--storage-url` on PostgreSQL too (a scratch schema per size).
enum GrowthBench {
    struct Options {
        var registrations = [10_000, 100_000, 1_000_000]
        var queued = [100_000, 1_000_000, 10_000_000]
        var storageURL: String?
        /// `--only-postgres 1`: skip the SQLite sizes.
        var postgresOnly = false
        /// `--analyze 1`: on PostgreSQL, `ANALYZE` after the fill (fresh planner statistics before
        /// the measurements, which autovacuum may not have gathered yet after a bulk fill).
        var analyze = false
        /// The timed Notifies: how many, from how many loopback clients, each to how many registrations.
        var requests = 2000, clients = 4, probeFanOut = 10
        /// Registrations per account of the bulk audience (each account is one subscription).
        var devicesPerAccount = 100
        /// How long the backlog's drain is timed.
        var drainSeconds = 10.0
        var binary: String?
    }

    static let usage = """
               PushBench growth [--registrations 10000,100000,1000000] [--queued 100000,1000000,10000000]
                                [--storage-url postgres://… [--only-postgres 1] [--analyze 1]]
                                [--requests N] [--drain-seconds S] [--devices-per-account D] [--node PATH]
        """

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var rest = arguments[...]
        func sizes(_ text: String) -> [Int]? {
            let values = text.split(separator: ",").compactMap { Int($0) }
            return values.isEmpty || values.contains { $0 <= 0 } ? nil : values
        }
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { return nil }
            switch flag {
            case "--registrations": guard let list = sizes(value) else { return nil }; options.registrations = list
            case "--queued": guard let list = sizes(value) else { return nil }; options.queued = list
            case "--storage-url": options.storageURL = value
            case "--only-postgres": options.postgresOnly = value == "1"
            case "--analyze": options.analyze = value == "1"
            case "--requests": guard let n = Int(value), n > 0 else { return nil }; options.requests = n
            case "--drain-seconds": guard let n = Double(value), n > 0 else { return nil }; options.drainSeconds = n
            case "--devices-per-account": guard let n = Int(value), n > 0 else { return nil }; options.devicesPerAccount = n
            case "--node": options.binary = value
            default: return nil
            }
        }
        guard options.registrations.count == options.queued.count, !options.postgresOnly || options.storageURL != nil else { return nil }
        return options
    }

    /// One size's figures.
    struct Figures {
        var registrations: Int
        var queued: Int
        var fill: GrowthFill.Report
        var p50: Double
        var p99: Double
        var rate: Double
        var cpuMicroseconds: Double
        var scrapeMilliseconds: Double

        var line: String {
            String(format: "%8d registrations %9d queued: Notify ms p50 %.2f p99 %.2f  delivered/s %.0f (node CPU %.0f µs/delivery)  "
                   + "/metrics scrape %.0f ms  ", registrations, fill.depth, p50, p99, rate, cpuMicroseconds, scrapeMilliseconds) + fill.line
        }

        func ratio(to base: Figures) -> String {
            String(format: "%8d registrations %9d queued: / smallest: Notify p50 %.2f p99 %.2f  delivered/s %.2f  CPU/delivery %.2f",
                   registrations, queued, p50 / base.p50, p99 / base.p99, rate / base.rate, cpuMicroseconds / base.cpuMicroseconds)
        }
    }

    static func run(_ options: Options) throws {
        let binary = options.binary ?? (URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/pushnode")
        let sinkDirectory = try BenchRun.scratchDirectory(prefix: "pushbench-growth-sink")
        defer { try? FileManager.default.removeItem(atPath: sinkDirectory) }
        let sink = try HTTP2Sink(directory: sinkDirectory, apnsTokens: [], webPushEndpoints: 0, streams: 100)
        defer { sink.stop() }
        var stores: [(name: String, baseURL: String?)] = options.postgresOnly ? [] : [("SQLite", nil)]
        if let url = options.storageURL { stores.append(("PostgreSQL", url)) }
        for (name, baseURL) in stores {
            print("== growth (\(name)): fill through the store's API (\(GrowthFill(registrations: 0, queued: 0).threads) threads, "
                  + "\(options.devicesPerAccount) FCM registrations per account, the queue as Notifies to all of them); then \(options.requests) signed Notify "
                  + "(fan-out \(options.probeFanOut)) from \(options.clients) loopback clients to an in-process node without delivery; "
                  + "then pushnode drains the backlog to nghttpd for \(options.drainSeconds) s after its first delivery (/metrics read once a second); "
                  + "\(ProcessInfo.processInfo.activeProcessorCount) cores"
                  + (options.analyze && baseURL != nil ? "; ANALYZE after each fill" : ""))
            var figures: [Figures] = []
            for (registrations, queued) in zip(options.registrations, options.queued) {
                let size = try measure(registrations: registrations, queued: queued, baseURL: baseURL, options: options,
                                       binary: binary, sink: sink)
                print(size.line)
                figures.append(size)
            }
            guard let base = figures.first, figures.count > 1 else { continue }
            for size in figures.dropFirst() { print(size.ratio(to: base)) }
        }
    }

    private static func measure(registrations: Int, queued: Int, baseURL: String?, options: Options,
                                binary: String, sink: HTTP2Sink) throws -> Figures {
        let directory = try BenchRun.scratchDirectory(prefix: "pushbench-growth")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let schema = try baseURL.map { try PostgresScratchSchema(baseURL: $0) }
        defer { schema?.drop() }
        let population = try E2EPopulation(providers: [.fcm], fanOut: options.probeFanOut)
        let audience = population.audiences[0]

        let store = try IngestFixture.openStore(directory: directory, storageURL: schema?.url)
        let fill = try GrowthFill(registrations: registrations, queued: queued, devicesPerAccount: options.devicesPerAccount)
            .run(into: store, probe: audience)
        store.close()
        if options.analyze, let schema {
            _ = try Tools.run(try Tools.path(of: "psql", package: "postgresql-client"), [schema.url, "-c", "ANALYZE"])
        }

        let latencies = try GrowthProbe.notifyLatencies(
            dataDir: directory, storageURL: schema?.url, clients: options.clients,
            requests: population.notifies(to: audience, count: options.requests + options.clients, payloadBytes: 256))
        let node = try BenchNode(binary: binary, dataDir: directory, sink: sink, storageURL: schema?.url, engine: "nghttp2",
                                 logFile: directory + "/node.log")
        defer { node.stop() }
        let drain = try GrowthProbe.drainRate(node: node, queued: fill.depth, seconds: options.drainSeconds)
        return Figures(registrations: registrations, queued: queued, fill: fill,
                       p50: IngestBench.percentile(latencies, 0.5), p99: IngestBench.percentile(latencies, 0.99),
                       rate: drain.rate, cpuMicroseconds: drain.cpuMicroseconds, scrapeMilliseconds: drain.scrapeMilliseconds)
    }
}
