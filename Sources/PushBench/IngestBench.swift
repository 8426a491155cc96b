import Foundation
import PushConfig
import PushCrypto
import PushHTTP
import PushNet
import PushNode
import PushProtocol
import PushService
import PushStore

/// `PushBench ingest`: signed Notify requests from concurrent loopback clients against an
/// in-process node (temp dataDir, 127.0.0.1:0), 3 topics, 100 subscribed accounts with 2 Web Push
/// devices each (fan-out 200 outbox rows per Notify; `--accounts 1 --devices 2` is fan-out 2), every one durably accepted before its 200.
/// Reports Notify/s, latency percentiles, and the ratio to the Ed25519 crypto bound measured in
/// the same run. `--fill N` instead fills the outbox to N rows through `PushService` (no HTTP)
/// and reports the SQLite file size and the process RSS. Nothing drains the outbox here.
enum IngestBench {
    struct Options {
        var requests = 6000
        var clients = 8
        var accounts = 100
        var devices = 2
        var topics = 3
        var fill: Int?
        /// `--portable 1`: Notify through the store's portable fan-out (recipients into Swift), for before/after.
        var portable = false
        /// `--others N`: N more subscriptions, of 1,000 other accounts to topics of other spaces
        /// (none of them a recipient): the store the Notify searches is that much bigger.
        var others = 0
        /// `--storage-url postgres://…`: the same run on PostgreSQL too (a schema of its own,
        /// dropped after), after the SQLite run, and the ratios of the two.
        var storageURL: String?
    }

    static let usage = """
               PushBench ingest [--requests N] [--clients C] [--accounts A] [--devices D] [--fill ROWS] [--portable 1] [--others SUBSCRIPTIONS]
                                [--storage-url postgres://…]
        """

    static func parse(_ arguments: [String]) -> Options? {
        var numeric = arguments
        var storageURL: String?
        if let flag = numeric.firstIndex(of: "--storage-url") {
            guard flag + 1 < numeric.count else { return nil }
            storageURL = numeric[flag + 1]
            numeric.removeSubrange(flag...flag + 1)
        }
        var options = Options()
        options.storageURL = storageURL
        return BenchRun.parsePositive(numeric, into: options) { options, flag, value in
            switch flag {
            case "--requests": options.requests = value
            case "--clients": options.clients = value
            case "--accounts": options.accounts = value
            case "--devices": options.devices = value
            case "--fill": options.fill = value
            case "--portable": options.portable = value == 1
            case "--others": options.others = value
            default: return false
            }
            return true
        }
    }

    static func run(_ options: Options) throws {
        if let rows = options.fill {
            let directory = try BenchRun.scratchDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let fixture = try IngestFixture(directory: directory, options: options, portable: options.portable)
            try OutboxFill.run(fixture: fixture, rows: rows, clients: options.clients)
            return
        }
        let sqlite = try runHTTP(options: options, storageURL: nil)
        guard let baseURL = options.storageURL else { return }
        let schema = try PostgresScratchSchema(baseURL: baseURL)
        defer { schema.drop() }
        let postgres = try runHTTP(options: options, storageURL: schema.url)
        print(String(format: "PostgreSQL / SQLite, same run: Notify/s %.2f (%.0f / %.0f), node CPU per Notify %.2f (%.0f / %.0f µs), "
                     + "p50 latency %.2f (target: Notify/s >= 0.5)",
                     postgres.rate / sqlite.rate, postgres.rate, sqlite.rate, postgres.nodeCPU / sqlite.nodeCPU,
                     postgres.nodeCPU, sqlite.nodeCPU, postgres.p50 / sqlite.p50))
    }

    /// What `runHTTP` measured, for the PostgreSQL / SQLite ratios.
    struct Figures {
        var rate: Double
        var nodeCPU: Double
        var p50: Double
    }

