import Foundation
import PushCrypto
import PushProtocol
import PushStore

/// `PushBench e2e`: deliveries through the whole path a provider sees. Signed Notify over the
/// node's HTTP API → the outbox → the gateways → libcurl HTTP/2 over TLS → `nghttpd`, a separate
/// C HTTP/2 server on loopback (`HTTP2Sink`). In the same run, as the limits: `h2load` against
/// that server (what one HTTP/2 client connection gets through it) and this machine's RFC 8291
/// encrypt rate on one and two threads. Figures per provider and run, then medians.
enum E2EBench {
    struct Options {
        var deliveries = 20_000
        var fanOut = 100
        var runs = 1
        var providers: [Provider] = [.fcm, .apns, .webpush]
        /// Deliveries per second to pace the Notifies at; nil sends them as fast as they are accepted.
        var rate: Double?
        var payloadBytes = 2048
        var sinkStreams = 100
        var senders = 4
        var binary: String?
        var storageURL: String?
        /// `delivery.httpEngine` of the node.
        var engine = "nghttp2"
    }

    static let usage = """
               PushBench e2e [--deliveries N] [--fanout F] [--runs R] [--only fcm|apns|webpush] [--rate DELIVERIES_PER_S]
                             [--payload-bytes B] [--sink-streams S] [--node PATH] [--storage-url postgres://…]
                             [--engine nghttp2|libcurl]
        """

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { return nil }
            switch flag {
            case "--deliveries": guard let n = Int(value), n > 0 else { return nil }; options.deliveries = n
            case "--fanout": guard let n = Int(value), n > 0 else { return nil }; options.fanOut = n
            case "--runs": guard let n = Int(value), n > 0 else { return nil }; options.runs = n
            case "--only":
                // The sink answers FCM, APNs and Web Push only.
                guard let provider = Provider(rawValue: value), [.fcm, .apns, .webpush].contains(provider) else { return nil }
                options.providers = [provider]
            case "--rate": guard let n = Double(value), n > 0 else { return nil }; options.rate = n
            case "--payload-bytes": guard let n = Int(value), (1...2816).contains(n) else { return nil }; options.payloadBytes = n
            case "--sink-streams": guard let n = Int(value), n > 0 else { return nil }; options.sinkStreams = n
            case "--senders": guard let n = Int(value), n > 0 else { return nil }; options.senders = n
            case "--node": options.binary = value
            case "--storage-url": options.storageURL = value
            case "--engine": guard ["nghttp2", "libcurl"].contains(value) else { return nil }; options.engine = value
            default: return nil
            }
        }
        return options
    }

    static func run(_ options: Options) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushbench-e2e-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let binary = options.binary ?? (URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/pushnode")
        let population = try E2EPopulation(providers: options.providers, fanOut: options.fanOut)
        let sink = try HTTP2Sink(directory: directory, apnsTokens: population.apnsTokens, webPushEndpoints: options.fanOut,
                                 streams: options.sinkStreams)
        defer { sink.stop() }
        // With --storage-url, a second node on a scratch schema of that database, side by side with the SQLite node.
        let schema = try options.storageURL.map { try PostgresScratchSchema(baseURL: $0) }
        defer { schema?.drop() }
        var nodes = [StoreNode(name: "SQLite", node: try BenchNode(
            binary: binary, dataDir: directory + "/data", sink: sink, storageURL: nil, engine: options.engine,
            logFile: directory + "/node.log"))]
        defer { nodes.forEach { $0.node.stop() } }
        if let schema {
            nodes.append(StoreNode(name: "PostgreSQL", node: try BenchNode(
                binary: binary, dataDir: directory + "/data-pg", sink: sink, storageURL: schema.url, engine: options.engine,
                logFile: directory + "/node-pg.log")))
        }
        for store in nodes { try population.register(on: store.node, sink: sink) }
        let notifies = max(1, options.deliveries / options.fanOut)
        for store in nodes {
            print("== e2e (\(store.name)): pushnode (pid \(store.node.pid)) → \(options.engine) HTTP/2 + TLS → nghttpd (separate process, \(options.sinkStreams) streams), "
                  + "\(notifies) Notify × fan-out \(options.fanOut) = \(notifies * options.fanOut) deliveries per provider and run, "
                  + "payload \(options.payloadBytes) B, \(options.rate.map { String(format: "paced at %.0f deliveries/s", $0) } ?? "Notify as fast as accepted"), "
                  + "\(ProcessInfo.processInfo.activeProcessorCount) cores; idle RSS \(String(format: "%.1f", ProcessStats.residentMiB(store.node.pid))) MiB")
        }
        if nodes.count > 1 { print("   the two nodes take turns: each provider's run on one, then on the other, the order swapped every run") }

        var results: [String: [Provider: [RunFigures]]] = [:]
        for round in 1...options.runs {
            let limits = try Limits.measure(sink: sink, requests: notifies * options.fanOut, bodyBytes: 3000,
                                            payloadBytes: options.payloadBytes,
                                            webPush: options.providers.contains(.webpush) ? (population.webPushSubscriptions(sink: sink), directory) : nil)
            print(limits.line(round: round))
            for audience in population.audiences {
                for store in round % 2 == 1 ? nodes : nodes.reversed() {
                    // The first delivery of a provider mints its credential and opens its connection: warm up once.
                    if round == 1 { _ = try measure(audience, notifies: 1, options: options, population: population, node: store.node, sink: sink) }
                    var figures = try measure(audience, notifies: notifies, options: options, population: population, node: store.node, sink: sink)
                    figures.limits = limits
                    print((nodes.count > 1 ? store.label : "") + figures.line)
                    results[store.name, default: [:]][audience.provider, default: []].append(figures)
                }
            }
        }
        if options.runs > 1 {
            print("== medians of \(options.runs) runs")
            for store in nodes {
                for provider in options.providers {
                    print((nodes.count > 1 ? store.label : "") + RunFigures.medianLine(provider, results[store.name]?[provider] ?? []))
                }
            }
        }
        if nodes.count > 1 {
            print("== PostgreSQL / SQLite, same run (median of the per-run ratios; target: delivered/s >= 0.7)")
            for provider in options.providers {
                print(RunFigures.ratioLine(provider, postgres: results["PostgreSQL"]?[provider] ?? [],
                                           sqlite: results["SQLite"]?[provider] ?? []))
            }
        }
    }

    /// A node under test and the store it runs on.
    private struct StoreNode {
        var name: String
        var node: BenchNode
        var label: String { name.padding(toLength: 11, withPad: " ", startingAt: 0) }
    }

    /// One provider's run: sends the Notifies, waits until every delivery has a final outcome,
    /// then reads the figures from the node's `/metrics`, its registrations and /proc.
    private static func measure(_ audience: E2EPopulation.Audience, notifies: Int, options: Options,
                                population: E2EPopulation, node: BenchNode, sink: HTTP2Sink) throws -> RunFigures {
        let scrape = try LoopbackConnection(port: node.adminPort)
        let requests = population.notifies(to: audience, count: notifies, payloadBytes: options.payloadBytes)
        let provider = audience.provider.rawValue
        let before = try node.metrics(over: scrape)
        ProcessStats.resetPeak(node.pid)
        let cpuBefore = ProcessStats.cpuSeconds(node.pid)
        let sinkCPUBefore = ProcessStats.cpuSeconds(sink.pid)
        let started = Date()
        try send(requests, to: node, senders: options.senders,
                 interval: options.rate.map { Double(options.fanOut) / $0 }, fanOut: options.fanOut)
        let expected = Double(notifies * options.fanOut)
        let deadline = Date(timeIntervalSinceNow: 300)
        var after = before
        repeat {
            usleep(100_000)
            after = try node.metrics(over: scrape)
        } while RunFigures.finals(after, provider) - RunFigures.finals(before, provider) < expected && Date() < deadline
        let cpu = ProcessStats.cpuSeconds(node.pid) - cpuBefore
        let sinkCPU = ProcessStats.cpuSeconds(sink.pid) - sinkCPUBefore
        let peak = ProcessStats.residentMiB(node.pid, peak: true)
        let last = try population.lastDelivery(of: audience, on: node) ?? Date()
        return RunFigures(provider: audience.provider, deliveries: Int(expected), seconds: last.timeIntervalSince(started),
                          before: before, after: after, cpuSeconds: cpu, sinkCPUSeconds: sinkCPU, peakMiB: peak)
    }

    /// Sends the Notifies from `senders` connections at once, or paced one every `interval` seconds.
    private static func send(_ requests: [[UInt8]], to node: BenchNode, senders: Int, interval: Double?, fanOut: Int) throws {
        let failures = Locked([String]())
        let lanes = interval == nil ? min(senders, requests.count) : 1
        let group = DispatchGroup()
        let start = Date()
        let port = node.port
        for lane in 0..<lanes {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let connection = try LoopbackConnection(port: port)
                    for index in stride(from: lane, to: requests.count, by: lanes) {
                        if let interval {
                            let due = start.addingTimeInterval(Double(index) * interval).timeIntervalSinceNow
                            if due > 0 { usleep(useconds_t(due * 1e6)) }
                        }
                        let answer = try connection.exchange(requests[index])
                        let text = String(decoding: answer.body, as: UTF8.self)
                        guard answer.status == 200, text.contains("\"queued\":\(fanOut)") else {
                            throw BenchFailure("Notify answered \(answer.status): \(text)")
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        group.wait()
        if let failure = failures.withLock({ $0.first }) { throw BenchFailure(failure) }
    }
}

/// The yardsticks measured in the same run as the deliveries.
struct Limits {
    var h2load: Double
    var encryptOneThread: Double
    var encryptTwoThreads: Double
    /// pywebpush's pushes per second in one Python process (`PyWebPushRate`), when Web Push runs.
    var pywebpush: Result<Double, BenchFailure>?

    /// `webPush`: the subscriptions pywebpush prepares pushes for, and a scratch directory.
    static func measure(sink: HTTP2Sink, requests: Int, bodyBytes: Int, payloadBytes: Int,
                        webPush: (subscriptions: [[String: Any]], directory: String)? = nil) throws -> Limits {
        let h2load = try sink.h2load(requests: requests, connections: 1, bodyBytes: bodyBytes)
        let subscriber = try WebPushSubscriberKeys(p256dh: try P256.PrivateKey.generate().publicKey.base64URLRepresentation,
                                                   auth: Base64.encodeURL(SecureRandom.bytes(16)))
        let payload = SecureRandom.bytes(payloadBytes)
        let encrypt: @Sendable () -> Void = { Sink.consume(try! WebPush.encrypt(payload, to: subscriber)) }
        return Limits(h2load: h2load, encryptOneThread: ParallelRate.measure(threads: 1, seconds: 0.5, encrypt),
                      encryptTwoThreads: ParallelRate.measure(threads: 2, seconds: 0.5, encrypt),
                      pywebpush: webPush.map {
                          PyWebPushRate.measure(subscriptions: $0.subscriptions, payloadBytes: payloadBytes, seconds: 3,
                                                directory: $0.directory)
                      })
    }

    func line(round: Int) -> String {
        var text = String(format: "-- run %d: h2load %.0f req/s (1 connection, 3000 B bodies); RFC 8291 encrypt %.0f/s on 1 thread, %.0f/s on 2",
                          round, h2load, encryptOneThread, encryptTwoThreads)
        switch pywebpush {
        case .success(let rate)?:
            text += String(format: "; pywebpush %.0f pushes/s in one Python process (encode + VAPID header; not sent: "
                           + "pywebpush sends HTTP/1.1 and the sink is h2-only)", rate)
        case .failure(let failure)?: text += "; pywebpush not measured: \(failure)"
        case nil: break
        }
        return text
    }
}

/// Operations per second of `threads` threads running `operation` side by side for `seconds`.
enum ParallelRate {
    static func measure(threads: Int, seconds: Double, _ operation: @escaping @Sendable () -> Void) -> Double {
        let counts = Locked([Int]())
        let group = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds
        let end = start + UInt64(seconds * 1e9)
        for _ in 0..<threads {
            group.enter()
            Thread {
                var count = 0
                while DispatchTime.now().uptimeNanoseconds < end {
                    for _ in 0..<8 { operation() }
                    count += 8
                }
                counts.withLock { $0.append(count) }
                group.leave()
            }.start()
        }
        group.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(counts.withLock { $0 }.reduce(0, +)) / elapsed
    }
}
