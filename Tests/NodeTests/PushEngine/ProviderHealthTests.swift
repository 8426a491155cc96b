import Foundation
import Testing
@testable import PushDelivery
@testable import PushEngine
@testable import PushMetrics
@testable import PushProtocol

/// A provider's health keeps why it is unhealthy and since when, for `/readyz`.
@Suite struct ProviderHealthTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aRefusalKeepsItsReasonAndFirstTimeUntilHealthyAgain() {
        let health = ProviderHealth(providers: [.apns, .fcm], gauge: nil, now: start)
        #expect(health.status(of: .apns) == .init(state: .healthy, reason: nil, since: start))

        let refused = DeliveryReason(.apnsProviderToken, detail: "InvalidProviderToken")
        health.set(.apns, .credentialsRefused, reason: refused, at: start.addingTimeInterval(10))
        // The same state again (another refused try) keeps the first time and reason.
        health.set(.apns, .credentialsRefused, reason: DeliveryReason(.apnsProviderToken, detail: "ExpiredProviderToken"),
                   at: start.addingTimeInterval(20))
        #expect(health.status(of: .apns) == .init(state: .credentialsRefused, reason: refused, since: start.addingTimeInterval(10)))
        #expect(health.status(of: .fcm)?.state == .healthy)

        health.set(.apns, .healthy, reason: refused, at: start.addingTimeInterval(30))
        #expect(health.status(of: .apns) == .init(state: .healthy, reason: nil, since: start.addingTimeInterval(30)))
    }
}
