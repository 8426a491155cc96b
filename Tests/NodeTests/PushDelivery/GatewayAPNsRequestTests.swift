import Foundation
import PushProtocol
import Testing
@testable import PushDelivery
@testable import PushSupport

@Suite struct GatewayAPNsRequestTests {
    let now = Fixtures.now
    let alert = DefaultAlert(title: "New message", body: "")
    let device = Fixtures.apnsToken.lowercased()

    func build(_ job: DeliveryJob, host: APNsGateway.Host = .byEnvironment, at now: Date? = nil) throws -> OutboundRequest {
        try APNsGateway.buildRequest(job: job, credential: "eyJhbGciOiJFUzI1NiJ9.jwt.sig", configuration: .init(
            topic: "org.example.chat", host: host, defaultAlert: alert), now: now ?? self.now)
    }

    func expectedData(_ job: DeliveryJob) -> [String: String] {
        Dictionary(uniqueKeysWithValues: DataKeys.pairs(for: job))
    }

    @Test func alertMessage() throws {
        let job = Fixtures.job(.apns, .message)
        let request = try build(job)
        #expect(request.method == "POST")
        #expect(request.url == "https://api.push.apple.com/3/device/\(device)")
        let expiration = String(Int(now.timeIntervalSince1970) + 3600)
        #expect(request.headers.map { "\($0.0): \($0.1)" } == [
            "authorization: bearer eyJhbGciOiJFUzI1NiJ9.jwt.sig",
            "apns-topic: org.example.chat",
            "apns-push-type: alert",
            "apns-priority: 10",
            "apns-expiration: \(expiration)",
            "apns-collapse-id: \(Fixtures.groupId)",
            "apns-id: c3889197-363d-41b4-b01e-df0941c13eac",
        ])
        let body = Fixtures.json(request.body)
        #expect(Set(body.keys) == Set(["aps"] + DataKeys.pairs(for: job).map(\.0)))
        for (key, value) in expectedData(job) { #expect(body[key] as? String == value, "\(key)") }
        let aps = body["aps"] as? [String: Any] ?? [:]
        #expect(Set(aps.keys) == ["alert", "mutable-content", "thread-id"])
        #expect(aps["alert"] as? [String: String] == ["title": "New message", "body": ""])
        #expect(aps["mutable-content"] as? Int == 1)
        #expect(aps["thread-id"] as? String == Fixtures.groupId)
        #expect(String(decoding: request.body, as: UTF8.self).hasPrefix(#"{"aps":{"alert":{"title":"New message","body":""},"mutable-content":1,"thread-id":""#))
    }

    @Test func silentIsBackground() throws {
        let request = try build(Fixtures.job(.apns, .silent, ttl: 600))
        #expect(request.header("apns-push-type") == "background")
        #expect(request.header("apns-priority") == "5")
        #expect(request.header("apns-collapse-id") == nil)
        #expect(request.header("apns-expiration") == String(Int(now.timeIntervalSince1970) + 600))
        let body = Fixtures.json(request.body)
        #expect(body["aps"] as? [String: Int] == ["content-available": 1])
        #expect(body["x-any-type"] as? String == "silent")
        #expect(body["x-any-payload"] == nil)
    }

    @Test func callWithoutPushKitIsAnAlert() throws {
        let request = try build(Fixtures.job(.apns, .call, ttl: 45))
        #expect(request.header("apns-topic") == "org.example.chat")
        #expect(request.header("apns-push-type") == "alert")
        #expect(request.header("apns-priority") == "10")
        #expect(request.header("apns-collapse-id") == nil)
        let body = Fixtures.json(request.body)
        #expect((body["aps"] as? [String: Any])?["alert"] != nil)
        #expect(body["x-any-type"] as? String == "call")
    }

    @Test func voipCallRingsThroughPushKit() throws {
        let job = Fixtures.job(.apnsVoip, .call, ttl: 45)
        let request = try build(job, at: now.addingTimeInterval(5))
        #expect(request.header("apns-topic") == "org.example.chat.voip")
        #expect(request.header("apns-push-type") == "voip")
        #expect(request.header("apns-priority") == "10")
        #expect(request.header("apns-expiration") == String(Int(now.timeIntervalSince1970) + 45))
        #expect(request.header("apns-collapse-id") == nil)
        let body = Fixtures.json(request.body)
        #expect(body["aps"] == nil)
        #expect(Set(body.keys) == Set(expectedData(job).keys))
        #expect(body["x-any-type"] as? String == "call")
    }

    @Test func pushKitTakesOnlyCalls() {
        #expect(throws: GatewayError.unsupportedKind) { try build(Fixtures.job(.apnsVoip, .message)) }
        #expect(throws: GatewayError.unsupportedKind) { try build(Fixtures.job(.apnsVoip, .silent)) }
        #expect(throws: GatewayError.unsupportedKind) { try build(Fixtures.job(.android)) }
    }

    @Test func hostsByEnvironmentSandboxAndOverride() throws {
        #expect(try build(Fixtures.job(.apns, environment: "development")).url
            == "https://api.sandbox.push.apple.com/3/device/\(device)")
        #expect(try build(Fixtures.job(.apns, environment: "production"), host: .sandbox).url
            == "https://api.sandbox.push.apple.com/3/device/\(device)")
        #expect(try build(Fixtures.job(.apns, environment: "development"), host: .custom("https://127.0.0.1:9443/")).url
            == "https://127.0.0.1:9443/3/device/\(device)")
        #expect(APNsGateway.baseURL(for: .custom("apns.internal:2197"), environment: "") == "https://apns.internal:2197")
    }

    @Test func tokensAreLowercaseHex() {
        var job = Fixtures.job(.apns)
        for bad in ["", "abc", "zz11", "5f1e 6a2b", "0x5f1e"] {
            job.registration.token = bad
            #expect(throws: GatewayError.invalidToken, "\(bad)") { try build(job) }
        }
    }

    /// Derived from the outbox id, checked against an independent Python computation:
    /// `uuid.UUID(bytes=sha256(b"pushnode apns-id\0" + struct.pack(">q", id))[:16])` with v4/variant bits.
    @Test func apnsIdIsStablePerDelivery() {
        #expect(APNsRequestID.uuid(forOutboxId: 42) == "c3889197-363d-41b4-b01e-df0941c13eac")
        #expect(APNsRequestID.uuid(forOutboxId: -1) == "762a3c7c-75ac-4814-a3e1-952b7ffde073")
        #expect(APNsRequestID.uuid(forOutboxId: 43) != APNsRequestID.uuid(forOutboxId: 42))
    }

    @Test func longGroupIdThreadsButDoesNotCollapse() throws {
        let request = try build(Fixtures.job(.apns, groupId: String(repeating: "g", count: 65)))
        #expect(request.header("apns-collapse-id") == nil)
        #expect((Fixtures.json(request.body)["aps"] as? [String: Any])?["thread-id"] as? String == String(repeating: "g", count: 65))
    }

    @Test func expiredJobsAreNotBuilt() {
        #expect(throws: GatewayError.expired) { try build(Fixtures.job(.apns, .call, ttl: 45), at: now.addingTimeInterval(44.2)) }
    }

    /// APNs counts the whole JSON body against 4096 bytes (VoIP 5120). With a 64-char groupId
    /// and a UUID notification id, the largest sealed payload an alert can carry is 2685 bytes —
    /// below `limits.maxPayloadBytes`' default of 2816, so such a push is refused before sending.
    @Test func payloadLimits() throws {
        func job(payloadBytes: Int, _ platform: Platform = .apns, _ kind: NotifyKind = .message) -> DeliveryJob {
            var job = Fixtures.job(platform, kind, groupId: String(repeating: "f", count: 64))
            job.message?.payload = Data(repeating: 0xab, count: payloadBytes).base64EncodedString()
            return job
        }
        #expect(try build(job(payloadBytes: 2685)).body.count <= 4096)
        #expect(throws: GatewayError.payloadTooLarge(size: 4272, limit: 4096)) { try build(job(payloadBytes: 2816)) }
        #expect(try build(job(payloadBytes: 2816, .apnsVoip, .call)).body.count == 4121)  // VoIP: 5120
    }

    @Test func gatewayUsesTheCurrentProviderToken() throws {
        let configuration = APNsGateway.Configuration(topic: "org.example.chat", host: .sandbox, defaultAlert: alert)
        #expect(throws: GatewayError.credentialsUnavailable) {
            try CredentialedGateway<APNsGateway>(configuration: configuration, credential: { nil }).request(for: Fixtures.job(.apns), now: now)
        }
        let gateway = CredentialedGateway<APNsGateway>(configuration: configuration, credential: { "jwt" })
        #expect(gateway.provider == .apns)
        let request = try gateway.request(for: Fixtures.job(.apns), now: now)
        #expect(request.header("authorization") == "bearer jwt")
        #expect(request.url.hasPrefix("https://api.sandbox.push.apple.com/3/device/"))
    }
}
