import Foundation
import PushProtocol
import Testing
@testable import PushClient

@Suite struct RetryScheduleTests {
    let now = TestClock.epoch

    @Test func sixTriesTenSecondsApartThenGivesUp() {
        var schedule = RetrySchedule()
        var actions: [RetrySchedule.Action] = []
        for _ in 0..<6 { actions.append(schedule.record(.networkError, now: now)) }
        #expect(actions == Array(repeating: .retry(after: .seconds(10)), count: 5) + [.giveUp(.exhausted(last: nil))])
        #expect(schedule.attempts == 6)
    }

    @Test(arguments: [500, 502, 503, 504, 429])
    func retriesServerErrorsAndRateLimits(status: Int) {
        var schedule = RetrySchedule(policy: RetryPolicy.fixed(attempts: 2, interval: .seconds(3)))
        #expect(schedule.record(.transient(status: status, retryAfter: nil), now: now) == .retry(after: .seconds(3)))
        #expect(schedule.record(.transient(status: status, retryAfter: nil), now: now) == .giveUp(.exhausted(last: status)))
    }

    @Test(arguments: [400, 401, 403, 404, 409, 413, 422])
    func stopsAtOnceOnOther4xx(status: Int) {
        var schedule = RetrySchedule()
        #expect(schedule.record(.rejected(status: status, apiCode: "x"), now: now) == .giveUp(.rejected(status: status, apiCode: "x")))
        #expect(schedule.attempts == 1)
    }

    @Test func successFinishesAfterRetries() {
        var schedule = RetrySchedule()
        _ = schedule.record(.networkError, now: now)
        #expect(schedule.record(.success, now: now) == .finished)
        #expect(schedule.attempts == 2)
    }

    @Test func honoursRetryAfterInSeconds() {
        var schedule = RetrySchedule()
        #expect(schedule.record(.transient(status: 429, retryAfter: "37"), now: now) == .retry(after: .seconds(37)))
        #expect(schedule.record(.transient(status: 429, retryAfter: "0"), now: now) == .retry(after: .zero))
    }

    @Test func honoursRetryAfterAsAnHTTPDate() {
        var schedule = RetrySchedule()
        // epoch 1_700_000_000 = Tue, 14 Nov 2023 22:13:20 GMT
        #expect(schedule.record(.transient(status: 429, retryAfter: "Tue, 14 Nov 2023 22:13:45 GMT"), now: now) == .retry(after: .seconds(25)))
        #expect(schedule.record(.transient(status: 503, retryAfter: "Tuesday, 14-Nov-23 22:14:20 GMT"), now: now) == .retry(after: .seconds(60)))
        #expect(schedule.record(.transient(status: 429, retryAfter: "Tue Nov 14 22:13:30 2023"), now: now) == .retry(after: .seconds(10)))
        // A date already past means "now".
        #expect(schedule.record(.transient(status: 429, retryAfter: "Tue, 14 Nov 2023 22:00:00 GMT"), now: now) == .retry(after: .zero))
    }

    /// The node's answer to a storage fault (PROTOCOL §3.2): transient, and retried after the
    /// node's `Retry-After`, never dropped as a 4xx would be.
    @Test func storageUnavailableIsRetriedAfterItsRetryAfter() {
        let body = Array(#"{"error":{"code":"storage.unavailable","message":"storage is unavailable; retry later"}}"#.utf8)
        let outcome = AttemptOutcome.classify(NodeResponse(status: 503, headers: ["Retry-After": "2"], body: body))
        #expect(outcome == .transient(status: 503, retryAfter: "2"))
        var schedule = RetrySchedule()
        #expect(schedule.record(outcome, now: now) == .retry(after: .seconds(2)))
        #expect(schedule.record(.success, now: now) == .finished)
    }

    @Test func unparsableRetryAfterFallsBackToTheInterval() {
        var schedule = RetrySchedule()
        #expect(schedule.record(.transient(status: 429, retryAfter: "soon"), now: now) == .retry(after: .seconds(10)))
        #expect(schedule.record(.transient(status: 429, retryAfter: "-5"), now: now) == .retry(after: .seconds(10)))
    }

    @Test func retryAfterLongerThanTheCapGivesUp() {
        var schedule = RetrySchedule(policy: RetryPolicy.fixed(maxRetryAfter: .seconds(60)))
        #expect(schedule.record(.transient(status: 429, retryAfter: "61"), now: now) == .giveUp(.retryAfterTooLong(.seconds(61))))
        #expect(RetrySchedule.GiveUpReason.retryAfterTooLong(.seconds(61)).name == "rate_limited")
    }

    @Test func classifiesAnswers() {
        #expect(AttemptOutcome.classify(NodeResponse(status: 200)) == .success)
        #expect(AttemptOutcome.classify(NodeResponse(status: 204)) == .success)
        #expect(AttemptOutcome.classify(NodeResponse(status: 429, headers: ["Retry-After": "5"])) == .transient(status: 429, retryAfter: "5"))
        #expect(AttemptOutcome.classify(NodeResponse(status: 502)) == .transient(status: 502, retryAfter: nil))
        let body = Array(#"{"error":{"code":"topic.signature_invalid","message":"m","field":"topics[0].signature"}}"#.utf8)
        #expect(AttemptOutcome.classify(NodeResponse(status: 400, body: body)) == .rejected(status: 400, apiCode: .topicSignatureInvalid))
        #expect(AttemptOutcome.classify(NodeResponse(status: 404, body: Array("nope".utf8))) == .rejected(status: 404, apiCode: nil))
    }
}
