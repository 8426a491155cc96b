import Dispatch
import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// What only a shared database has: several nodes at once, lost connections, notifications.
@Suite(.enabled(if: PGTestDatabase.isAvailable, "PUSHNODE_TEST_PG_URL is unset"))
struct PostgresStoreTests {
    private func node(_ id: String, _ database: PGTestDatabase, lease: TimeInterval = 30,
                      listens: Bool = false) throws -> PostgresStore {
        try PostgresStore(url: database.url, nodeID: id, configuration: .init(claimLease: lease, poolSize: 4, listens: listens))
    }

    private func queue(_ count: Int, from start: Int = 0, on store: PostgresStore) throws {
        _ = try store.saveRegistration(registration("f1", account: "A"))
        for index in start..<start + count {
            _ = try store.enqueue(notification("n\(index)"), deliveries: [Delivery(registrationId: "f1", provider: .fcm)],
                                  caller: "S", key: IdempotencyKey(bytes: [UInt8(index % 256), UInt8(index / 256)]),
                                  duplicateSince: t0)
        }
    }

    @Test func nodesStartingTogetherMigrateOnce() throws {
        let database = try PGTestDatabase()
        let failures = Box(0)
        concurrently(4) { index in
            do { try self.node("n\(index)", database).close() } catch { failures.mutate { $0 += 1 } }
        }
        #expect(failures.current == 0)
        let connection = try database.connect()
        #expect(try connection.query("SELECT version FROM pushnode_schema").rows.map { $0.int(0) } == [PostgresMigrations.latestVersion])
        try connection.execute("UPDATE pushnode_schema SET version = 99")
        #expect(throws: StoreError.incompatibleSchema(found: 99, supported: PostgresMigrations.latestVersion)) {
            _ = try self.node("late", database)
        }
    }

    /// Nodes on one database probe writes on one row (PROTOCOL §3.3): each probe commits a new version.
    @Test func theWriteProbeUpdatesOneSharedRow() throws {
        let database = try PGTestDatabase()
        let a = try node("a", database), b = try node("b", database)
        defer { a.close(); b.close() }
        try a.probeWrite()
        try b.probeWrite()
        try a.probeWrite()
        let rows = try database.connect().query("SELECT id, writes FROM write_probe").rows.map { [$0.int(0), $0.int(1)] }
        #expect(rows == [[1, 3]])
    }

    @Test func twoNodesNeverClaimTheSameRow() throws {
        let database = try PGTestDatabase()
        let a = try node("a", database), b = try node("b", database)
        defer { a.close(); b.close() }
        try queue(120, on: a)
        let claimed = Box<[String: [Int64]]>(["a": [], "b": []])
        concurrently(2) { index in
            let (name, store) = index == 0 ? ("a", a) : ("b", b)
            while let entries = try? store.claimDue(provider: .fcm, limit: 7, now: t0).entries, !entries.isEmpty {
                claimed.mutate { $0[name]!.append(contentsOf: entries.map(\.id)) }
            }
        }
        let fromA = Set(claimed.current["a"]!), fromB = Set(claimed.current["b"]!)
        #expect(fromA.isDisjoint(with: fromB))
        #expect(fromA.count + fromB.count == 120)
        #expect(claimed.current["a"]!.count + claimed.current["b"]!.count == 120)
    }

    /// One Notify of fan-out 700 (three chunks): two nodes claiming at once expand different
    /// chunks (or wait for none: `SKIP LOCKED`), and every delivery goes to exactly one of them.
    @Test func twoNodesExpandOneFanOutEachDeliveryOnce() throws {
        let database = try PGTestDatabase()
        let a = try node("a", database), b = try node("b", database)
        defer { a.close(); b.close() }
        var deliveries: [Delivery] = []
        for index in 0..<700 {
            let id = String(format: "%032x", index + 1)
            _ = try a.saveRegistration(registration(id, account: "A\(index)"))
            deliveries.append(Delivery(registrationId: id, provider: .fcm))
        }
        _ = try a.enqueue(notification("n1"), deliveries: deliveries, caller: "S", key: IdempotencyKey(bytes: [1]),
                          duplicateSince: t0)
        let claimed = Box<[String: [String]]>(["a": [], "b": []])
        concurrently(2) { index in
            let (name, store) = index == 0 ? ("a", a) : ("b", b)
            while let entries = try? store.claimDue(provider: .fcm, limit: 9, now: t0.addingTimeInterval(1)).entries,
                  !entries.isEmpty {
                claimed.mutate { $0[name]!.append(contentsOf: entries.map(\.registration.id)) }
            }
        }
        let all = claimed.current["a"]! + claimed.current["b"]!
        #expect(all.count == 700)
        #expect(Set(all) == Set(deliveries.map(\.registrationId)))
        #expect(!claimed.current["a"]!.isEmpty && !claimed.current["b"]!.isEmpty, "one node claimed everything")
        #expect(try database.connect().query("SELECT count(*) FROM recipient_chunks").row(0).int(0) == 0)
    }

    @Test func aDeadNodesClaimsResumeElsewhereAndARestartTakesBackOnlyItsOwn() throws {
        let database = try PGTestDatabase()
        let a = try node("a", database, lease: 30), b = try node("b", database, lease: 30)
        defer { b.close() }
        try queue(4, on: a)
        let heldByA = try a.claimDue(provider: .fcm, limit: 2, now: t0).entries.map(\.id)
        let heldByB = try b.claimDue(provider: .fcm, limit: 2, now: t0).entries.map(\.id)
        #expect(heldByA.count == 2 && heldByB.count == 2)
        // While A lives (its lease runs), B gets nothing, and B cannot renew A's claims.
        #expect(try b.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(29)).entries.isEmpty)
        #expect(try b.renewClaims(heldByA, now: t0.addingTimeInterval(10)).isEmpty)
        // A dies without a word; after its lease B resumes A's deliveries.
        a.close()
        let resumed = try b.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(31))
        #expect(Set(resumed.entries.map(\.id)) == Set(heldByA + heldByB))
        try b.reschedule(resumed.entries[0].id, at: t0)
        // B's claims survive a restart of A: A takes back only rows claimed under its own id.
        let c = try node("c", database, lease: 30)
        let cClaims = try c.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(32)).entries.map(\.id)
        #expect(cClaims == [resumed.entries[0].id])
        c.close()
        let restartedC = try node("c", database, lease: 30)
        defer { restartedC.close() }
        #expect(try restartedC.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(33)).entries.map(\.id) == cClaims)
    }

    @Test func concurrentDuplicatesOnTwoNodesAreAcceptedOnce() throws {
        let database = try PGTestDatabase()
        let a = try node("a", database), b = try node("b", database)
        defer { a.close(); b.close() }
        _ = try a.saveRegistration(registration("f1", account: "A"))
        let outcomes = Box<[EnqueueOutcome]>([])
        concurrently(8) { index in
            let store = index % 2 == 0 ? a : b
            if let outcome = try? store.enqueue(notification("n\(index)"), deliveries: [Delivery(registrationId: "f1", provider: .fcm)],
                                                caller: "S", key: IdempotencyKey(bytes: [42]), duplicateSince: t0) {
                outcomes.mutate { $0.append(outcome) }
            }
        }
        let accepted = outcomes.current.compactMap { if case .accepted(let id) = $0 { id } else { nil } }
        #expect(outcomes.current.count == 8 && accepted.count == 1)
        #expect(outcomes.current.allSatisfy { $0 == .accepted(accepted[0]) || $0 == .duplicate(accepted[0]) })
        #expect(try a.outboxStatistics()[.fcm]?.depth == 1)
    }

    @Test func aLostConnectionIsReopenedAndNothingAcknowledgedIsLost() throws {
        let database = try PGTestDatabase()
        let store = try node("a", database)
        defer { store.close() }
        try queue(3, on: store)
        #expect(try database.terminateConnections() > 0)
        // The pooled connections are dead; the next calls reconnect.
        try queue(3, from: 3, on: store)
        #expect(try store.outboxStatistics()[.fcm]?.depth == 6)
        #expect(try database.terminateConnections() > 0)
        #expect(try store.registrations(ofAccount: "A").map(\.id) == ["f1"])
    }

    @Test func newRowsOnOneNodeWakeListenersOnAnother() throws {
        let database = try PGTestDatabase()
        let writer = try node("a", database)
        let listener = try node("b", database, listens: true)
        defer { writer.close(); listener.close() }
        let woken = DispatchSemaphore(value: 0)
        listener.onEnqueue { woken.signal() }
        // The listener connects on its own thread: keep queueing until it hears one (a guard, not a timing assertion).
        var heard = false
        for round in 0..<60 where !heard {
            _ = try writer.saveRegistration(registration("f1", account: "A"))
            _ = try writer.enqueue(notification("n\(round)"), deliveries: [Delivery(registrationId: "f1", provider: .fcm)],
                                   caller: "S", key: IdempotencyKey(bytes: [UInt8(round)]), duplicateSince: t0)
            heard = woken.wait(timeout: .now() + 0.5) == .success
        }
        #expect(heard)
    }

    @Test func theReplayWindowIsSharedByEveryNode() throws {
        let database = try PGTestDatabase()
        try PostgresSchema.prepare(url: database.url)
        // No background purge: the test purges itself.
        let first = PostgresReplayCache(url: database.url, purgeInterval: .infinity)
        let second = PostgresReplayCache(url: database.url, purgeInterval: .infinity)
        defer { first.close(); second.close() }
        #expect(first.record(keyID: "k", nonce: "n1", expiresAt: 1300, now: 1000) == .fresh)
        #expect(second.record(keyID: "k", nonce: "n1", expiresAt: 1300, now: 1100) == .replayed)
        #expect(first.record(keyID: "k", nonce: "n1", expiresAt: 1300, now: 1300) == .replayed)
        #expect(second.record(keyID: "k2", nonce: "n1", expiresAt: 1300, now: 1100) == .fresh)
        // After its window the pair may be used again (as the memory cache allows), and purged.
        #expect(second.record(keyID: "k", nonce: "n1", expiresAt: 1700, now: 1301) == .fresh)
        #expect(try first.purgeExpired(now: 1400) == 1)
        #expect(first.failures == 0 && second.failures == 0)
    }

    /// A database that cannot be reached is "could not check", never "seen" (which would be 401).
    @Test func anUnreachableReplayWindowIsUnavailableNotReplayed() {
        let cache = PostgresReplayCache(url: "postgres://postgres@127.0.0.1:1/none?connect_timeout=2", purgeInterval: .infinity)
        defer { cache.close() }
        #expect(cache.record(keyID: "k", nonce: "n1", expiresAt: 1300, now: 1000) == .unavailable)
        #expect(cache.record(keyID: "k", nonce: "n1", expiresAt: 1300, now: 1000) == .unavailable)
        #expect(cache.failures == 2)
    }

    @Test func theFirstNodesKeyIsEveryNodesKey() throws {
        let database = try PGTestDatabase()
        let values = Box<[String]>([])
        concurrently(4) { index in
            if let value = try? PostgresSchema.sharedKey(named: "vapid", candidate: { "key-\(index)" }, url: database.url) {
                values.mutate { $0.append(value) }
            }
        }
        #expect(values.current.count == 4 && Set(values.current).count == 1)
        #expect(try PostgresSchema.sharedKey(named: "vapid", candidate: { "other" }, url: database.url) == values.current[0])
    }
}
