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
