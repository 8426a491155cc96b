import Foundation
import PushProtocol
import Testing
@testable import PushDelivery

@Suite struct DeliveryRetryPolicyTests {
    let policy = RetryPolicy.default
    let now = Fixtures.now
    let unavailable = DeliveryReason(.fcmUnavailable, detail: "UNAVAILABLE")

    @Test func windowsDoubleFromInitialToMax() {
        let windows = (1...7).map { policy.backoffWindow(afterFailures: $0) }
        #expect(windows.map(\.lowerBound) == Array(repeating: 10, count: 7))
        #expect(windows.map(\.upperBound) == [20, 40, 80, 160, 320, 600, 600])
        #expect(policy.backoffWindow(afterFailures: 1_000) == 10...600)
    }

    @Test func windowWithInitialAboveMaxCollapsesToMax() {
        let odd = RetryPolicy(attempts: 3, initialBackoff: 900, maxBackoff: 600)
        #expect(odd.backoffWindow(afterFailures: 2) == 600...600)
    }

    @Test func jitterStaysInWindowAndSpreadsOverIt() {
        var generator = SeededGenerator(seed: 7)
        for failures in 1...6 {
            let window = policy.backoffWindow(afterFailures: failures)
            let draws = (0..<500).map { _ in policy.backoff(afterFailures: failures, using: &generator) }
            #expect(draws.allSatisfy { window.contains($0) })
            let width = window.upperBound - window.lowerBound
            #expect(draws.min()! < window.lowerBound + width * 0.05)
            #expect(draws.max()! > window.upperBound - width * 0.05)
        }
    }

    @Test func firstFailureRetriesWithinTheFirstWindow() {
        var generator = SeededGenerator(seed: 1)
        let decision = policy.decide(.transient(unavailable, retryAfter: nil), for: Fixtures.job(.android), now: now,
                                     using: &generator)
        guard case .retry(let at, let reason, let scope) = decision else {
            Issue.record("expected retry, got \(decision)")
            return
        }
        #expect((10...20).contains(at.timeIntervalSince(now)))
        #expect(reason == unavailable)
        #expect(scope == .delivery)
    }

    @Test func retryAfterWinsWhenLonger() {
        var generator = SeededGenerator(seed: 2)
        let decision = policy.decide(.transient(unavailable, retryAfter: 120), for: Fixtures.job(.android), now: now,
                                     using: &generator)
        #expect(decision == .retry(at: now.addingTimeInterval(120), reason: unavailable, scope: .delivery))
    }

    @Test func backoffWinsOverAShortRetryAfter() {
        var generator = SeededGenerator(seed: 3)
        let decision = policy.decide(.transient(unavailable, retryAfter: 1), for: Fixtures.job(.android, attempts: 3),
                                     now: now, using: &generator)
        guard case .retry(let at, _, _) = decision else {
            Issue.record("expected retry, got \(decision)")
            return
        }
        #expect((10...160).contains(at.timeIntervalSince(now)))
    }

    @Test func originScopeIsKept() {
        var generator = SeededGenerator(seed: 4)
        let limited = DeliveryReason(.webpushRateLimited, detail: "429")
        let decision = policy.decide(.transient(limited, retryAfter: 300, scope: .origin), for: Fixtures.job(.webpush),
                                     now: now, using: &generator)
        #expect(decision == .retry(at: now.addingTimeInterval(300), reason: limited, scope: .origin))
    }

    @Test func sixthFailedTryIsTheLast() {
        var generator = SeededGenerator(seed: 5)
        let fifth = policy.decide(.transient(unavailable, retryAfter: nil), for: Fixtures.job(.android, attempts: 4),
                                  now: now, using: &generator)
        guard case .retry = fifth else {
            Issue.record("expected retry after the 5th try, got \(fifth)")
            return
        }
        let sixth = policy.decide(.transient(unavailable, retryAfter: nil), for: Fixtures.job(.android, attempts: 5),
                                  now: now, using: &generator)
        #expect(sixth == .rejected(DeliveryReason(.attemptsExhausted, detail: "fcm.unavailable")))
    }

