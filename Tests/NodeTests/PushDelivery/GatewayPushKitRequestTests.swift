import Foundation
import PushProtocol
import Testing
@testable import PushDelivery

/// Every kind's exact Huawei Push Kit request, v1 (`huawei`) and v3 (`harmony`), against
/// Spec/vectors/pushkit.json (built in Python from Spec/providers.md).
@Suite struct GatewayPushKitRequestTests {
    let now = Fixtures.now
    let vectors: [String: Any]
    init() throws {
        vectors = try JSONSerialization.jsonObject(
            with: Data(contentsOf: repositoryRoot.appendingPathComponent("Spec/vectors/pushkit.json"))) as! [String: Any]
    }

    func build(_ platform: Platform, _ job: DeliveryJob, at now: Date? = nil) throws -> OutboundRequest {
        switch platform {
        case .huawei:
            return try HuaweiGateway.buildRequest(job: job, credential: "huawei-access-token",
                                                  configuration: .init(appId: "10086"), now: now ?? self.now)
        default:
            return try HarmonyGateway.buildRequest(
                job: job, credential: "harmony.service.jwt",
                configuration: .init(projectId: "388421841222199046",
                                     defaultAlert: DefaultAlert(title: "New message", body: "Open the app")),
                now: now ?? self.now)
        }
    }

    @Test func everyKindMatchesTheVectors() throws {
        let cases = vectors["requests"] as! [[String: Any]]
        #expect(cases.count == 8)
        for vector in cases {
            let platform = Platform(rawValue: vector["platform"] as! String)!
            let kind = NotifyKind(rawValue: vector["kind"] as! String)!
            let job = Fixtures.job(platform, kind, withMessage: vector["withMessage"] as? Bool,
                                   ttl: TimeInterval(vector["ttl"] as! Int))
            let request = try build(platform, job)
            let label = "\(platform.rawValue) \(kind.rawValue)"
            #expect(request.method == "POST", "\(label)")
            #expect(request.url == vector["url"] as? String, "\(label)")
            #expect(request.headers.map { [$0.0, $0.1] } == vector["headers"] as? [[String]], "\(label)")
            #expect(String(decoding: request.body, as: UTF8.self) == vector["body"] as? String, "\(label)")
        }
    }

    @Test func collapseSlotIsTheVectorsAndWithinHuaweisRange() {
        let vector = vectors["collapseGroup"] as! [String: Any]
        #expect(PushKit.collapseGroup(vector["groupId"] as! String) == vector["slot"] as? Int)
        for group in ["", "a", "call/1", String(repeating: "z", count: 500)] {
            #expect((1...100).contains(PushKit.collapseGroup(group)))
        }
    }

    @Test func noGroupNoCollapseAndTTLIsCappedAtFifteenDays() throws {
        let job = Fixtures.job(.huawei, .message, groupId: nil, ttl: 30 * 86_400)
        let android = (Fixtures.json(try build(.huawei, job).body)["message"] as! [String: Any])["android"] as! [String: Any]
        #expect(android["collapse_key"] == nil && android["ttl"] as? String == "1296000s")
        let options = Fixtures.json(try build(.harmony, Fixtures.job(.harmony, .message, groupId: nil)).body)["pushOptions"]
        #expect((options as? [String: Any])?.keys.sorted() == ["ttl"])
    }

    @Test func probesAreValidateOnlyOrTestMessages() throws {
        let job = Fixtures.job(.huawei, .message)
        let v1 = try HuaweiGateway.buildRequest(job: job, credential: "t", configuration: .init(appId: "1", validateOnly: true), now: now)
        #expect(Fixtures.json(v1.body)["validate_only"] as? Bool == true)
        let v3 = try HarmonyGateway.buildRequest(job: Fixtures.job(.harmony, .message), credential: "t",
                                                 configuration: .init(projectId: "p", testMessage: true), now: now)
        #expect((Fixtures.json(v3.body)["pushOptions"] as? [String: Any])?["testMessage"] as? Bool == true)
    }

    @Test func refusesWhatCannotBeSent() throws {
        #expect(throws: GatewayError.expired) { try build(.huawei, Fixtures.job(.huawei, ttl: 0.5)) }
        #expect(throws: GatewayError.unsupportedKind) { try build(.harmony, Fixtures.job(.android)) }
        #expect(throws: GatewayError.unsupportedKind) { try build(.huawei, Fixtures.job(.harmony)) }
        // An empty alert body falls back to the title: Huawei requires a body.
        let bare = try HarmonyGateway.buildRequest(job: Fixtures.job(.harmony, .message), credential: "t",
                                                   configuration: .init(projectId: "p"), now: now)
        let notification = ((Fixtures.json(bare.body)["payload"] as! [String: Any])["notification"] as! [String: Any])
        #expect(notification["body"] as? String == "New message")
        // Over 4096 bytes without the token: refused before sending.
        var big = Fixtures.job(.harmony, .call)
        big.message?.payload = String(repeating: "A", count: 4000)
        #expect(throws: GatewayError.self) { try build(.harmony, big) }
        let gateway = CredentialedGateway<HuaweiGateway>(configuration: .init(appId: "1"), credential: { nil })
        #expect(throws: GatewayError.credentialsUnavailable) { try gateway.request(for: Fixtures.job(.huawei), now: now) }
        #expect(gateway.backoffScope(for: Fixtures.job(.huawei)) == "huawei/1")
    }
}
