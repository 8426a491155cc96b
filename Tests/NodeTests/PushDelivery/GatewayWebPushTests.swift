import Foundation
import Testing
@testable import PushDelivery
@testable import PushSupport

/// Echoes its inputs so a test can see exactly what the gateway handed over.
struct EchoEncryptor: WebPushEncryptor {
    func encrypt(_ plaintext: [UInt8], p256dh: [UInt8], auth: [UInt8]) throws -> [UInt8] {
        auth + p256dh + plaintext
    }
}

struct FailingEncryptor: WebPushEncryptor {
    struct Failure: Error {}
    func encrypt(_ plaintext: [UInt8], p256dh: [UInt8], auth: [UInt8]) throws -> [UInt8] { throw Failure() }
}

struct EchoAuthorizer: VAPIDAuthorizer {
    func authorization(forOrigin origin: String, now: Date) throws -> String {
        "vapid t=jwt(\(origin)@\(Int(now.timeIntervalSince1970))), k=BPublicKey"
    }
}

struct FailingAuthorizer: VAPIDAuthorizer {
    func authorization(forOrigin origin: String, now: Date) throws -> String { throw FailingEncryptor.Failure() }
}

@Suite struct GatewayWebPushTests {
    let now = Fixtures.now

    func build(_ job: DeliveryJob, at now: Date? = nil, encryptor: any WebPushEncryptor = EchoEncryptor(),
               authorizer: any VAPIDAuthorizer = EchoAuthorizer(), routable: Bool = true,
               allowsPlainHTTP: Bool = false) throws -> OutboundRequest {
        try WebPushGateway.buildRequest(job: job, encryptor: encryptor, authorizer: authorizer, isRoutable: { _ in routable },
                                        allowsPlainHTTP: allowsPlainHTTP, now: now ?? self.now)
    }

