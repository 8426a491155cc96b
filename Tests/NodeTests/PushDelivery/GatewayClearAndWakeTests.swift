import Foundation
import PushProtocol
import Testing
@testable import PushDelivery
@testable import PushSupport

/// The shapes of kind `clear` and of a content-free wake on every provider (PROTOCOL §5.2).
@Suite struct GatewayClearAndWakeTests {
    let now = Fixtures.now
    let alert = DefaultAlert(title: "New message", body: "Open the app")
    /// Exactly the three keys of a push without a message.
    let wakeKeys: Set<String> = ["x-any-type", "x-any-id", "x-any-group-id"]

    func fcm(_ job: DeliveryJob) throws -> [String: Any] {
        let request = try FCMGateway.buildRequest(job: job, credential: "ya29.token", configuration: .init(
            projectId: "p", baseURL: "https://fcm.googleapis.com", defaultAlert: alert), now: now)
        return Fixtures.json(request.body)["message"] as? [String: Any] ?? [:]
    }

    func apns(_ job: DeliveryJob) throws -> OutboundRequest {
        try APNsGateway.buildRequest(job: job, credential: "jwt", configuration: .init(
            topic: "org.example.chat", host: .byEnvironment, defaultAlert: alert), now: now)
    }

    func webpush(_ job: DeliveryJob, at now: Date? = nil) throws -> OutboundRequest {
        try WebPushGateway.buildRequest(job: job, encryptor: EchoEncryptor(), authorizer: EchoAuthorizer(), isRoutable: { _ in true },
                                        allowsPlainHTTP: false, now: now ?? self.now)
    }

    // MARK: clear

    @Test func fcmAndroidClearIsAnUrgentDataPushThatNeverCollapses() throws {
        let message = try fcm(Fixtures.job(.android, .clear, withMessage: false, ttl: 60))
        #expect(message["data"] as? [String: String] == [
            "x-any-type": "clear", "x-any-id": Fixtures.notificationId, "x-any-group-id": Fixtures.groupId,
        ])
        #expect(message["android"] as? [String: String] == ["priority": "HIGH", "ttl": "60s"])
        #expect(message["notification"] == nil)
    }

    @Test func fcmIOSClearIsABackgroundPush() throws {
        let message = try fcm(Fixtures.job(.ios, .clear, ttl: 60))
        let apns = message["apns"] as? [String: Any] ?? [:]
        let headers = apns["headers"] as? [String: String] ?? [:]
        #expect(headers["apns-push-type"] == "background")
        #expect(headers["apns-priority"] == "5")
        #expect(headers["apns-collapse-id"] == nil)
        #expect((apns["payload"] as? [String: Any])?["aps"] as? [String: Int] == ["content-available": 1])
        // A clear may carry a sealed payload (which call ended); its keys go along.
        #expect((message["data"] as? [String: String])?["x-any-payload"] == Fixtures.message.payload)
    }

    @Test func apnsClearGoesToTheAlertTokenAsBackgroundAndNeverOverVoIP() throws {
        let request = try apns(Fixtures.job(.apns, .clear, withMessage: false, ttl: 60))
        #expect(request.header("apns-push-type") == "background")
        #expect(request.header("apns-priority") == "5")
        #expect(request.header("apns-collapse-id") == nil)
        #expect(request.header("apns-expiration") == String(Int(now.timeIntervalSince1970) + 60))
        let body = Fixtures.json(request.body)
        #expect(body["aps"] as? [String: Int] == ["content-available": 1])
        #expect(Set(body.keys) == wakeKeys.union(["aps"]))
        #expect(body["x-any-type"] as? String == "clear")
        #expect(throws: GatewayError.unsupportedKind) { try apns(Fixtures.job(.apnsVoip, .clear, ttl: 60)) }
    }

    @Test func webPushClearIsUrgentForItsTTLWithoutTopic() throws {
        let job = Fixtures.job(.webpush, .clear, withMessage: false, ttl: 60)
        let request = try webpush(job, at: now.addingTimeInterval(10))
        #expect(request.header("urgency") == "high")
        #expect(request.header("ttl") == "50")
        #expect(request.header("topic") == nil)
        #expect(Set((Fixtures.json(Array(request.body.dropFirst(81))) as? [String: String] ?? [:]).keys) == wakeKeys)
    }

    // MARK: content-free wake (kind message, no message)

    @Test func fcmAndroidWakeIsDataOnlyAndCollapsesPerGroup() throws {
        let message = try fcm(Fixtures.job(.android, .message, withMessage: false))
        #expect(Set((message["data"] as? [String: String] ?? [:]).keys) == wakeKeys)
        #expect((message["data"] as? [String: String])?["x-any-type"] == "normal")
        #expect(message["android"] as? [String: String] == ["priority": "HIGH", "ttl": "3600s", "collapse_key": Fixtures.groupId])
        #expect(message["notification"] == nil)
    }

    @Test func apnsWakeIsAMinimalAlertThatAlsoWakesTheApp() throws {
        let request = try apns(Fixtures.job(.apns, .message, withMessage: false))
        #expect(request.header("apns-push-type") == "alert")
        #expect(request.header("apns-priority") == "10")
        #expect(request.header("apns-collapse-id") == Fixtures.groupId)
        let body = Fixtures.json(request.body)
        #expect(Set(body.keys) == wakeKeys.union(["aps"]))
        let aps = body["aps"] as? [String: Any] ?? [:]
        #expect(Set(aps.keys) == ["alert", "content-available", "mutable-content", "thread-id"])
        #expect(aps["alert"] as? [String: String] == ["title": "New message", "body": "Open the app"])
        #expect(aps["content-available"] as? Int == 1 && aps["mutable-content"] as? Int == 1)
        // With a message the alert is the same but the app is not woken separately.
        let sealed = Fixtures.json(try apns(Fixtures.job(.apns, .message)).body)["aps"] as? [String: Any] ?? [:]
        #expect(sealed["content-available"] == nil)
    }

    @Test func fcmIOSWakeCarriesTheSameAPNsBlock() throws {
        let message = try fcm(Fixtures.job(.ios, .message, withMessage: false))
        let apns = message["apns"] as? [String: Any] ?? [:]
        let headers = apns["headers"] as? [String: String] ?? [:]
        #expect(headers["apns-push-type"] == "alert" && headers["apns-collapse-id"] == Fixtures.groupId)
        let aps = (apns["payload"] as? [String: Any])?["aps"] as? [String: Any] ?? [:]
        #expect(aps["content-available"] as? Int == 1 && aps["mutable-content"] as? Int == 1)
    }

    @Test func apnsSilentWakeStaysBackground() throws {
        let request = try apns(Fixtures.job(.apns, .silent, withMessage: false))
        #expect(request.header("apns-push-type") == "background")
        #expect(Fixtures.json(request.body)["aps"] as? [String: Int] == ["content-available": 1])
    }

    @Test func webPushWakeIsARecordOfTheDataKeys() throws {
        let job = Fixtures.job(.webpush, .message, withMessage: false)
        let request = try webpush(job)
        #expect(request.header("urgency") == "high")
        #expect(request.header("topic") == "3Aunls2wi236gCB55iZ3yXM4fh4QmpBe")
        #expect(String(decoding: request.body.dropFirst(81), as: UTF8.self)
            == #"{"x-any-type":"normal","x-any-id":"\#(Fixtures.notificationId)","x-any-group-id":"\#(Fixtures.groupId)"}"#)
    }
}
