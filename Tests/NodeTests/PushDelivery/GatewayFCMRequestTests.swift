import Foundation
import PushProtocol
import Testing
@testable import PushDelivery
@testable import PushSupport

@Suite struct GatewayFCMRequestTests {
    let now = Fixtures.now
    let alert = DefaultAlert(title: "New message", body: "Open the app")

    func build(_ job: DeliveryJob, at now: Date? = nil, baseURL: String = "https://fcm.googleapis.com") throws -> OutboundRequest {
        try FCMGateway.buildRequest(job: job, credential: "ya29.token", configuration: .init(
            projectId: "pushnode-test", baseURL: baseURL, defaultAlert: alert), now: now ?? self.now)
    }

    func message(_ request: OutboundRequest) -> [String: Any] {
        Fixtures.json(request.body)["message"] as? [String: Any] ?? [:]
    }

    func expectedData(_ job: DeliveryJob) -> [String: String] {
        Dictionary(uniqueKeysWithValues: DataKeys.pairs(for: job))
    }

    @Test func urlAndHeaders() throws {
        let request = try build(Fixtures.job(.android))
        #expect(request.method == "POST")
        #expect(request.url == "https://fcm.googleapis.com/v1/projects/pushnode-test/messages:send")
        #expect(request.headers.map(\.0) == ["authorization", "content-type"])
        #expect(request.header("Authorization") == "Bearer ya29.token")
        #expect(request.header("content-type") == "application/json; charset=utf-8")
        let trimmed = try build(Fixtures.job(.android), baseURL: "https://127.0.0.1:9444//")
        #expect(trimmed.url == "https://127.0.0.1:9444/v1/projects/pushnode-test/messages:send")
    }

    @Test func androidMessage() throws {
        let job = Fixtures.job(.android, .message)
        let message = message(try build(job, at: now.addingTimeInterval(0.4)))
        #expect(Set(message.keys) == ["token", "data", "android"])
        #expect(message["token"] as? String == Fixtures.fcmToken)
        #expect(message["data"] as? [String: String] == expectedData(job))
        let android = message["android"] as? [String: String]
        #expect(android == ["priority": "HIGH", "ttl": "3599s", "collapse_key": Fixtures.groupId])
    }