    /// One run over loopback HTTP on SQLite, or on the PostgreSQL schema `storageURL` names.
    private static func runHTTP(options: Options, storageURL: String?) throws -> Figures {
        let directory = try BenchRun.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fixture = try IngestFixture(directory: directory, options: options, portable: options.portable, storageURL: storageURL)
        fixture.closeStore()
        var config = BenchRun.loopbackConfig(dataDir: fixture.directory)
        if let storageURL {
            config.storage.driver = .postgres
            config.storage.url = storageURL
        }
        let store = Locked<(any PushStore)?>(nil)
        let node = Node(config: config, dependencies: withoutDelivery(opened: { opened in store.withLock { $0 = opened } }), log: .discard)
        do { try node.start() } catch { throw LoopbackConnection.Failure(description: error.description) }
        defer { node.shutdown() }

        let perClient = max(1, options.requests / options.clients)
        let storage = storageURL == nil ? "SQLite group commit" : "PostgreSQL (its replay window in the database)"
        print("== ingest: \(options.clients) keep-alive loopback clients, \(perClient * options.clients) signed Notify requests, "
              + "\(options.topics) topics, \(options.accounts) subscribed accounts × \(options.devices) webpush devices "
              + "(fan-out \(options.accounts * options.devices)), \(options.others) other subscriptions, \(storage)")
        let senders = (0..<options.clients).map { _ in AccountKey.generate() }
        let port = node.port
        // Warm-up (not timed): connections, topic-signature cache, SQLite page cache.
        for sender in senders {
            let connection = try LoopbackConnection(port: port)
            for request in fixture.signedNotifies(from: sender, count: 10) { try expectAccepted(connection.exchange(request)) }
        }
        let batches = senders.map { fixture.signedNotifies(from: $0, count: perClient) }

        let latencies = Locked([Double]())
        let failures = Locked([String]())
        let group = DispatchGroup()
        let clientCPU = Locked(0.0)
        let cpuBefore = CPUTime.process()
        let started = DispatchTime.now().uptimeNanoseconds
        for batch in batches {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                let ownCPU = CPUTime.thread()
                defer { clientCPU.withLock { $0 += CPUTime.thread() - ownCPU } }
                var own: [Double] = []
                own.reserveCapacity(batch.count)
                do {
                    let connection = try LoopbackConnection(port: port)
                    for request in batch {
                        let t0 = DispatchTime.now().uptimeNanoseconds
                        try expectAccepted(connection.exchange(request))
                        own.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                latencies.withLock { $0.append(contentsOf: own) }
            }
            thread.start()
        }
        group.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let cpu = CPUTime.process() - cpuBefore
        let commits = store.withLock { $0?.statistics() } ?? StoreStatistics()
        if let failure = failures.withLock({ $0.first }) { throw LoopbackConnection.Failure(description: failure) }
        let sorted = latencies.withLock { $0 }.sorted()
        let rate = Double(sorted.count) / seconds
        node.shutdown()
        let stats = try fixture.outboxReport(expectedNotifies: sorted.count + 10 * options.clients)

        let decode = try measureDecode(fixture.notify(from: senders[0]))
        let verify = measureVerifyRate()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print(String(format: "Notify/s %.0f  (%d in %.2f s; %.0f outbox rows/s)", rate, sorted.count, seconds,
                     rate * Double(options.accounts * options.devices)))
        print(String(format: "latency ms  p50 %.2f  p90 %.2f  p99 %.2f  max %.2f", percentile(sorted, 0.50),
                     percentile(sorted, 0.90), percentile(sorted, 0.99), sorted.last ?? 0))
        print(stats)
        print(String(format: "store: %d writes in %d commits (%.1f per commit, largest %d), writer busy %.0f µs per write",
                     commits.writes, commits.commits, Double(commits.writes) / Double(max(1, commits.commits)), commits.largestBatch,
                     commits.batchSeconds / Double(max(1, commits.writes)) * 1e6))
        print(String(format: "Notify body decode (%d bytes): Foundation JSONDecoder %.1f µs, JSON.decode %.1f µs (%.1f× faster)",
                     decode.bytes, 1e6 / decode.rates.first, 1e6 / decode.rates.second, decode.rates.ratio))
        print(String(format: "Ed25519 verify %.0f/s per core, %d cores: %.0f/s", verify, cores, verify * Double(cores)))
        // CPU time is what other processes on a shared machine disturb least: the node's CPU per
        // Notify against the 2 verifies it cannot avoid is the bound ratio on a machine of its own.
        let count = Double(sorted.count)
        let nodeCPU = (cpu - clientCPU.withLock { $0 }) / count * 1e6
        let verifyCPU = measureVerifyCPU()
        print(String(format: "CPU per Notify: node %.0f µs, bench clients %.0f µs; 2 verifies = %.0f µs CPU = %.3f of the node's CPU "
                     + "(the bound ratio on an idle machine)",
                     nodeCPU, clientCPU.withLock { $0 } / count * 1e6, 2 * verifyCPU, 2 * verifyCPU / nodeCPU))
        let cold = 2 + options.topics  // request signature (RFC 9421) + message + one per topic
        let warm = 2  // topic signatures answered by the cache
        for (label, verifies) in [("cold topic cache", cold), ("warm topic cache", warm)] {
            let bound = verify * Double(cores) / Double(verifies)
            print(String(format: "crypto bound (%@: %d verifies/Notify) %.0f Notify/s; measured/bound %.3f (target >= 0.5)",
                         label, verifies, bound, rate / bound))
        }
        return Figures(rate: rate, nodeCPU: nodeCPU, p50: percentile(sorted, 0.50))
    }

    /// The production wiring minus the delivery engine: nothing drains the outbox during the run
    /// (the endpoints are not real), so every accepted row can be counted afterwards. The service
    /// is handed over so the any-sync door opens when `anysync.listen` is set (`PushBench door`).
    static let withoutDelivery = withoutDelivery(opened: { _ in })

    /// `withoutDelivery`, handing the opened store to `opened` (for its commit statistics). The
    /// store and the replay cache are production's (`StoreFactory`), SQLite or PostgreSQL.
    static func withoutDelivery(opened: @escaping @Sendable (any PushStore) -> Void) -> Node.Dependencies {
        Node.Dependencies(
            openBackend: { config, platforms, _, _, storage in
                let store = try StoreFactory.open(config: config)
                opened(store)
                let service = PushService(store: store, configuration: .init(
                    limits: config.limits, enabledPlatforms: platforms, allowPrivateEndpoints: config.webpush.allowPrivateEndpoints),
                    storageHealth: storage)
                let routes = ServiceRoutes(service: service)
                return NodeBackend(handler: { routes.handle($0, caller: $1) },
                                   close: { store.close() }, service: service)
            },
            vapidPublicKey: Node.Dependencies.production.vapidPublicKey,
            replayCache: Node.Dependencies.production.replayCache)
    }

    private static func expectAccepted(_ answer: (status: Int, body: [UInt8])) throws {
        guard answer.status == 200, String(decoding: answer.body, as: UTF8.self).contains("\"duplicate\":false") else {
            throw LoopbackConnection.Failure(description: "Notify answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
    }

    /// Decodes per second of one Notify body by Foundation alone and by `JSON.decode` (its tape
    /// first), in alternating rounds.
    static func measureDecode(_ request: NotifyRequest) throws -> (bytes: Int, rates: (first: Double, second: Double, ratio: Double)) {
        let body = try JSON.encode(request)
        let rates = try Timing(milliseconds: 200, rounds: 5).compare(
            { Sink.consume(try JSON.foundationDecode(NotifyRequest.self, from: body).topics.isEmpty) },
            { Sink.consume(try JSON.decode(NotifyRequest.self, from: body).topics.isEmpty) })
        return (body.count, rates)
    }

    /// Single-thread Ed25519 verifies per second (64-byte messages, like the topic checks).
    static func measureVerifyRate() -> Double {
        let key = Ed25519.KeyPair()
        let message = SecureRandom.bytes(64)
        let signature = key.sign(message)
        return Timing(milliseconds: 200, rounds: 5).rate {
            Sink.consume(Ed25519.verify(signature: signature, message: message, publicKey: key.publicKey))
        }
    }

    /// CPU µs of one Ed25519 verify on this thread (median of 5 rounds of 1,000), which load from
    /// other processes disturbs less than a rate.
    static func measureVerifyCPU() -> Double {
        let key = Ed25519.KeyPair()
        let message = SecureRandom.bytes(64)
        let signature = key.sign(message)
        let rounds = (0..<5).map { _ in
            let start = CPUTime.thread()
            for _ in 0..<1000 { Sink.consume(Ed25519.verify(signature: signature, message: message, publicKey: key.publicKey)) }
            return (CPUTime.thread() - start) / 1000 * 1e6
        }
        return rounds.sorted()[2]
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
}

/// CPU seconds used so far, user and system.
enum CPUTime {
    /// By the whole process (every thread, the in-process clients included).
    static func process() -> Double { seconds(CLOCK_PROCESS_CPUTIME_ID) }
    /// By the calling thread.
    static func thread() -> Double { seconds(CLOCK_THREAD_CPUTIME_ID) }

    private static func seconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A value behind a lock, shared by the client threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
