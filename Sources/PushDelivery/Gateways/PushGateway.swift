import Foundation
import PushProtocol

/// One provider's wire format and answer classification, free of I/O (STYLE §1): the engine
/// builds with `request(for:now:)`, sends with the HTTP client, and classifies what came back.
package protocol PushGateway: Sendable {
    var provider: Provider { get }

    /// The request for one try of `job` at `now`, or why none can be sent.
    func request(for job: DeliveryJob, now: Date) throws(GatewayError) -> OutboundRequest

    /// What the provider's HTTP answer means for the delivery (`now` dates an HTTP-date
    /// `Retry-After`).
    func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome
}

extension PushGateway {
    /// What a failure to get any answer means (the same for every provider).
    package func classify(_ failure: TransportFailure) -> DeliveryOutcome { failure.outcome }
}
