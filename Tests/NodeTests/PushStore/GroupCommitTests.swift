import Foundation
import PushProtocol
import Testing
@testable import PushStore

@Suite struct GroupCommitTests {
    /// Holds the writer inside one job until `count` more jobs are queued behind it, then releases it:
    /// those jobs must then share one commit. Returns after every job finished.
    private func batch(on store: SQLiteStore, count: Int, job: @escaping @Sendable (Int) -> Void) {
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let blocker = Thread {
            _ = try? store.write { _ in
                started.signal()
                gate.wait()
            }
        }
        blocker.start()
        started.wait()
        let group = DispatchGroup()
        group.enter()
        Thread {
            concurrently(count, job)
            group.leave()
        }.start()
        waitUntil { store.writer.pendingCount == count }
        gate.signal()
        group.wait()
    }

    @Test func concurrentWritesShareCommits() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let before = store.statistics()
        let counts = Box([Int](repeating: -1, count: 32))
        batch(on: store, count: 32) { index in
            let count = try? store.addSubscriptions(ofAccount: "A\(index)", [ref(1, "chats"), ref(1, "t\(index)")], limit: 10)
            counts.mutate { $0[index] = count ?? -1 }
        }
        #expect(counts.current == [Int](repeating: 2, count: 32))
        let after = store.statistics()
        #expect(after.writes - before.writes == 33)
        #expect(after.commits - before.commits == 2)  // the blocker's, and one for all 32
        #expect(after.largestBatch == 32)
        for index in 0..<32 {
            #expect(try store.subscriptions(ofAccount: "A\(index)").count == 2)
        }
    }

    @Test func manyThreadsWithoutCoordinationAllSucceed() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let failures = Box(0)
        concurrently(16) { thread in
            for i in 0..<50 {
                do {
                    _ = try store.saveRegistration(registration("r\(thread)-\(i)", account: "A\(thread)", device: "d\(i)"))
                } catch {
                    failures.mutate { $0 += 1 }
                }
            }
        }
        #expect(failures.current == 0)
        let stats = store.statistics()
        #expect(stats.writes == 800)
        #expect(stats.commits <= 800)
        #expect(try (0..<16).map { try store.registrations(ofAccount: "A\($0)").count } == [Int](repeating: 50, count: 16))
    }

    @Test func aFailingJobDoesNotFailItsBatch() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let results = Box([Int: String]())
        batch(on: store, count: 9) { index in
            do {
                if index == 4 {
                    try store.write { db in
                        try db.run("INSERT INTO subscriptions (account, space_key, topic) VALUES ('bad', 'k', 'first')")
                        try db.run("INSERT INTO registrations (id) VALUES ('incomplete')")  // NOT NULL violation
                    }
                    results.mutate { $0[index] = "ok" }
                } else {
                    _ = try store.addSubscriptions(ofAccount: "A\(index)", [ref(2, "chats")], limit: 10)
                    results.mutate { $0[index] = "ok" }
                }
            } catch let error as SQLiteError {
                results.mutate { $0[index] = error.isConstraintViolation ? "constraint" : "other" }
            } catch {
                results.mutate { $0[index] = "other" }
            }
        }
        var expected = [Int: String]()
        for index in 0..<9 { expected[index] = index == 4 ? "constraint" : "ok" }
        #expect(results.current == expected)
        #expect(store.statistics().commits == 2)
        // The failing job's first insert was rolled back with it; the others committed.
        let bad = try store.read { db in try db.queryFirst("SELECT count(*) FROM subscriptions WHERE account = 'bad'") { $0.int(0) } }
        #expect(bad == 0)
        for index in 0..<9 where index != 4 {
            #expect(try store.subscriptions(ofAccount: "A\(index)") == [ref(2, "chats")])
        }
    }

    /// The write probe, queued between two groups of writes, commits in a transaction of its own:
    /// its padding never makes a batch of requests' writes fail for want of room.
    @Test func theWriteProbeCommitsAlone() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let before = store.statistics()
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        Thread {
            _ = try? store.write { _ in
                started.signal()
                gate.wait()
            }
        }.start()
        started.wait()
        let group = DispatchGroup()
        func queue(_ count: Int, from first: Int) {
            for index in first..<first + count {
                group.enter()
                Thread {
                    _ = try? store.addSubscriptions(ofAccount: "A\(index)", [ref(1, "chats")], limit: 10)
                    group.leave()
                }.start()
            }
            waitUntil { store.writer.pendingCount == first + count }
        }
        queue(4, from: 0)
        group.enter()
        Thread {
            try? store.probeWrite()
            group.leave()
        }.start()
        waitUntil { store.writer.pendingCount == 5 }
        queue(4, from: 5)
        gate.signal()
        group.wait()
        let after = store.statistics()
        #expect(after.writes - before.writes == 10)
        #expect(after.commits - before.commits == 4)  // the blocker's, four writes, the probe, four writes
        #expect(try store.read { db in try db.queryFirst("SELECT writes FROM write_probe") { $0.int(0) } } == 1)
    }
}
