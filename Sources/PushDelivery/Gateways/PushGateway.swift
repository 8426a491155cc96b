import Foundation
import PushProtocol

/// One provider's wire format and answer classification, free of I/O (STYLE §1): the engine
/// builds with `request(for:now:)`, sends with the HTTP client, and classifies what came back.
/// A failure to get any answer is classified by `TransportFailure.outcome`, the same for all.
package protocol PushGateway: Sendable {
    var provider: Provider { get }

    /// The request for one try of `job` at `now`, or why none can be sent.
    func request(for job: DeliveryJob, now: Date) throws(GatewayError) -> OutboundRequest

    /// What the provider's HTTP answer means for the delivery (`now` dates an HTTP-date
    /// `Retry-After`).
    func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome

    /// The key of the deliveries that wait together after an answer whose outcome has
    /// `scope == .origin` (Web Push: the endpoint's origin, which a push service rate-limits as
    /// a whole). Nil, the default, when the provider has no such unit: the delivery alone waits.
    func backoffScope(for job: DeliveryJob) -> String?

    /// The origin of an endpoint the registrant chose (Web Push), whose tries get a fair share
    /// of the lane rather than all of it (the engine's `FairShare`). Nil, the default, where the
    /// operator configured the one origin every delivery goes to (FCM, APNs, Push Kit).
    func registrantOrigin(for job: DeliveryJob) -> String?
}

extension PushGateway {
    package func backoffScope(for job: DeliveryJob) -> String? { nil }
    package func registrantOrigin(for job: DeliveryJob) -> String? { nil }
}

/// A gateway whose every request carries one credential the engine keeps fresh — an OAuth access
/// token (FCM, Huawei v1) or a JWT the node signs (APNs, HarmonyOS v3): without one no request is
/// built (`credentialsUnavailable`), and the delivery waits for the lane's renewal.
package protocol CredentialedGateway: PushGateway {
    /// The current credential; nil (or empty) while none is available.
    var credential: @Sendable () -> String? { get }

    /// The request for one try of `job` at `now`, carrying `credential`.
    func request(for job: DeliveryJob, credential: String, now: Date) throws(GatewayError) -> OutboundRequest
}

extension CredentialedGateway {
    package func request(for job: DeliveryJob, now: Date) throws(GatewayError) -> OutboundRequest {
        guard let credential = credential(), !credential.isEmpty else { throw .credentialsUnavailable }
        return try request(for: job, credential: credential, now: now)
    }
}
