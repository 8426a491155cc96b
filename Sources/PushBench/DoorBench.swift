import Foundation
import PushConfig
import PushCrypto
import PushNet
import PushNode
import PushProtocol
import PushService

/// `PushBench door`: one in-process node with both doors open on 127.0.0.1:0 (temp dataDir, no
/// delivery engine), measured in the same run:
/// 1. handshakes/s on the any-sync door: TCP connect → TLS 1.3 with a libp2p client certificate →
///    credentials handshake → close, from `clients` concurrent threads;
/// 2. Notify/s for the same workload over the any-sync door (yamux + DRPC `Push.Notify` on one
///    stream per client) and over the HTTP door (signed `POST /v1/notify` on keep-alive
///    connections): 3 topics, one subscribed account with 2 Web Push devices (fan-out 2).
/// Rounds alternate between the doors; each figure is the median of the rounds.
enum DoorBench {
    struct Options {
        var rounds = 5
        var clients = 4
        var requests = 2000
        var handshakes = 400
    }

    static let usage = "       PushBench door [--rounds R] [--clients C] [--requests N per round] [--handshakes H per round]"

    static func parse(_ arguments: [String]) -> Options? {
        BenchRun.parsePositive(arguments, into: Options()) { options, flag, value in
            switch flag {
            case "--rounds": options.rounds = value
            case "--clients": options.clients = value
            case "--requests": options.requests = value
            case "--handshakes": options.handshakes = value
            default: return false
            }
            return true
        }
    }

    static func run(_ options: Options) throws {
        let directory = try BenchRun.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var population = IngestBench.Options()
        population.accounts = 1
        population.devices = 2
        population.topics = 3
        let fixture = try IngestFixture(directory: directory, options: population)
        fixture.closeStore()

        var config = BenchRun.loopbackConfig(dataDir: directory)
        config.anysync.listen = ListenAddress(host: "127.0.0.1", port: 0)
        let node = Node(config: config, dependencies: IngestBench.withoutDelivery, log: .discard)
        do { try node.start() } catch { throw LoopbackConnection.Failure(description: error.description) }
        defer { node.shutdown() }
        guard let doorPort = node.anysyncPort else { throw LoopbackConnection.Failure(description: "any-sync door did not open") }
        let httpPort = node.port

        let perClient = max(1, options.requests / options.clients)
        let handshakesPerClient = max(1, options.handshakes / options.clients)
        print("== door: \(options.clients) concurrent clients, \(options.rounds) rounds; median of rounds")
        print("   workload: Notify over 3 topics, 1 subscribed account × 2 webpush devices (fan-out 2), "
              + "\(perClient * options.clients) Notify per round per door, SQLite group commit")
        let senders = (0..<options.clients).map { _ in AccountKey.generate() }
        let identities = try (0..<options.clients).map { _ in try AnySyncBenchIdentity() }

        // Warm-up (not timed): both doors, the topic-signature cache, SQLite.
        _ = try handshakeRound(port: doorPort, identities: identities, senders: senders, perClient: 5)
        _ = try doorRound(port: doorPort, fixture: fixture, identities: identities, senders: senders, perClient: 10)
        _ = try httpRound(port: httpPort, fixture: fixture, senders: senders, perClient: 10)
        var accepted = 2 * 10 * options.clients

        var handshakeRates: [Double] = []
        var doorRates: [Double] = []
        var httpRates: [Double] = []
        for _ in 0..<options.rounds {
            handshakeRates.append(try handshakeRound(port: doorPort, identities: identities, senders: senders, perClient: handshakesPerClient))
            doorRates.append(try doorRound(port: doorPort, fixture: fixture, identities: identities, senders: senders, perClient: perClient))
            httpRates.append(try httpRound(port: httpPort, fixture: fixture, senders: senders, perClient: perClient))
            accepted += 2 * perClient * options.clients
        }
        node.shutdown()
        let stats = try fixture.outboxReport(expectedNotifies: accepted)

        let door = median(doorRates), http = median(httpRates)
        print(String(format: "any-sync handshakes/s %.0f  (connect + TLS 1.3 w/ libp2p client cert + credentials + close; %d per round; rounds %@)",
                     median(handshakeRates), handshakesPerClient * options.clients, list(handshakeRates)))
        print(String(format: "Notify/s over the any-sync door %.0f  (yamux + DRPC Push.Notify, one session per client; rounds %@)",
                     door, list(doorRates)))
        print(String(format: "Notify/s over the HTTP door     %.0f  (RFC 9421-signed POST /v1/notify, keep-alive; rounds %@)",
                     http, list(httpRates)))
        print(String(format: "door / HTTP %.2f", door / http))
        print(stats)
    }

    /// Handshakes per second: each client connects, authenticates and closes, `perClient` times.
    private static func handshakeRound(port: Int, identities: [AnySyncBenchIdentity], senders: [AccountKey], perClient: Int) throws -> Double {
        try concurrently(count: identities.count) { index in
            for _ in 0..<perClient {
                let client = try AnySyncBenchClient(port: port, identity: identities[index], account: senders[index])
                client.close()
            }
        } * Double(perClient * identities.count)
    }

    /// Notify/s over the door: sessions are opened before the clock starts.
    private static func doorRound(port: Int, fixture: IngestFixture, identities: [AnySyncBenchIdentity], senders: [AccountKey],
                                  perClient: Int) throws -> Double {
        let clients = try (0..<identities.count).map { try AnySyncBenchClient(port: port, identity: identities[$0], account: senders[$0]) }
        defer { clients.forEach { $0.close() } }
        let bodies = senders.map { sender in (0..<perClient).map { _ in AnySyncBenchClient.notifyBody(fixture.notify(from: sender)) } }
        let sendable = Unchecked(clients)
        return try concurrently(count: clients.count) { index in
            for body in bodies[index] { _ = try sendable.value[index].call("Notify", body: body) }
        } * Double(perClient * clients.count)
    }

    /// Notify/s over HTTP: connections are opened before the clock starts.
    private static func httpRound(port: Int, fixture: IngestFixture, senders: [AccountKey], perClient: Int) throws -> Double {
        let connections = Unchecked(try senders.map { _ in try LoopbackConnection(port: port) })
        let batches = senders.map { fixture.signedNotifies(from: $0, count: perClient) }
        return try concurrently(count: senders.count) { index in
            for request in batches[index] {
                let answer = try connections.value[index].exchange(request)
                guard answer.status == 200 else { throw LoopbackConnection.Failure(description: "Notify answered \(answer.status)") }
            }
        } * Double(perClient * senders.count)
    }

    /// Runs `work(index)` on `count` threads at once; returns 1 / elapsed seconds, or the first error.
    private static func concurrently(count: Int, _ work: @escaping @Sendable (Int) throws -> Void) throws -> Double {
        1 / (try BenchRun.onThreads(count: count, work))
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    private static func list(_ values: [Double]) -> String { values.map { String(format: "%.0f", $0) }.joined(separator: " ") }
}

/// Hands per-thread objects (each used by exactly one thread) to the client threads.
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
