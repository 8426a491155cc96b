import Foundation
import PushCrypto
import PushNode
import PushProtocol
import PushService
import PushStore

/// The population of `PushBench ingest`, written through `PushService` into the node's SQLite
/// file (or the PostgreSQL schema `storageURL` names) before the node opens it: one space with `topics` signed topics, `accounts` accounts each
/// with `devices` Web Push registrations (public literal endpoints, so no DNS), all subscribed to
/// every topic.
final class IngestFixture: @unchecked Sendable {
    /// The file the node opens under its dataDir.
    static let databaseName = StoreFactory.sqliteFileName

    let directory: String
    let topics: [Topic]
    let fanOut: Int
    let isPortable: Bool
    /// PostgreSQL instead of the SQLite file.
    let storageURL: String?
    private(set) var store: (any PushStore)?
    private(set) var service: PushService?

    var databasePath: String { directory + "/" + Self.databaseName }

    /// `portable`: the service writes through `PortableStore` (the fan-out path before the SQL one;
    /// SQLite only).
    init(directory: String, options: IngestBench.Options, portable: Bool = false, storageURL: String? = nil) throws {
        self.directory = directory
        self.storageURL = storageURL
        let store = try Self.openStore(directory: directory, storageURL: storageURL)
        let configuration = PushService.Configuration(enabledPlatforms: [.webpush])
        let service = if portable, let sqlite = store as? SQLiteStore {
            PushService(registry: sqlite, notifications: PortableStore(sqlite), configuration: configuration)
        } else {
            PushService(store: store, configuration: configuration)
        }
        let space = Ed25519.KeyPair()
        let spaceKey = try SpaceKey(publicKey: space.publicKey)
        topics = (0..<options.topics).map { index in
            let name = "topic-\(index)"
            return Topic(spaceKey: spaceKey, topic: name, signature: space.sign(Array(name.utf8)))
        }
        let p256dh = try P256.PrivateKey.generate().publicKeyRawRepresentation
        var endpoint = 0
        for _ in 0..<options.accounts {
            let account = AccountKey.generate()
            for device in 0..<options.devices {
                endpoint += 1
                _ = try service.setToken(SetTokenRequest(
                    deviceId: "device-\(device)", platform: .webpush, token: "https://8.8.8.8/push/\(endpoint)",
                    p256dh: p256dh, auth: SecureRandom.bytes(16)), caller: account.accountID)
            }
            _ = try service.subscribeAll(SubscribeRequest(topics: topics), caller: account.accountID)
        }
        try Self.subscribeOthers(options.others, store: store)
        fanOut = options.accounts * options.devices
        self.store = store
        self.service = service
        isPortable = portable
    }

    /// `count` subscriptions of 1,000 accounts with no registration to topics of other spaces.
    private static func subscribeOthers(_ count: Int, store: any PushStore) throws {
        guard count > 0 else { return }
        let accounts = 1000
        let spaces = try (0..<50).map { _ in try SpaceKey(publicKey: Ed25519.KeyPair().publicKey) }
        for account in 0..<accounts {
            let topics = (0..<(count / accounts)).map { TopicRef(spaceKey: spaces[$0 % spaces.count], topic: "other-\($0)") }
            _ = try store.replaceSubscriptions(ofAccount: "other-account-\(account)", with: topics, limit: .max)
        }
    }

    /// The node's store: the SQLite file under `directory`, or PostgreSQL at `storageURL`.
    static func openStore(directory: String, storageURL: String?) throws -> any PushStore {
        guard let storageURL else { return try SQLiteStore(path: directory + "/" + databaseName) }
        return try PostgresStore(url: storageURL, nodeID: "pushbench", configuration: .init(listens: false))
    }

    /// Closes the setup store so the node can open the file.
    func closeStore() {
        store?.close()
        store = nil
        service = nil
    }

    /// A Notify over every topic with a fresh sealed-looking payload, signed by `sender`.
    func notify(from sender: AccountKey) -> NotifyRequest {
        let payload = SecureRandom.bytes(256)
        let message = NotifyMessage(keyId: String(repeating: "ab", count: 32), payload: payload, signature: sender.sign(payload))
        return NotifyRequest(topics: topics, message: message)
    }

    /// `count` complete HTTP/1.1 requests of `POST /v1/notify`, signed per PROTOCOL §2.
    func signedNotifies(from sender: AccountKey, count: Int) -> [[UInt8]] {
        let signer = HTTPSigner(key: sender)
        return (0..<count).map { _ in
            SignedRequest.make("POST", "/v1/notify", body: try! JSON.encode(notify(from: sender)), signer: signer)
        }
    }

    /// Reopens the file and checks every accepted Notify left its rows; a line for the report.
    func outboxReport(expectedNotifies: Int) throws -> String {
        let store = try Self.openStore(directory: directory, storageURL: storageURL)
        defer { store.close() }
        let rows = try store.outboxStatistics().values.reduce(0) { $0 + $1.depth }
        guard rows == expectedNotifies * fanOut else {
            throw LoopbackConnection.Failure(description: "outbox holds \(rows) deliveries, expected \(expectedNotifies * fanOut)")
        }
        return "queued deliveries \(rows) (= \(expectedNotifies) accepted × \(fanOut)), all present after shutdown"
    }

    /// Bytes of the SQLite file and its WAL.
    var fileSizes: (database: Int, wal: Int) {
        func size(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        }
        return (size(databasePath), size(databasePath + "-wal"))
    }
}
