import Foundation
import PushProtocol
import PushSupport

/// One provider's entry in `/readyz`'s `providerDetail` (PROTOCOL §3.3): its health state, and
/// when it is not healthy the reason code (`apns.provider_token`,
/// `gateway.credentials_unavailable`, …) with the provider's own word for it
/// (`InvalidProviderToken`, the token endpoint's `invalid_grant: …`) and since when. Never a
/// token, key or URL: the engine's reasons carry none.
package struct ProviderReadiness: Sendable, Equatable, Encodable {
    package var state: ProviderHealthState
    package var reason: String?
    package var providerReason: String?
    package var since: Date

    package init(state: ProviderHealthState, reason: String? = nil, providerReason: String? = nil, since: Date) {
        self.state = state
        self.reason = reason
        self.providerReason = providerReason
        self.since = since
    }

    private enum CodingKeys: String, CodingKey { case state, reason, providerReason, since }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(providerReason, forKey: .providerReason)
        try container.encode(Timestamp.rfc3339(since), forKey: .since)
    }
}
