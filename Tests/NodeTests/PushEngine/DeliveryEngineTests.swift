import Foundation
import HTTPClient
import PushCrypto
import PushProtocol
import Testing
@testable import PushDelivery
@testable import PushEngine
@testable import PushStore
@testable import PushSupport

@Suite struct DeliveryEngineTests {
    private func answer(_ status: Int, _ json: String = "", headers: [String: String] = [:]) -> ProviderAnswer {
        ProviderAnswer(status: status, headers: headers, body: Array(json.utf8))
    }

    @Test func deliversAndEmptiesTheOutbox() throws {
        let f = EngineFixture()
        f.engine.start()
        try f.queue("tok-1")
        try f.queue("0a0b", platform: .apns)
        waitUntil { f.count("delivered") == 1 && f.count("delivered", .apns) == 1 && f.depth(.fcm) == 0 && f.depth(.apns) == 0 }
        #expect(f.transport.sent.first { $0.token == "tok-1" }?.request.header("authorization") == "Bearer access-1")
    }

    @Test func aDeliveryIsTimedFromTheNotifysAcceptToTheDeliveringAnswer() throws {
        // The wall clock jumps 7 s between queueing and sending: the latency histogram sees the
        // 7 s the push waited, not the send time (pushnode_delivery_send_seconds has that).
        let origin = Clocks.monotonicSeconds()
        let offset = Protected(0.0)
        let clock = EngineClock(now: { Date(timeIntervalSince1970: 1_800_000_000 + Clocks.monotonicSeconds() - origin + offset.withLock { $0 }) },
                                monotonic: { Clocks.monotonicSeconds() })
        let f = EngineFixture(clock: clock)
        try f.queue("tok-late")
        offset.withLock { $0 = 7 }
        f.engine.start()
        let latency = f.metrics.histogram("pushnode_delivery_latency_seconds", help: "", labels: ["provider", "app"])
        waitUntil { latency.count("fcm", "default") == 1 }  // observed after the delivered count, by the lane's thread
        let text = f.metrics.render()
        #expect(text.contains(#"pushnode_delivery_latency_seconds_bucket{provider="fcm",app="default",le="5"} 0"#))
        #expect(text.contains(#"pushnode_delivery_latency_seconds_bucket{provider="fcm",app="default",le="10"} 1"#))
        #expect(text.contains(#"pushnode_delivery_latency_seconds_count{provider="fcm",app="default"} 1"#))
    }

    @Test func transientAnswersAreRetriedThenDelivered() throws {
        let f = EngineFixture()
        f.transport.script("flaky", [answer(503), answer(500), answer(200)])
        f.engine.start()
        try f.queue("flaky")
        waitUntil { f.count("delivered") == 1 }
        #expect(f.transport.count("flaky") == 3 && f.count("retried") == 2)
    }

    @Test func retriesStopAtTheAttemptCap() throws {
        let f = EngineFixture(attempts: 3)
        f.transport.script("down", [answer(503)])
        f.engine.start()
        try f.queue("down")
        waitUntil { f.count("rejected") == 1 && f.depth(.fcm) == 0 }
        #expect(f.transport.count("down") == 3)
    }

    @Test func aDeadTokenIsPrunedAndItsQueueDropped() throws {
        let f = EngineFixture()
        let unregistered = #"{"error":{"code":404,"status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}"#
        f.transport.script("gone", [answer(404, unregistered)])
        f.engine.start()
        try f.queue("gone")
        waitUntil { f.count("dead") == 1 }
        #expect(try f.store.registrations(ofAccount: "A").isEmpty)
        let pruned = f.metrics.counter("pushnode_registrations_pruned_total", help: "", labels: ["provider", "app", "reason"])
        #expect(pruned.value("fcm", "default", "fcm.unregistered") == 1)
    }

    @Test func finishedTriesFeedTheStatusPageCountsRecentOutcomesAndLastFailure() throws {
        // Wall-clock time 30 s into a minute, running on from there (the retry's backoff must pass).
        let origin = Clocks.monotonicSeconds()
        let clock = EngineClock(now: { Date(timeIntervalSince1970: 1_800_000_030 + Clocks.monotonicSeconds() - origin) },
                                monotonic: { Clocks.monotonicSeconds() })
        let f = EngineFixture(attempts: 2, clock: clock)
        f.transport.script("down", [answer(503)])
        f.engine.start()
        try f.queue("fine")
        try f.queue("down")
        waitUntil { f.count("delivered") == 1 && f.count("rejected") == 1 }
        let now = clock.now()
        let minute = f.engine.activity.minutes(endingAt: now).last
        #expect(minute?.start == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(minute?.counts == [.delivered: 1, .retried: 1, .rejected: 1])
        let recent = f.engine.activity.recent
        #expect(recent.count == 3 && recent.first?.outcome == .rejected && recent.first?.reason == "delivery.attempts_exhausted")
        #expect(recent.allSatisfy { $0.provider == "fcm" && $0.kind == "message" && $0.at <= now })
        #expect(Set(recent.map(\.notification)) == ["n1-fine", "n2-down"])
        let failure = f.engine.health.lastFailures[LaneKey(.fcm)]
        #expect(failure?.reason == "delivery.attempts_exhausted" && failure.map { $0.at <= now } == true)
        #expect(f.engine.health.lastFailures[LaneKey(.apns)] == nil)
    }

