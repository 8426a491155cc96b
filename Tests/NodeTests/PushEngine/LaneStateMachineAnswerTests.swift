import Foundation
import PushProtocol
import PushSupport
import Testing
@testable import PushDelivery
@testable import PushEngine
@testable import PushStore

/// What each finished try comes to in the lane's state machine: the retry policy's decision as
/// store writes, metrics, health and log lines; credential renewal; backoff scopes.
@Suite struct LaneStateMachineAnswerTests {
    private let unauthenticated = #"{"error":{"code":401,"status":"UNAUTHENTICATED"}}"#

    @Test func aDeliveredTryIsCountedAndItsCredentialAccepted() {
        let lane = LaneUnderTest(credentials: true)
        let row = lane.entry(1)
        let actions = lane.finished(row, LaneUnderTest.answer(200), generation: 3)
        #expect(actions.withoutLogs == [.count(.delivered, 1), .credentialsAccepted(generation: 3)])
        // Logged at debug (the per-minute summary counts it at info), never with the token.
        #expect(actions.records.map(\.level) == [.debug])
        #expect(actions.logs == ["level=debug event=delivery provider=fcm notification=n1 registration=r1 kind=message attempt=1 outcome=delivered"])
        #expect(lane.pass().last == .complete([.init(id: 1, outcome: .delivered)]))
    }