    @Test func androidSilentIsNormalAndNeverCollapses() throws {
        let job = Fixtures.job(.android, .silent, ttl: 3600)
        let message = message(try build(job))
        #expect(message["data"] as? [String: String] == [
            "x-any-type": "silent", "x-any-id": Fixtures.notificationId, "x-any-group-id": Fixtures.groupId,
        ])
        #expect(message["android"] as? [String: String] == ["priority": "NORMAL", "ttl": "3600s"])
    }

    @Test func androidCallGetsTheRemainingRingWindow() throws {
        let job = Fixtures.job(.android, .call, ttl: 45)
        let message = message(try build(job, at: now.addingTimeInterval(20)))
        #expect(message["android"] as? [String: String] == ["priority": "HIGH", "ttl": "25s"])
        #expect((message["data"] as? [String: String])?["x-any-type"] == "call")
    }

    @Test func iosMessage() throws {
        let job = Fixtures.job(.ios, .message)
        let message = message(try build(job))
        #expect(Set(message.keys) == ["token", "data", "apns"])
        #expect(message["data"] as? [String: String] == expectedData(job))
        let apns = message["apns"] as? [String: Any] ?? [:]
        #expect(apns["headers"] as? [String: String] == [
            "apns-push-type": "alert", "apns-priority": "10",
            "apns-expiration": String(Int(now.timeIntervalSince1970) + 3600), "apns-collapse-id": Fixtures.groupId,
        ])
        let aps = (apns["payload"] as? [String: Any])?["aps"] as? [String: Any] ?? [:]
        #expect(Set(aps.keys) == ["alert", "mutable-content", "thread-id"])
        #expect(aps["alert"] as? [String: String] == ["title": "New message", "body": "Open the app"])
        #expect(aps["mutable-content"] as? Int == 1)
        #expect(aps["thread-id"] as? String == Fixtures.groupId)
    }

    @Test func iosSilentIsABackgroundPush() throws {
        let message = message(try build(Fixtures.job(.ios, .silent, ttl: 600)))
        let apns = message["apns"] as? [String: Any] ?? [:]
        #expect(apns["headers"] as? [String: String] == [
            "apns-push-type": "background", "apns-priority": "5",
            "apns-expiration": String(Int(now.timeIntervalSince1970) + 600),
        ])
        let payload = apns["payload"] as? [String: Any] ?? [:]
        #expect(payload["aps"] as? [String: Int] == ["content-available": 1])
    }

    @Test func iosCallIsAnAlertTypedCall() throws {
        let message = message(try build(Fixtures.job(.ios, .call, ttl: 45)))
        let apns = message["apns"] as? [String: Any] ?? [:]
        let headers = apns["headers"] as? [String: String] ?? [:]
        #expect(headers["apns-push-type"] == "alert")
        #expect(headers["apns-priority"] == "10")
        #expect(headers["apns-collapse-id"] == nil)
        let aps = (apns["payload"] as? [String: Any])?["aps"] as? [String: Any] ?? [:]
        #expect(aps["alert"] != nil)
        #expect((message["data"] as? [String: String])?["x-any-type"] == "call")
    }

    @Test func noGroupIdMeansNoCollapseNoThread() throws {
        let android = message(try build(Fixtures.job(.android, groupId: nil)))
        #expect((android["android"] as? [String: String])?["collapse_key"] == nil)
        #expect((android["data"] as? [String: String])?["x-any-group-id"] == "")
        let ios = message(try build(Fixtures.job(.ios, groupId: nil)))
        let apns = ios["apns"] as? [String: Any] ?? [:]
        #expect((apns["headers"] as? [String: String])?["apns-collapse-id"] == nil)
        let aps = (apns["payload"] as? [String: Any])?["aps"] as? [String: Any] ?? [:]
        #expect(aps["thread-id"] == nil)
    }

    /// Base64's `/` goes out raw (no `\/`), and the body is exactly the compact JSON.
    @Test func bodyBytesAreCompactAndUnescaped() throws {
        let job = Fixtures.job(.android, .silent, groupId: "g", withMessage: false, ttl: 60)
        let body = String(decoding: try build(job).body, as: UTF8.self)
        #expect(body == #"{"message":{"token":"\#(Fixtures.fcmToken)","data":{"x-any-type":"silent","x-any-id":"\#(Fixtures.notificationId)","x-any-group-id":"g"},"android":{"priority":"NORMAL","ttl":"60s"}}}"#)
        let withPayload = String(decoding: try build(Fixtures.job(.android)).body, as: UTF8.self)
        #expect(withPayload.contains(Fixtures.message.payload))
        #expect(!withPayload.contains("\\/"))
    }

    /// The largest Notify (2816-byte payload, 64-char groupId, UUID id) fits FCM's 4096 bytes.
    @Test func largestNotifyFits() throws {
        var job = Fixtures.job(.android)
        job.message?.payload = Data(repeating: 0xab, count: 2816).base64EncodedString()
        job.groupId = String(repeating: "f", count: 64)
        let size = DataKeys.size(of: DataKeys.pairs(for: job))
        #expect(size <= FCMGateway.dataLimit)
        _ = try build(job)
    }

    @Test func refusals() {
        var big = Fixtures.job(.android)
        big.message?.payload = String(repeating: "A", count: 4000)
        #expect(throws: GatewayError.payloadTooLarge(size: DataKeys.size(of: DataKeys.pairs(for: big)), limit: 4096)) {
            try build(big)
        }
        #expect(throws: GatewayError.expired) { try build(Fixtures.job(.android, ttl: 10), at: now.addingTimeInterval(9.5)) }
        #expect(throws: GatewayError.unsupportedKind) { try build(Fixtures.job(.apns)) }
        var empty = Fixtures.job(.android)
        empty.registration.token = ""
        #expect(throws: GatewayError.invalidToken) { try build(empty) }
    }

    @Test func gatewayUsesTheCurrentAccessToken() throws {
        let configuration = FCMGateway.Configuration(projectId: "p", defaultAlert: alert)
        let without = CredentialedGateway<FCMGateway>(configuration: configuration, credential: { nil })
        #expect(throws: GatewayError.credentialsUnavailable) { try without.request(for: Fixtures.job(.android), now: now) }
        let with = CredentialedGateway<FCMGateway>(configuration: configuration, credential: { "tok" })
        #expect(with.provider == .fcm)
        let request = try with.request(for: Fixtures.job(.android), now: now)
        #expect(request.header("authorization") == "Bearer tok")
        #expect(request.url == "https://fcm.googleapis.com/v1/projects/p/messages:send")
    }
}
