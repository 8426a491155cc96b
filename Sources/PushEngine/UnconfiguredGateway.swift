import Foundation
import PushDelivery
import PushProtocol

/// The gateway of the `default` lane of a provider that `default` has no credentials for while
/// another app has (PROTOCOL §10): the rows it claims belong to no configured app of the
/// provider, so each is rejected (`gateway.app_unconfigured`) and nothing is sent.
package struct UnconfiguredGateway: PushGateway {
    package let provider: Provider

    package init(provider: Provider) { self.provider = provider }

    package func request(for job: DeliveryJob, now: Date) throws(GatewayError) -> OutboundRequest { throw .appUnconfigured }

    package func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome {
        .rejected(DeliveryReason(.appUnconfigured))
    }
}
