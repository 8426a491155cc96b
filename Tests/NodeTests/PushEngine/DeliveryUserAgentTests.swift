import Foundation
import Testing
@testable import PushEngine

@Suite struct DeliveryUserAgentTests {
    @Test func withoutANodeIDItNamesOnlyTheVersion() {
        #expect(DeliveryUserAgent.value(version: "1.2.3", nodeID: nil) == "pushnode/1.2.3")
        #expect(DeliveryUserAgent.value(version: "1.2.3", nodeID: "") == "pushnode/1.2.3")
    }

    @Test func withANodeIDItAddsOnlyItsPrefix() {
        let id = "0123456789abcdef0123456789abcdef"
        #expect(DeliveryUserAgent.value(version: "1.2.3", nodeID: id) == "pushnode/1.2.3 node/01234567")
    }
}