    @Test func messageRequest() throws {
        let job = Fixtures.job(.webpush, .message)
        let request = try build(job, at: now.addingTimeInterval(100.5))
        #expect(request.method == "POST")
        #expect(request.url == Fixtures.endpoint)
        #expect(request.headers.map { "\($0.0): \($0.1)" } == [
            "ttl: 3499",
            "urgency: high",
            "topic: 3Aunls2wi236gCB55iZ3yXM4fh4QmpBe",
            "content-encoding: aes128gcm",
            "content-type: application/octet-stream",
            "authorization: vapid t=jwt(https://push.example.net:8443@\(Int(now.timeIntervalSince1970) + 100)), k=BPublicKey",
        ])
        // The encryptor got the decoded auth (16) and p256dh (65) and the data-key JSON.
        #expect(Array(request.body.prefix(16)) == Fixtures.authBytes)
        #expect(Array(request.body.dropFirst(16).prefix(65)) == Fixtures.p256dhBytes)
        let plaintext = Array(request.body.dropFirst(81))
        #expect(plaintext == WebPushGateway.plaintext(for: job))
        #expect(Fixtures.json(plaintext) as? [String: String]
            == Dictionary(uniqueKeysWithValues: DataKeys.pairs(for: job)))
    }

    @Test func plaintextIsTheCompactDataKeyObject() {
        let job = Fixtures.job(.webpush, .silent, groupId: nil)
        #expect(String(decoding: WebPushGateway.plaintext(for: job), as: UTF8.self)
            == #"{"x-any-type":"silent","x-any-id":"\#(Fixtures.notificationId)","x-any-group-id":""}"#)
    }

    @Test func silentIsLowUrgencyWithoutTopic() throws {
        let request = try build(Fixtures.job(.webpush, .silent, ttl: 3600))
        #expect(request.header("urgency") == "low")
        #expect(request.header("topic") == nil)
        #expect(request.header("ttl") == "3600")
    }

    @Test func callIsUrgentForTheRestOfTheRingWindow() throws {
        let request = try build(Fixtures.job(.webpush, .call, ttl: 45), at: now.addingTimeInterval(30))
        #expect(request.header("urgency") == "high")
        #expect(request.header("ttl") == "15")
        #expect(request.header("topic") == nil)
    }

    @Test func noGroupIdNoTopic() throws {
        #expect(try build(Fixtures.job(.webpush, groupId: nil)).header("topic") == nil)
    }

    @Test func guardAndKeyRefusals() throws {
        #expect(throws: GatewayError.notRoutable) { try build(Fixtures.job(.webpush), routable: false) }
        var plain = Fixtures.job(.webpush)
        plain.registration.token = "http://127.0.0.1:8080/push/abc"
        #expect(throws: GatewayError.notRoutable) { try build(plain) }
        #expect(try build(plain, allowsPlainHTTP: true).url == "http://127.0.0.1:8080/push/abc")

        var noKeys = Fixtures.job(.webpush)
        noKeys.registration.auth = nil
        #expect(throws: GatewayError.invalidKeys) { try build(noKeys) }
        var shortPoint = Fixtures.job(.webpush)
        shortPoint.registration.p256dh = Array(Fixtures.p256dhBytes.prefix(33))
        #expect(throws: GatewayError.invalidKeys) { try build(shortPoint) }
        var badAuth = Fixtures.job(.webpush)
        badAuth.registration.auth = Array(Fixtures.authBytes.prefix(15))
        #expect(throws: GatewayError.invalidKeys) { try build(badAuth) }

        var userinfo = Fixtures.job(.webpush)
        userinfo.registration.token = "https://attacker@push.example.net/x"
        #expect(throws: GatewayError.invalidToken) { try build(userinfo) }
    }

    /// The host handed to the guard is the bare host (no brackets, no port).
    @Test func guardSeesTheBareHost() throws {
        var job = Fixtures.job(.webpush)
        job.registration.token = "https://[2001:DB8::7]:8443/push"
        var seen: [String] = []
        _ = try WebPushGateway.buildRequest(job: job, encryptor: EchoEncryptor(), authorizer: EchoAuthorizer(),
                                            isRoutable: { seen.append($0); return true }, now: now)
        #expect(seen == ["2001:db8::7"])
    }

    @Test func seamFailures() {
        #expect(throws: GatewayError.encryptionFailed) { try build(Fixtures.job(.webpush), encryptor: FailingEncryptor()) }
        #expect(throws: GatewayError.credentialsUnavailable) { try build(Fixtures.job(.webpush), authorizer: FailingAuthorizer()) }
        #expect(throws: GatewayError.expired) { try build(Fixtures.job(.webpush, ttl: 1), at: now.addingTimeInterval(0.1)) }
        #expect(throws: GatewayError.unsupportedKind) { try build(Fixtures.job(.android)) }
    }

    /// RFC 8291 leaves 3993 bytes of plaintext; with a 64-char groupId and a UUID id the
    /// largest sealed payload that fits is 2718 bytes (below the 2816 default limit).
    @Test func plaintextLimit() throws {
        func job(payloadBytes: Int) -> DeliveryJob {
            var job = Fixtures.job(.webpush, groupId: String(repeating: "f", count: 64))
            job.message?.payload = Data(repeating: 0xab, count: payloadBytes).base64EncodedString()
            return job
        }
        #expect(WebPushGateway.plaintext(for: job(payloadBytes: 2718)).count == 3991)
        _ = try build(job(payloadBytes: 2718))
        #expect(throws: GatewayError.payloadTooLarge(size: 4123, limit: 3993)) { try build(job(payloadBytes: 2816)) }
    }

    @Test func gatewayValue() throws {
        let gateway = WebPushGateway(encryptor: EchoEncryptor(), authorizer: EchoAuthorizer(), isRoutable: { _ in false })
        #expect(gateway.provider == .webpush)
        #expect(throws: GatewayError.notRoutable) { try gateway.request(for: Fixtures.job(.webpush), now: now) }
        #expect(WebPushGateway.origin(of: Fixtures.job(.webpush))?.description == "https://push.example.net:8443")
    }

    /// 32 characters of base64url, checked against Python:
    /// `urlsafe_b64encode(sha256(g.encode()).digest()[:24])`.
    @Test func topicDigest() {
        #expect(WebPushTopic.value(forGroupId: Fixtures.groupId) == "3Aunls2wi236gCB55iZ3yXM4fh4QmpBe")
        #expect(WebPushTopic.value(forGroupId: "g") == "zQqphWFHtsW0_yt9_uXaIKo4JTCZ7xtK")
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for group in ["g", Fixtures.groupId, String(repeating: "~", count: 64), "chat 1", "chat 2"] {
            let topic = WebPushTopic.value(forGroupId: group)
            #expect(topic.count == 32)
            #expect(topic.allSatisfy { alphabet.contains($0) })
        }
        #expect(WebPushTopic.value(forGroupId: "chat 1") != WebPushTopic.value(forGroupId: "chat 2"))
    }

    @Test func classification() {
        func classify(_ status: Int, headers: [String: String] = [:]) -> DeliveryOutcome {
            WebPushGateway.classify(Fixtures.answer(status, headers: headers), now: now)
        }
        for status in [200, 201, 202] { #expect(classify(status) == .delivered) }
        #expect(classify(404) == .dead(DeliveryReason(.webpushGone, detail: "404")))
        #expect(classify(410) == .dead(DeliveryReason(.webpushGone, detail: "410")))
        #expect(classify(413) == .rejected(DeliveryReason(.webpushPayloadTooLarge, detail: "413")))
        #expect(classify(429) == .transient(DeliveryReason(.webpushRateLimited, detail: "429"), retryAfter: 300, scope: .origin))
        #expect(classify(429, headers: ["retry-after": "60"])
            == .transient(DeliveryReason(.webpushRateLimited, detail: "429"), retryAfter: 60, scope: .origin))
        #expect(classify(503, headers: ["retry-after": "Wed, 01 Jan 2025 00:00:20 GMT"])
            == .transient(DeliveryReason(.webpushServerError, detail: "503"), retryAfter: 20))
        #expect(classify(500) == .transient(DeliveryReason(.webpushServerError, detail: "500"), retryAfter: nil))
        #expect(classify(502) == .transient(DeliveryReason(.webpushServerError, detail: "502"), retryAfter: nil))
        for status in [400, 401, 403] {
            #expect(classify(status) == .rejected(DeliveryReason(.webpushRefused, detail: String(status))))
        }
        #expect(classify(301) == .rejected(DeliveryReason(.webpushHTTPError, detail: "301")))
        #expect(classify(405) == .rejected(DeliveryReason(.webpushHTTPError, detail: "405")))
    }
}