    @Test func aRefusedCredentialIsRenewedOnceThenTheProviderIsUnhealthy() throws {
        let f = EngineFixture()
        let unauthenticated = #"{"error":{"code":401,"status":"UNAUTHENTICATED"}}"#
        f.transport.script("auth-once", [answer(401, unauthenticated), answer(200)])
        f.engine.start()
        try f.queue("auth-once")
        waitUntil { f.count("delivered") == 1 }
        #expect(f.credentials.generation == 2)
        #expect(f.transport.sent.last?.request.header("authorization") == "Bearer access-2")
        #expect(f.engine.health.state(of: .fcm) == .healthy)

        f.transport.script("auth-always", [answer(401, unauthenticated)])
        try f.queue("auth-always")
        waitUntil { f.engine.health.state(of: .fcm) == .credentialsRefused }
        // token-2 had worked, so its refusal renews once (token-3); token-3 refused too: unhealthy.
        #expect(f.credentials.generation == 3)
        waitUntil { f.count("rejected") == 1 }  // retried within the attempt cap, then dropped
        let status = try #require(f.engine.health.snapshot[LaneKey(.fcm)])
        #expect(status.state == .credentialsRefused)
        #expect(status.reason?.code == .fcmUnauthenticated && status.reason?.detail == "UNAUTHENTICATED")
    }

    @Test func anExpiredDeliveryIsNeverSent() throws {
        let f = EngineFixture()
        try f.queue("late", ttl: 0.5)  // less than a whole second left: never sent
        f.engine.start()
        waitUntil { f.count("expired") == 1 }
        #expect(f.transport.count("late") == 0)
    }

    @Test func oneProvidersStalledRequestsDoNotHoldUpAnother() throws {
        let f = EngineFixture(maxInFlight: 2)
        let slow = ["0a01", "0a02", "0a03", "0a04"]
        for token in slow { f.transport.script(token, [nil]) }
        f.engine.start()
        for token in slow { try f.queue(token, platform: .apns) }
        for index in 0..<5 { try f.queue("fast-\(index)") }
        waitUntil { f.count("delivered") == 5 && f.engine.inFlight[.apns] == 2 }
        // APNs holds its two in flight, the rest wait in the outbox, not dropped.
        #expect(f.engine.inFlight[.apns] == 2 && f.depth(.apns) == 4)
        f.transport.releaseHeld()
        waitUntil { f.count("delivered", .apns) >= 2 }
        waitUntil {
            f.transport.releaseHeld()
            return f.count("delivered", .apns) == 4 && f.depth(.apns) == 0
        }
    }

    /// A send that outlasts the claim lease keeps its claim: the lane renews it, so another
    /// claimer (another node, or this one after the lease) never sees the row as due. The
    /// engine runs on a manual clock, stepped one renew interval at a time.
    @Test func claimsOfRequestsInFlightAreRenewedPastTheirLease() throws {
        let manual = ManualClock(Date())
        let f = EngineFixture(claimLease: 30, claimRenewInterval: 10, clock: manual.engineClock)
        f.transport.script("held-token", [nil])
        f.engine.start()
        try f.queue("held-token")
        waitUntil { f.engine.inFlight[.fcm] == 1 }
        let id = try #require(try f.store.read { db in try db.queryFirst("SELECT id FROM outbox") { $0.int64(0) } })
        #expect(f.leaseEnd(id) == Date(unixMilliseconds: manual.now.addingTimeInterval(30).unixMilliseconds))
        for _ in 0..<4 {  // past the first lease, with the request still outstanding
            manual.advance(by: 10)
            let renewed = Date(unixMilliseconds: manual.now.addingTimeInterval(30).unixMilliseconds)
            waitUntil { f.leaseEnd(id) == renewed }
            #expect(try f.store.claimDue(provider: .fcm, limit: 10, now: manual.now).entries.isEmpty)
        }
        f.transport.releaseHeld()
        waitUntil { f.count("delivered") == 1 && f.depth(.fcm) == 0 }
        #expect(f.transport.count("held-token") == 1)
    }

    /// Drain waits for the answers in flight up to its deadline; then the transport cancels them
    /// and the lane applies the cancellations before the store closes: the row stays queued.
    @Test func drainWaitsForAnswersInFlightUpToItsDeadline() throws {
        let f = EngineFixture()
        f.transport.script("held-token", [nil])
        f.engine.start()
        try f.queue("held-token")
        waitUntil { f.engine.inFlight[.fcm] == 1 }
        let start = Clocks.monotonicSeconds()
        f.engine.drain(timeout: 0.2)
        #expect(Clocks.monotonicSeconds() - start >= 0.2)
        #expect(f.count("retried") == 1 && f.depth(.fcm) == 1 && f.engine.inFlight[.fcm] == 0)
    }

    @Test func drainReturnsOnceNothingIsInFlight() throws {
        let f = EngineFixture()
        f.engine.start()
        try f.queue("tok-1")
        waitUntil { f.count("delivered") == 1 }
        let start = Clocks.monotonicSeconds()
        f.engine.drain(timeout: 30)
        #expect(Clocks.monotonicSeconds() - start < 10)  // not the deadline: a bound against hangs
    }

    @Test func outboxGaugesAreSampledAtScrape() throws {
        let f = EngineFixture()
        try f.queue("waiting")  // engine not started: stays queued
        let text = f.metrics.render()
        #expect(text.contains("pushnode_outbox_depth{provider=\"fcm\"} 1"))
        #expect(text.contains("pushnode_outbox_depth{provider=\"apns\"} 0"))
        #expect(text.contains("pushnode_outbox_oldest_age_seconds{provider=\"fcm\"}"))
        #expect(text.contains("pushnode_provider_healthy{provider=\"fcm\",app=\"default\"} 1"))
    }
}
