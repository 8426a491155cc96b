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

/// A provider whose every request carries one credential the engine keeps fresh — an OAuth access
/// token (FCM, Huawei v1) or a JWT the node signs (APNs, HarmonyOS v3) — and whose gateway is
/// `CredentialedGateway<Self>`. What is the provider's own is here: its configuration, its request
/// and the meaning of its answers; the gateway holds the credential and refuses to build a request
/// without one.
package protocol CredentialedProvider: Sendable {
    associatedtype Configuration: Sendable

    static var provider: Provider { get }

    /// The request for one try of `job` at `now`, carrying `credential`.
    static func buildRequest(job: DeliveryJob, credential: String, configuration: Configuration,
                             now: Date) throws(GatewayError) -> OutboundRequest

    /// `PushGateway.classify(_:now:)`.
    static func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome

    /// `PushGateway.backoffScope(for:)`; nil, the default, when the delivery alone waits.
    static func backoffScope(for job: DeliveryJob, configuration: Configuration) -> String?
}

extension CredentialedProvider {
    package static func backoffScope(for job: DeliveryJob, configuration: Configuration) -> String? { nil }
}

/// The gateway of a `CredentialedProvider`: without a credential no request is built
/// (`credentialsUnavailable`), and the delivery waits for the lane's renewal.
package struct CredentialedGateway<Wire: CredentialedProvider>: PushGateway {
    package var configuration: Wire.Configuration
    /// The current credential; nil (or empty) while none is available.
    package var credential: @Sendable () -> String?

    package init(configuration: Wire.Configuration, credential: @escaping @Sendable () -> String?) {
        self.configuration = configuration
        self.credential = credential
    }

    package var provider: Provider { Wire.provider }

    package func request(for job: DeliveryJob, now: Date) throws(GatewayError) -> OutboundRequest {
        guard let credential = credential(), !credential.isEmpty else { throw .credentialsUnavailable }
        return try Wire.buildRequest(job: job, credential: credential, configuration: configuration, now: now)
    }

    package func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome { Wire.classify(answer, now: now) }

    package func backoffScope(for job: DeliveryJob) -> String? { Wire.backoffScope(for: job, configuration: configuration) }
}
