import Dispatch
import Foundation
import HTTPClient
import PushDelivery
import PushCrypto
import PushEngine
import PushProtocol
import PushSupport

extension TestPush {
    /// One try of one push, outside the outbox: what `pushnode send` and `POST /v1/tokens/test`
    /// both carry out.
    package struct Exchange: Sendable {
        /// The answer as the route's gateway classifies it (or why nothing was sent).
        package var outcome: DeliveryOutcome
        /// The provider's answer; nil when none came or nothing was sent.
        package var answer: ProviderAnswer?
        /// Why no answer came.
        package var failure: TransportFailure?
        /// From sending to the answer (or the failure), seconds; 0 when nothing was sent.
        package var seconds: Double = 0
    }

    /// A one-off job for a test push: no outbox row or notification behind it (random ids), no
    /// message, expiring `ttl` seconds from now. `check --live` and `POST /v1/tokens/test` both send one.
    package static func oneOffJob(registrationId: String, address: DeliveryAddress, kind: NotifyKind, ttl: TimeInterval) -> DeliveryJob {
        let now = Date()
        return DeliveryJob(
            outboxId: Int64.random(in: 1...Int64.max), notificationId: Hex.encode(SecureRandom.bytes(16)),
            registrationId: registrationId, registration: address,
            kind: kind, message: nil, groupId: nil, createdAt: now, expiresAt: now.addingTimeInterval(ttl))
    }

    /// Prepares `route`'s credentials, builds the request for `job`, sends it on `transport` and
    /// classifies the answer, waiting at most `timeout` for it.
    package static func exchange(_ job: DeliveryJob, route: DeliveryEngine.Route, transport: any DeliveryTransport,
                                 timeout: Duration) -> Exchange {
        let now = Date()
        if let credentials = route.credentials, !credentials.prepare(now: now) {
            return Exchange(outcome: .auth(DeliveryReason(
                .credentialsUnavailable, detail: credentials.lastFailure ?? "no credential could be minted (token endpoint or key)"),
                .refresh))
        }
        let request: OutboundRequest
        do throws(GatewayError) { request = try route.gateway.request(for: job, now: now) } catch {
            return Exchange(outcome: error.outcome)
        }
        let done = DispatchSemaphore(value: 0)
        let box = Protected<Result<ProviderAnswer, TransportFailure>?>(nil)
        let started = Clocks.monotonicSeconds()
        transport.send(request, provider: route.gateway.provider, timeout: timeout) { result in
            box.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        let seconds = Clocks.monotonicSeconds() - started
        switch box.withLock({ $0 }) {
        case .success(let answer):
            return Exchange(outcome: route.gateway.classify(answer, now: Date()), answer: answer, seconds: seconds)
        case .failure(let failure):
            return Exchange(outcome: failure.outcome, failure: failure, seconds: seconds)
        case nil:
            return Exchange(outcome: TransportFailure.other.outcome, failure: .other, seconds: seconds)
        }
    }
}
