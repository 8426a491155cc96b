import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushEngine
@testable import PushStore
@testable import PushSupport

/// A fresh directory under the system temp dir, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pushnode-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var databasePath: String { url.appendingPathComponent("pushnode.sqlite").path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A SQLite store on a temporary file; the directory lives as long as the fixture. For tests about
/// SQLite itself; the others take a `MemoryStore` (no file) or, for the contract, a `ContractFixture`.
final class StoreFixture {
    let directory = TemporaryDirectory()
    private(set) var store: SQLiteStore

    init(configuration: SQLiteStore.Configuration = .init()) throws {
        store = try SQLiteStore(path: directory.databasePath, configuration: configuration)
    }

    /// Closes and opens the same file again.
    func reopen(configuration: SQLiteStore.Configuration = .init()) throws {
        store.close()
        store = try SQLiteStore(path: directory.databasePath, configuration: configuration)
    }

    deinit { store.close() }
}

let t0 = Date(timeIntervalSince1970: 1_700_000_000)

func spaceKey(_ byte: UInt8) -> SpaceKey { try! SpaceKey(publicKey: [UInt8](repeating: byte, count: 32)) }

func ref(_ byte: UInt8, _ topic: String) -> TopicRef { TopicRef(spaceKey: spaceKey(byte), topic: topic) }

func registration(_ id: String, account: String, device: String = "d1", platform: Platform = .android,
                  token: String? = nil, appId: String = "default", at date: Date = t0) -> Registration {
    Registration(id: id, account: account, deviceId: device,
                 address: DeliveryAddress(platform: platform, token: token ?? "token-\(id)", appId: appId,
                                          environment: platform.provider == .apns ? "production" : ""),
                 createdAt: date, updatedAt: date)
}

func notification(_ id: String, kind: NotifyKind = .message, at date: Date = t0, ttl: TimeInterval = 3600) -> NotificationRecord {
    NotificationRecord(id: id, kind: kind, keyId: String(repeating: "a", count: 64), payload: Array(0..<40),
                       signature: [UInt8](repeating: 1, count: 64), groupId: "g", createdAt: date,
                       expiresAt: date.addingTimeInterval(ttl))
}

/// Runs `body` on `count` concurrent threads and waits for all.
func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}

/// Waits until `condition` holds, checking every half millisecond; after `timeout` seconds
/// records a failure and returns false. A bound against hangs, never a timing assertion: for
/// what another thread does (a lane's pass, a writer's batch), not for time to pass.
@discardableResult
func waitUntil(timeout: TimeInterval = 10, sourceLocation: SourceLocation = #_sourceLocation,
               _ condition: () -> Bool) -> Bool {
    let deadline = Clocks.monotonicSeconds() + timeout
    while !condition() {
        if Clocks.monotonicSeconds() > deadline {
            Issue.record("condition not reached within \(timeout) s", sourceLocation: sourceLocation)
            return false
        }
        usleep(500)
    }
    return true
}

/// A clock tests move by hand: `engineClock` for the engine, `now` for values fed the time.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = t0) { current = start }

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }

    /// The engine's clock at this time; its durations (stop deadlines, send times) stay real, so
    /// a test that fails midway still stops its engine.
    var engineClock: EngineClock { EngineClock(now: { [self] in now }, monotonic: { Clocks.monotonicSeconds() }) }
}

/// A value several threads write: test bookkeeping, on the project's one lock box.
typealias Box<T> = Protected<T>

extension Protected {
    func mutate(_ body: (inout Value) -> Void) { withLock(body) }
    var current: Value { withLock { $0 } }
}

extension OutboxStore {
    /// Completes rows as delivered at `t0`: the tests whose subject is not the outcome.
    func complete(_ ids: [Int64]) throws {
        try complete(ids.map { FinishedDelivery(id: $0, outcome: .delivered) }, at: t0)
    }
}
