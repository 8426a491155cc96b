import Dispatch
import Foundation
import HTTPClient
import PushCrypto
import PushDelivery
import PushEngine
import PushMetrics
import PushProtocol
import PushStore
import PushSupport

/// `PushBench deliver`: deliveries/s from a filled outbox through the delivery engine (store
/// claim → gateway request → transport → classification → batched completion) to an
/// in-process sink that answers every request at once on its own thread, per provider; Web
/// Push as a ratio to the single-thread RFC 8291 encrypt rate of the same run; RSS with a
/// large queue.
enum DeliveryBenchmark {
    struct Options {
        var deliveries = 20_000
        var rounds = 3
        var queued = 100_000
        /// `--only <provider>`: time that provider alone, no RSS run (for profiling).
        var only: Provider?
    }

    static let usage = "usage: PushBench deliver [--deliveries N] [--rounds R] [--queued Q] [--only fcm|apns|webpush]"

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var index = 0
        while index + 1 < arguments.count {
            if arguments[index] == "--only" {
                guard let provider = Provider(rawValue: arguments[index + 1]) else { return nil }
                options.only = provider
                index += 2
                continue
            }
            guard let value = Int(arguments[index + 1]), value > 0 else { return nil }
            switch arguments[index] {
            case "--deliveries": options.deliveries = value
            case "--rounds": options.rounds = value
            case "--queued": options.queued = value
            default: return nil
            }
            index += 2
        }
        return options
    }

    static func run(_ options: Options) throws {
        print("deliver: deliveries/s = outbox rows drained per second through the whole engine: SQLite claim,")
        print("         request build (Web Push: RFC 8291 encryption + cached VAPID), send to an in-process sink")
        print("         answering 200/201 at once on its own thread, classification, batched completion (delete).")
        print("         \(options.deliveries) deliveries per round, median of \(options.rounds) rounds; \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let providers = options.only.map { [$0] } ?? [Provider.fcm, .apns, .webpush]
        for provider in providers {
            var samples: [Double] = []
            var cpu: [Double] = []
            var writes: [Double] = []
            var writerTime: [Double] = []
            var ratios: [Double] = []
            var encryptRates: [Double] = []
            for _ in 0..<options.rounds {
                // Web Push: the encrypt rate is taken right before and after each round, so the
                // ratio compares figures measured under the same load on a shared machine.
                let encryptBefore = provider == .webpush ? try webPushEncryptRate() : 0
                let drained = try drain(provider: provider, count: options.deliveries)
                let rate = drained.rate
                samples.append(rate)
                cpu.append(drained.cpuMicroseconds)
                writes.append(drained.writesPerThousand)
                writerTime.append(drained.writerMillisecondsPerThousand)
                if provider == .webpush {
                    let encrypt = (encryptBefore + (try webPushEncryptRate())) / 2
                    encryptRates.append(encrypt)
                    ratios.append(rate / encrypt)
                }
            }
            print("  \(provider.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) " + String(format: "%9.0f deliveries/s  (process CPU %.0f µs per delivery; %.1f store writes, %.0f ms writer time per 1000)",
                                       median(samples), median(cpu), median(writes), median(writerTime)))
            if provider == .webpush {
                print(String(format: "  RFC 8291 encrypt, one thread, 520-byte plaintext, around each round: %.0f/s (thread CPU %.0f µs each)",
                             median(encryptRates), try webPushEncryptCPUMicroseconds()))
                print(String(format: "  webpush delivery/encrypt ratio, median of per-round ratios: %.2f (target >= 0.6)", median(ratios)))
            }
        }
        guard options.only == nil else { return }
        let rss = try drain(provider: .fcm, count: options.queued, sampleRSS: true)
        print(String(format: "  RSS (fcm): %.1f MiB before filling, %.1f MiB with %d queued, peak %.1f MiB while draining (%.0f deliveries/s)",
                     rss.before, rss.filled, options.queued, rss.peak, rss.rate))
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    struct Drain {
        var rate: Double
        /// Process CPU time (user + system, all threads) per delivery while draining.
        var cpuMicroseconds = 0.0
        /// Store writes (claims, completions, …) and their time on the writer thread, per 1000 deliveries.
        var writesPerThousand = 0.0
        var writerMillisecondsPerThousand = 0.0
        var before = 0.0
        var filled = 0.0
        var peak = 0.0
    }

    /// Fills a fresh store with `count` deliveries of `provider`, then times the engine emptying it.
    static func drain(provider: Provider, count: Int, sampleRSS: Bool = false) throws -> Drain {
        let directory = NSTemporaryDirectory() + "pushbench-deliver-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let before = residentMiB()
        let store = try SQLiteStore(path: directory + "/bench.sqlite")
        defer { store.close() }
        try fill(store, provider: provider, count: count)
        let filled = residentMiB()

        let metrics = MetricsRegistry()
        let engine = DeliveryEngine(store: store, routes: [try route(for: provider)], transport: SinkTransport(),
                                    configuration: .init(maxInFlight: 1000, claimBatch: 512, pollInterval: 0.01),
                                    metrics: metrics, log: .discard)
        let delivered = metrics.counter("pushnode_deliveries_total", help: "", labels: ["provider", "outcome"])
        let start = Clocks.monotonicSeconds()
        let cpuStart = processCPUSeconds()
        let storeStart = store.statistics()
        engine.start()
        var peak = filled
        while delivered.value(provider.rawValue, "delivered") < Double(count) {
            usleep(2_000)
            if sampleRSS { peak = max(peak, residentMiB()) }
        }
        let seconds = Clocks.monotonicSeconds() - start
        let cpu = processCPUSeconds() - cpuStart
        let storeEnd = store.statistics()
        engine.drain(timeout: 5)
        let thousands = Double(count) / 1000
        return Drain(rate: Double(count) / seconds, cpuMicroseconds: cpu / Double(count) * 1e6,
                     writesPerThousand: Double(storeEnd.writes - storeStart.writes) / thousands,
                     writerMillisecondsPerThousand: (storeEnd.batchSeconds - storeStart.batchSeconds) * 1000 / thousands,
                     before: before, filled: filled, peak: peak)
    }

    static func fill(_ store: SQLiteStore, provider: Provider, count: Int) throws {
        let platform = provider.platforms[0]
        let subscriber = try P256.PrivateKey.generate().publicKeyRawRepresentation
        let now = Date()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in stride(from: worker, to: count, by: 8) {
                let token: String
                switch provider {
                case .fcm: token = "fcm-token-\(index)"
                case .apns: token = Hex.encode(SHA256.hash(Array("apns-\(index)".utf8)))
                case .webpush: token = "https://push.example.net/push/sub-\(index)"
                case .huawei, .harmony: token = "\(provider.rawValue)-token-\(index)"
                }
                let address = DeliveryAddress(
                    platform: platform, token: token, p256dh: provider == .webpush ? subscriber : nil,
                    auth: provider == .webpush ? Array(repeating: 7, count: 16) : nil,
                    environment: provider == .apns ? "production" : "")
                _ = try? store.saveRegistration(Registration(
                    id: "r\(index)", account: "A", deviceId: "d\(index)", address: address, createdAt: now, updatedAt: now))
            }
        }
        let payload = SecureRandom.bytes(200)
        for batch in stride(from: 0, to: count, by: 1000) {
            let deliveries = (batch..<min(count, batch + 1000)).map { Delivery(registrationId: "r\($0)", provider: provider) }
            let record = NotificationRecord(id: "n\(batch)", kind: .message, keyId: String(repeating: "a", count: 64),
                                            payload: payload, signature: Array(repeating: 1, count: 64), groupId: "g",
                                            createdAt: now, expiresAt: now.addingTimeInterval(3600))
            _ = try store.enqueue(record, deliveries: deliveries, caller: "S", key: IdempotencyKey(bytes: Array("k\(batch)".utf8)),
                                  duplicateSince: .distantPast)
        }
    }

    static func route(for provider: Provider) throws -> DeliveryEngine.Route {
        let gateway: any PushGateway = switch provider {
        case .fcm: CredentialedGateway<FCMGateway>(configuration: .init(projectId: "bench"), credential: { "bench-access-token" })
        case .apns: CredentialedGateway<APNsGateway>(configuration: .init(topic: "org.example.app"), credential: { "bench.jwt.token" })
        case .webpush:
            WebPushGateway(encryptor: CachingWebPushEncryptor(),
                           authorizer: CachingVAPIDAuthorizer(key: try VAPID.Key.generate(), subject: "mailto:bench@example.org"),
                           isRoutable: { _ in true })
        case .huawei: CredentialedGateway<HuaweiGateway>(configuration: .init(appId: "bench"), credential: { "bench-access-token" })
        case .harmony: CredentialedGateway<HarmonyGateway>(configuration: .init(projectId: "bench"), credential: { "bench.jwt.token" })
        }
        return .init(gateway: gateway, credentials: nil)
    }

    static func webPushEncryptRate() throws -> Double {
        let keys = try WebPushSubscriberKeys(p256dh: P256.PrivateKey.generate().publicKey, auth: SecureRandom.bytes(16))
        let plaintext = [UInt8](repeating: 0x61, count: 520)
        return try Timing(milliseconds: 200, rounds: 3).rate { Sink.consume(try WebPush.encrypt(plaintext, to: keys)) }
    }

    /// Thread CPU time of one RFC 8291 encryption, the mean of 500: with the process CPU per
    /// delivery, a comparison the load of other processes does not move.
    static func webPushEncryptCPUMicroseconds() throws -> Double {
        let keys = try WebPushSubscriberKeys(p256dh: P256.PrivateKey.generate().publicKey, auth: SecureRandom.bytes(16))
        let plaintext = [UInt8](repeating: 0x61, count: 520)
        func threadCPU() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let start = threadCPU()
        for _ in 0..<500 { Sink.consume(try WebPush.encrypt(plaintext, to: keys)) }
        return (threadCPU() - start) / 500 * 1e6
    }

    /// User + system CPU seconds of this process, all threads.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// VmRSS (or VmHWM) of this process in MiB.
    static func residentMiB(_ field: String = "VmRSS") -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
        let kib = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return kib / 1024
    }
}

/// Answers every request at once (200, or 201 for Web Push) from a serial queue, the way the
/// HTTP client's loop thread would.
final class SinkTransport: DeliveryTransport, @unchecked Sendable {
    private let queue = DispatchQueue(label: "pushbench.sink")

    func send(_ request: OutboundRequest, provider: Provider, timeout: Duration,
              completion: @escaping @Sendable (Result<ProviderAnswer, TransportFailure>) -> Void) {
        let status = provider == .webpush ? 201 : 200
        queue.async { completion(.success(ProviderAnswer(status: status))) }
    }

    func shutdown() {}
}