    @Test func aTransientAnswerBacksOffHonouringRetryAfter() {
        let lane = LaneUnderTest()
        let row = lane.entry(1)
        var actions = lane.finished(row, LaneUnderTest.answer(503))
        #expect(actions.withoutLogs == [.reschedule(1, at: lane.now.addingTimeInterval(10)), .count(.retried, 1)])
        let next = Timestamp.rfc3339(lane.now.addingTimeInterval(10))
        #expect(actions.logs == ["level=info event=delivery provider=fcm notification=n1 registration=r1 kind=message attempt=1 "
                                 + "outcome=retried reason=fcm.unavailable detail=503 next_attempt_at=\(next)"])
        actions = lane.finished(row, LaneUnderTest.answer(503, headers: ["retry-after": "30"]))
        #expect(actions.first == .reschedule(1, at: lane.now.addingTimeInterval(30)))
        #expect(actions.records.first?["next_attempt_at"] == .time(lane.now.addingTimeInterval(30)))
        // A failure to get any answer is retried the same way.
        #expect(lane.finished(row, .failed(.timedOut)).first == .reschedule(1, at: lane.now.addingTimeInterval(10)))
    }

    @Test func retriesEndAtTheAttemptCapAndAtTheTTL() {
        let lane = LaneUnderTest()
        let last = lane.entry(1, attempts: 4)  // the fourth of four tries
        let actions = lane.finished(last, LaneUnderTest.answer(503))
        #expect(actions.withoutLogs == [.count(.rejected, 1)])
        #expect(actions.logs.first?.contains("attempt=4 outcome=rejected reason=delivery.attempts_exhausted") == true)
        #expect(actions.records.first?.level == .warn)
        let late = lane.entry(2, ttl: 5)  // the retry would come after the ttl
        #expect(lane.finished(late, LaneUnderTest.answer(503)).withoutLogs == [.count(.expired, 1)])
        #expect(lane.finished(lane.entry(3), .unbuilt(.expired)).logs.first?.hasSuffix("outcome=expired") == true)
        #expect(lane.pass().last == .complete([.init(id: 1, outcome: .rejected), .init(id: 2, outcome: .expired), .init(id: 3, outcome: .expired)]))
    }

    @Test func aRefusedCredentialIsRenewedOnceThenTheProviderIsUnhealthy() {
        let lane = LaneUnderTest(credentials: true)
        _ = lane.machine.credentialsPrepared(true, generation: 1, now: lane.now)
        let row = lane.entry(1)
        let attempt = lane.attempt(row, generation: 1)
        let reason = DeliveryReason(.fcmUnauthenticated, detail: "401")
        let refresh = lane.finished(row, LaneUnderTest.answer(401, unauthenticated), generation: 1)
        guard case .refreshCredentials(let asked, let askedReason, let retryAt) = refresh.first, refresh.count == 1 else {
            Issue.record("expected one refresh, got \(refresh)")
            return
        }
        #expect(asked == attempt && askedReason.code == reason.code && retryAt == lane.now)
        #expect(lane.machine.credentialsRenewed(.renewed, generation: 2, for: attempt, reason: reason, retryAt: lane.now,
                                                now: lane.now)
                == [.countCredentialRefreshes(1), .reschedule(1, at: lane.now), .count(.retried, 1)])
        // A late refusal of the old credential: a newer one is there already.
        #expect(lane.machine.credentialsRenewed(.alreadyRenewed, generation: 2, for: attempt, reason: reason,
                                                retryAt: lane.now, now: lane.now)
                == [.reschedule(1, at: lane.now), .count(.retried, 1)])
        // The renewed one refused too: unhealthy, and the push backs off as for a transient failure.
        let gaveUp = lane.machine.credentialsRenewed(.gaveUp, generation: 2, for: lane.attempt(row, generation: 2),
                                                     reason: reason, retryAt: lane.now, now: lane.now)
        #expect(gaveUp.withoutLogs == [.setHealth(.credentialsRefused, reason: reason), .reschedule(1, at: lane.now.addingTimeInterval(10)),
                                       .count(.retried, 1)])
        #expect(gaveUp.logs.first == "level=error event=credentials provider=fcm reason=\(reason.code.rawValue) health=credentials_refused")
        // Healthy again once a push is delivered.
        #expect(lane.finished(row, LaneUnderTest.answer(200), generation: 2).contains(.setHealth(.healthy)))
    }

    @Test func aProviderWithoutCredentialsGivesUpAtOnce() {
        let lane = LaneUnderTest(credentials: false)
        let actions = lane.finished(lane.entry(1), LaneUnderTest.answer(401, unauthenticated))
        #expect(actions.withoutLogs == [.setHealth(.credentialsRefused, reason: DeliveryReason(.fcmUnauthenticated, detail: "UNAUTHENTICATED")),
                                        .reschedule(1, at: lane.now.addingTimeInterval(10)),
                                        .count(.retried, 1)])
    }

    @Test func aDeadRegistrationIsPrunedAndItsRowDeleted() {
        let lane = LaneUnderTest()
        let unregistered = #"{"error":{"code":404,"status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}"#
        let actions = lane.finished(lane.entry(1), LaneUnderTest.answer(404, unregistered))
        guard case .prune(let registrationID, let notUpdatedAfter, let reason) = actions.first else {
            Issue.record("expected a prune, got \(actions)")
            return
        }
        #expect(registrationID == "r1" && notUpdatedAfter == .distantFuture && reason.code.rawValue == "fcm.unregistered")
        #expect(Array(actions.dropFirst()).withoutLogs == [.count(.dead, 1)])
        #expect(actions.records.first?["outcome"] == "dead" && actions.records.first?["reason"] == "fcm.unregistered")
        #expect(lane.pass().last == .complete([.init(id: 1, outcome: .dead)]))
    }

    @Test func aConfigurationRefusalRejectsThePushAndShowsTheProviderMisconfigured() {
        let lane = LaneUnderTest()
        let actions = lane.finished(lane.entry(1), LaneUnderTest.answer(403))
        #expect(actions.withoutLogs == [.count(.rejected, 1), .setHealth(.misconfigured, reason: DeliveryReason(.fcmPermissionDenied, detail: "403"))])
        #expect(actions.logs.first?.hasSuffix("health=misconfigured") == true && actions.records.first?.level == .error)
        #expect(lane.finished(lane.entry(2), LaneUnderTest.answer(403)).withoutLogs == [.count(.rejected, 1)])
    }

    @Test func aRequestThatCannotBeBuiltOrRoutedIsRejected() {
        let lane = LaneUnderTest(provider: .webpush)
        // The send-time address guard (`WebPushGateway.isRoutable`) refused the endpoint's host.
        let unroutable = lane.finished(lane.entry(1, platform: .webpush), .unbuilt(.notRoutable))
        #expect(unroutable.withoutLogs == [.count(.rejected, 1)])
        #expect(unroutable.logs == ["level=warn event=delivery provider=webpush notification=n1 registration=r1 kind=message attempt=1 "
                                    + "outcome=rejected reason=gateway.not_routable"])
        // The connect-time guard of the HTTP client.
        #expect(lane.finished(lane.entry(2, platform: .webpush), .failed(.forbiddenAddress)).withoutLogs == [.count(.rejected, 1)])
    }

    @Test func aWebPush429HoldsItsOriginOnly() {
        let lane = LaneUnderTest(provider: .webpush)
        func row(_ id: Int64, _ origin: String) -> OutboxEntry {
            lane.entry(id, platform: .webpush, token: "\(origin)/sub/\(id)")
        }
        let busy = "https://busy.example", calm = "https://calm.example"
        _ = lane.claimOnPass([row(1, busy)])
        let limited = lane.finished(row(1, busy), LaneUnderTest.answer(429, headers: ["retry-after": "60"]))
        #expect(limited.first == .reschedule(1, at: lane.now.addingTimeInterval(60)))
        lane.clock.advance(by: 1)
        let until = t0.addingTimeInterval(60)
        #expect(lane.claimOnPass([row(2, busy), row(3, calm), row(4, busy + ":8443")])
                == [.reschedule(2, at: until), .send([row(3, calm), row(4, busy + ":8443")], generation: 0)])
        lane.clock.advance(by: 59)
        #expect(lane.claimOnPass([row(2, busy)]) == [.send([row(2, busy)], generation: 0)])
    }

    @Test func onlyAGatewayWithABackoffScopeHoldsOthers() {
        let fcm = CredentialedGateway<FCMGateway>(configuration: .init(projectId: "p"), credential: { nil })
        #expect(fcm.backoffScope(for: Fixtures.job(.android)) == nil)
        let webPush = WebPushGateway(encryptor: EchoEncryptor(), authorizer: EchoAuthorizer(), isRoutable: { _ in true })
        #expect(webPush.backoffScope(for: Fixtures.job(.webpush)) == "https://push.example.net:8443")
    }
}
