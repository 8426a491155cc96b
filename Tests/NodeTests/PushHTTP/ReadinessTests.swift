import Foundation
import Testing
@testable import PushHTTP
@testable import PushMetrics

/// `/readyz` keeps PROTOCOL §3.3's fields and adds `providerDetail`: a refused provider leaves
/// the node ready (200) and says which, why and since when.
@Suite struct ReadinessTests {
    @Test func aRefusedProviderIsNamedWithItsReasonAndTheNodeStaysReady() {
        let since = Date(timeIntervalSince1970: 1_800_000_000.25)
        let operations = OperationsRoutes(metrics: MetricsRegistry(), readiness: { .ready }, providers: {
            ["apns": ProviderReadiness(state: .credentialsRefused, reason: "apns.provider_token",
                                       providerReason: "InvalidProviderToken", since: since),
             "webpush": ProviderReadiness(state: .healthy, since: since)]
        })
        let response = operations.respond(.readiness)
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"providerDetail":{"#
            + #""apns":{"providerReason":"InvalidProviderToken","reason":"apns.provider_token","since":"2027-01-15T08:00:00.250Z","state":"credentials_refused"},"#
            + #""webpush":{"since":"2027-01-15T08:00:00.250Z","state":"healthy"}},"#
            + #""providers":{"apns":"credentials_refused","webpush":"healthy"},"status":"ready"}"#)
    }

    @Test func withoutDeliveryTheDetailIsLeftOut() {
        let operations = OperationsRoutes(metrics: MetricsRegistry(), readiness: { .starting })
        let response = operations.respond(.readiness)
        #expect(response.status == 503 && String(decoding: response.body, as: UTF8.self) == #"{"status":"starting"}"#)
    }
}
