import Foundation
import PushCrypto
import PushDelivery
import PushEngine
import PushProtocol
import PushStore
import PushSupport

/// `POST /v1/tokens/test` on a running node (PROTOCOL §10): one push to one registration now,
/// through the delivery engine's own route for the registration's app and provider (its
/// gateway, its credentials, its HTTP client) and `TestPush.exchange`, the path `pushnode send`
/// takes. Outside the outbox: nothing is queued or retried. A `dead` answer prunes the
/// registration as a delivery would.
struct RegistrationTestPush: Sendable {
    let routes: [DeliveryEngine.Route]
    let transport: any DeliveryTransport
    let store: any OutboxStore
    let log: LogSink
    /// The longest the caller waits for the provider.
    var timeout: Duration = .seconds(10)

    func callAsFunction(_ registration: Registration) -> TestTokenResponse {
        let app = LaneKey.app(of: registration.address.appId)
        let provider = registration.address.platform.provider
        var answer = TestTokenResponse(registrationId: registration.id, app: app, platform: registration.address.platform,
                                       outcome: .rejected, status: 0, latencyMs: 0)
        guard let route = routes.first(where: { $0.gateway.provider == provider && $0.app == app }) else {
            answer.reason = DeliveryReason.Code.appUnconfigured.rawValue
            return answer
        }
        let job = TestPush.oneOffJob(registrationId: registration.id, address: registration.address, kind: .message, ttl: 60)
        let exchange = TestPush.exchange(job, route: route, transport: transport, timeout: timeout)
        answer.status = exchange.answer?.status ?? 0
        answer.latencyMs = Int((exchange.seconds * 1000).rounded())
        answer.reason = exchange.outcome.reason?.code.rawValue
        answer.providerReason = exchange.outcome.reason?.detail
        switch exchange.outcome {
        case .delivered:
            answer.outcome = .delivered
        case .dead(let reason, let invalidSince):
            answer.outcome = .dead
            let pruned = (try? store.pruneRegistration(registration.id, notUpdatedAfter: invalidSince ?? .distantFuture)) ?? false
            if pruned {
                log(.info, "registration_pruned", ["provider": "\(provider.rawValue)", "app": "\(app)", "test": true,
                                                   "registration": "\(registration.id.prefix(8))",
                                                   "reason": "\(reason.code.rawValue)"])
            }
        case .rejected:
            answer.outcome = .rejected
        case .transient, .auth, .expired:
            answer.outcome = exchange.failure == .timedOut ? .timeout : .failed
        }
        return answer
    }
}