    @Test func oneAttemptMeansNoRetry() {
        var generator = SeededGenerator(seed: 6)
        let once = RetryPolicy(attempts: 1)
        #expect(once.decide(.transient(unavailable, retryAfter: nil), for: Fixtures.job(.android), now: now,
                            using: &generator) == .rejected(DeliveryReason(.attemptsExhausted, detail: "fcm.unavailable")))
    }

    @Test func retryLandingAfterTheTTLExpires() {
        var generator = SeededGenerator(seed: 8)
        let job = Fixtures.job(.android, ttl: 100)
        #expect(policy.decide(.transient(unavailable, retryAfter: 99.5), for: job, now: now, using: &generator) == .expired)
        #expect(policy.decide(.transient(unavailable, retryAfter: 99), for: job, now: now, using: &generator)
            == .retry(at: now.addingTimeInterval(99), reason: unavailable, scope: .delivery))
    }

    /// A 45 s ring window with 5 s left: even the shortest backoff (10 s) is too late.
    @Test func callRingIsNeverRetriedLate() {
        var generator = SeededGenerator(seed: 9)
        var call = Fixtures.job(.android, .call, ttl: 45)
        let later = now.addingTimeInterval(40)
        #expect(policy.decide(.transient(unavailable, retryAfter: nil), for: call, now: later, using: &generator) == .expired)
        call.attempts = 1
        #expect(policy.decide(.auth(unavailable, .refresh), for: call, now: now.addingTimeInterval(44.5),
                              using: &generator) == .expired)
    }

    @Test func finalOutcomesPassThrough() {
        var generator = SeededGenerator(seed: 10)
        let job = Fixtures.job(.apns)
        let gone = DeliveryReason(.apnsUnregistered, detail: "Unregistered")
        let since = Date(timeIntervalSince1970: 1_458_114_061.26)
        #expect(policy.decide(.delivered, for: job, now: now, using: &generator) == .delivered)
        #expect(policy.decide(.dead(gone, invalidSince: since), for: job, now: now, using: &generator)
            == .dead(gone, invalidSince: since))
        #expect(policy.decide(.rejected(gone), for: job, now: now, using: &generator) == .rejected(gone))
        #expect(policy.decide(.expired, for: job, now: now, using: &generator) == .expired)
        #expect(policy.decide(GatewayError.expired.outcome, for: job, now: now, using: &generator) == .expired)
    }

    @Test func authOutcomes() {
        var generator = SeededGenerator(seed: 11)
        let stale = DeliveryReason(.apnsProviderToken, detail: "ExpiredProviderToken")
        let config = DeliveryReason(.fcmThirdPartyAuth, detail: "THIRD_PARTY_AUTH_ERROR")
        #expect(policy.decide(.auth(stale, .refresh), for: Fixtures.job(.apns), now: now, using: &generator)
            == .refreshCredentials(stale, retryAt: now))
        #expect(policy.decide(.auth(stale, .refresh), for: Fixtures.job(.apns, attempts: 5), now: now, using: &generator)
            == .rejected(DeliveryReason(.attemptsExhausted, detail: "apns.provider_token")))
        #expect(policy.decide(.auth(config, .configuration), for: Fixtures.job(.ios), now: now, using: &generator)
            == .misconfigured(config))
    }

    @Test func transportFailuresRetryExceptUnusableURLs() {
        var generator = SeededGenerator(seed: 12)
        for failure in [TransportFailure.connectFailed, .timedOut, .connectionReset, .tls, .tooLarge, .cancelled, .other] {
            guard case .retry = policy.decide(failure.outcome, for: Fixtures.job(.apns), now: now, using: &generator) else {
                Issue.record("\(failure) should retry")
                continue
            }
        }
        #expect(TransportFailure.connectionReset.outcome == .transient(DeliveryReason(.transportConnectionReset), retryAfter: nil))
        #expect(TransportFailure.invalidURL.outcome == .rejected(DeliveryReason(.transportInvalidURL)))
    }

    @Test func gatewayErrorOutcomes() {
        #expect(GatewayError.invalidToken.outcome == .dead(DeliveryReason(.invalidToken)))
        #expect(GatewayError.invalidKeys.outcome == .dead(DeliveryReason(.invalidKeys)))
        #expect(GatewayError.notRoutable.outcome == .rejected(DeliveryReason(.notRoutable)))
        #expect(GatewayError.payloadTooLarge(size: 5000, limit: 4096).outcome
            == .rejected(DeliveryReason(.payloadTooLarge, detail: "5000>4096")))
        #expect(GatewayError.encryptionFailed.outcome == .rejected(DeliveryReason(.encryptionFailed)))
        #expect(GatewayError.credentialsUnavailable.outcome == .auth(DeliveryReason(.credentialsUnavailable), .refresh))
        #expect(GatewayError.unsupportedKind.outcome == .rejected(DeliveryReason(.unsupportedKind)))
    }
}
