import Foundation
import PushCrypto
import PushProtocol
import PushSupport
import Testing
@testable import PushHTTP
@testable import PushNet
@testable import PushService

/// RFC 8291 Appendix A's user agent public key: a valid P-256 point.
let validP256dh = try! Base64.decodeURL("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4")
let validAuth = try! Base64.decodeURL("BTBZMqHH6r4Tts7J_aSIgg")

@Suite struct TokenServiceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var request: SetTokenRequest
        /// The HTTP door's status for `code`.
        var status: Int
        var code: APIError.Code
        var field: String?
        var allowPrivate = false
        var enabled: Set<Platform> = Set(Platform.allCases)
        var testDescription: String { name }
    }

    static let offCurve: [UInt8] = { var key = validP256dh; key[64] ^= 1; return key }()

    static func webpush(_ url: String, p256dh: [UInt8]? = validP256dh, auth: [UInt8]? = validAuth) -> SetTokenRequest {
        SetTokenRequest(deviceId: "d", platform: .webpush, token: url, p256dh: p256dh, auth: auth)
    }

    static let cases: [Case] = [
        Case(name: "empty deviceId", request: .init(deviceId: "", platform: .android, token: "t"), status: 400, code: .invalidField, field: "deviceId"),
        Case(name: "long deviceId", request: .init(deviceId: String(repeating: "d", count: 129), platform: .android, token: "t"),
             status: 400, code: .invalidField, field: "deviceId"),
        Case(name: "empty token", request: .init(deviceId: "d", platform: .android, token: ""), status: 400, code: .invalidField, field: "token"),
        Case(name: "long token", request: .init(deviceId: "d", platform: .android, token: String(repeating: "t", count: 4097)),
             status: 400, code: .invalidField, field: "token"),
        Case(name: "empty appId", request: .init(deviceId: "d", platform: .android, token: "t", appId: ""), status: 400, code: .invalidField, field: "appId"),
        Case(name: "disabled platform", request: .init(deviceId: "d", platform: .apns, token: "ab"), status: 409,
             code: .platformDisabled, field: "platform", enabled: [.android, .webpush]),
        Case(name: "p256dh on android", request: .init(deviceId: "d", platform: .android, token: "t", p256dh: validP256dh),
             status: 400, code: .invalidField, field: "p256dh"),
        Case(name: "auth on apns", request: .init(deviceId: "d", platform: .apns, token: "ab", auth: validAuth),
             status: 400, code: .invalidField, field: "auth"),
        Case(name: "webpush without keys", request: webpush("https://push.example.net/x", p256dh: nil, auth: nil),
             status: 400, code: .missingField, field: "p256dh"),
        Case(name: "webpush without auth", request: webpush("https://push.example.net/x", auth: nil), status: 400, code: .missingField, field: "auth"),
        Case(name: "webpush without p256dh", request: webpush("https://push.example.net/x", p256dh: nil), status: 400, code: .missingField, field: "p256dh"),
        Case(name: "p256dh off the curve", request: webpush("https://push.example.net/x", p256dh: offCurve), status: 400, code: .invalidField, field: "p256dh"),
        Case(name: "p256dh compressed", request: webpush("https://push.example.net/x", p256dh: [0x02] + Array(validP256dh[1..<33])),
             status: 400, code: .invalidField, field: "p256dh"),
        Case(name: "auth of 15 bytes", request: webpush("https://push.example.net/x", auth: Array(validAuth.prefix(15))),
             status: 400, code: .invalidField, field: "auth"),
        Case(name: "apns environment", request: .init(deviceId: "d", platform: .apns, token: "ab", environment: "staging"),
             status: 400, code: .invalidField, field: "environment"),
        Case(name: "android environment", request: .init(deviceId: "d", platform: .android, token: "t", environment: "production"),
             status: 400, code: .invalidField, field: "environment"),
        Case(name: "apns token not hex", request: .init(deviceId: "d", platform: .apns, token: "xyz0"), status: 400, code: .invalidField, field: "token"),
        Case(name: "voip token odd length", request: .init(deviceId: "d", platform: .apnsVoip, token: "abc"), status: 400, code: .invalidField, field: "token"),
        Case(name: "webpush http", request: webpush("http://push.example.net/x"), status: 400, code: .invalidField, field: "token"),
        Case(name: "webpush relative", request: webpush("/push/x"), status: 400, code: .invalidField, field: "token"),
        Case(name: "webpush not a URL", request: webpush("push service"), status: 400, code: .invalidField, field: "token"),
        Case(name: "webpush ftp", request: webpush("ftp://push.example.net/x"), status: 400, code: .invalidField, field: "token"),
        Case(name: "webpush credentials", request: webpush("https://user:pw@push.example.net/x"), status: 400, code: .invalidField, field: "token"),
        Case(name: "webpush loopback", request: webpush("https://127.0.0.1/x"), status: 400, code: .tokenEndpointNotRoutable, field: "token"),
        Case(name: "webpush v6 loopback", request: webpush("https://[::1]:8443/x"), status: 400, code: .tokenEndpointNotRoutable, field: "token"),
        Case(name: "webpush mapped private", request: webpush("https://[::ffff:10.0.0.1]/x"), status: 400, code: .tokenEndpointNotRoutable, field: "token"),
        Case(name: "webpush metadata", request: webpush("https://169.254.169.254/latest"), status: 400, code: .tokenEndpointNotRoutable, field: "token"),
        Case(name: "webpush CGNAT", request: webpush("https://100.64.1.1/x"), status: 400, code: .tokenEndpointNotRoutable, field: "token"),
        Case(name: "webpush one private address", request: webpush("https://intranet.example/x"), status: 400, code: .tokenEndpointNotRoutable, field: "token"),
        Case(name: "webpush ULA host", request: webpush("https://v6-ula.example/x"), status: 400, code: .tokenEndpointNotRoutable, field: "token"),
        Case(name: "webpush unknown host", request: webpush("https://nowhere.example/x"), status: 400, code: .tokenEndpointNotRoutable, field: "token"),
        Case(name: "webpush host not resolved in time", request: webpush("https://flaky.example/x"), status: 400,
             code: .tokenEndpointNotRoutable, field: "token"),
        Case(name: "webpush numeric host", request: webpush("https://2130706433/x"), status: 400, code: .tokenEndpointNotRoutable, field: "token"),
    ]

    @Test(arguments: cases)
    func refused(_ c: Case) throws {
        // The numeric-host case needs getaddrinfo's reading of "2130706433" as 127.0.0.1.
        var resolver = FakeResolver()
        resolver.answers["2130706433"] = SystemHostResolver().resolve("2130706433")
        let fixture = try ServiceFixture(.init(enabledPlatforms: c.enabled, allowPrivateEndpoints: c.allowPrivate), resolver: resolver)
        let error = serviceRefusal { _ = try fixture.service.setToken(c.request, caller: account(1).accountID) }
        #expect(error.flatMap { ErrorStatus.byCode[$0.code] } == c.status)  // what the HTTP door answers
        #expect(error?.code == c.code)
        #expect(error?.field == c.field)
        #expect(try fixture.store.registrations(ofAccount: account(1).accountID.string).isEmpty)
    }

    @Test(arguments: [
        ("https://push.example.net/wp/1", false), ("https://93.184.216.34/x", false),
        ("https://[2606:4700::1]/x", false), ("http://127.0.0.1:8080/x", true), ("https://[::1]/x", true),
        ("http://intranet.example/x", true),
    ])
    func acceptedEndpoints(url: String, allowPrivate: Bool) throws {
        let fixture = try ServiceFixture(.init(allowPrivateEndpoints: allowPrivate))
        let response = try fixture.service.setToken(Self.webpush(url), caller: account(1).accountID)
        #expect(response.registrationId == RegistrationID.make(platform: .webpush, appId: "default", environment: "", token: url))
        let stored = try fixture.store.registrations(ofAccount: account(1).accountID.string)
        #expect(stored.map(\.address.p256dh) == [validP256dh])
        #expect(stored.map(\.address.auth) == [validAuth])
    }

    @Test func apnsTokensAreNormalizedAndDefaulted() throws {
        let fixture = try ServiceFixture()
        let caller = account(1).accountID
        let upper = try fixture.service.setToken(.init(deviceId: "d", platform: .apns, token: "ABCDEF01"), caller: caller)
        let lower = try fixture.service.setToken(.init(deviceId: "d", platform: .apns, token: "abcdef01", environment: "production"), caller: caller)
        #expect(upper == lower)
        #expect(upper.registrationId == RegistrationID.make(platform: .apns, appId: "default", environment: "production", token: "abcdef01"))
        let dev = try fixture.service.setToken(.init(deviceId: "d2", platform: .apnsVoip, token: "abcdef01", environment: "development"), caller: caller)
        #expect(dev.registrationId == RegistrationID.make(platform: .apnsVoip, appId: "default", environment: "development", token: "abcdef01"))
        let list = try fixture.service.listTokens(caller: caller).registrations
        #expect(list.map(\.environment).sorted() == ["development", "production"])
        #expect(list.allSatisfy { $0.createdAt == 1_700_000_000 && $0.appId == "default" })
    }

    @Test func anAppIdMustNameAConfiguredAppWithThePlatform() throws {
        let fixture = try ServiceFixture(.init(enabledPlatforms: [.webpush], apps: ["chat": [.webpush, .android, .ios]]))
        let caller = account(1).accountID
        func refusal(_ request: SetTokenRequest) -> ServiceError.Refusal? {
            do { _ = try fixture.service.setToken(request, caller: caller) } catch { return error.refusal }
            return nil
        }
        let unknown = refusal(.init(deviceId: "d", platform: .android, token: "t", appId: "chat-beta"))
        #expect(unknown?.code == .appUnknown && unknown?.field == "appId")
        #expect(ErrorStatus.byCode[.appUnknown] == 400)
        let disabled = refusal(.init(deviceId: "d", platform: .apns, token: "abcd", appId: "chat"))
        #expect(disabled?.code == .platformDisabled && disabled?.field == "platform")
        #expect(refusal(.init(deviceId: "d", platform: .android, token: "t"))?.code == .platformDisabled, "default has no FCM")
        let chat = try fixture.service.setToken(.init(deviceId: "d", platform: .android, token: "t", appId: "chat"), caller: caller)
        #expect(chat.registrationId == RegistrationID.make(platform: .android, appId: "chat", environment: "", token: "t"))
        #expect(try fixture.service.listTokens(caller: caller).registrations.map(\.appId) == ["chat"])
    }

    @Test func aTestPushGoesToTheCallersOwnRegistrationWithinItsBudget() throws {
        let tested = Protected<[String]>([])
        var configuration = PushService.Configuration()
        configuration.testPush = { registration in
            tested.withLock { $0.append(registration.id) }
            return TestTokenResponse(registrationId: registration.id, app: "default", platform: registration.address.platform,
                                     outcome: .delivered, status: 200, latencyMs: 3)
        }
        let fixture = try ServiceFixture(configuration)
        let owner = account(1).accountID
        let id = try fixture.service.setToken(.init(deviceId: "d", platform: .android, token: "t"), caller: owner).registrationId
        func refusal(_ caller: AccountID) -> ServiceError.Refusal? {
            do { _ = try fixture.service.testToken(TestTokenRequest(registrationId: id), caller: caller) } catch { return error.refusal }
            return nil
        }
        let stranger = refusal(account(2).accountID)
        #expect(stranger?.code == .registrationNotFound && stranger?.field == "registrationId", "another account's id is unknown")
        for _ in 0..<RateLimitPolicy.testPushBurst { #expect(refusal(owner) == nil) }
        let limited = refusal(owner)
        #expect(limited?.code == .rateLimited && (limited?.retryAfter ?? 0) >= 1)
        #expect(tested.withLock { $0 } == Array(repeating: id, count: RateLimitPolicy.testPushBurst))
        let other = try fixture.service.setToken(.init(deviceId: "d2", platform: .android, token: "t2"), caller: owner).registrationId
        #expect(try fixture.service.testToken(TestTokenRequest(registrationId: other), caller: owner).outcome == .delivered,
                "the budget is per registration")
    }

    @Test func aTokenMovesToItsNewOwner() throws {
        let fixture = try ServiceFixture()
        let first = try fixture.service.setToken(.init(deviceId: "d", platform: .android, token: "shared"), caller: account(1).accountID)
        fixture.now.mutate { $0 += 10 }
        let second = try fixture.service.setToken(.init(deviceId: "e", platform: .android, token: "shared"), caller: account(2).accountID)
        #expect(first == second)
        #expect(try fixture.service.listTokens(caller: account(1).accountID).registrations.isEmpty)
        let moved = try fixture.service.listTokens(caller: account(2).accountID).registrations
        #expect(moved.map(\.deviceId) == ["e"])
        #expect(moved.map(\.createdAt) == [1_700_000_010])
    }

    @Test func revokeByDeviceOrTokenAlwaysSucceeds() throws {
        let fixture = try ServiceFixture()
        let me = account(1)
        try fixture.register(me, device: "phone", platform: .android)
        try fixture.register(me, device: "phone", platform: .apnsVoip, token: "ABCD")
        try fixture.register(me, device: "laptop", platform: .android)
        #expect(try fixture.service.revokeToken(.init(.token("ABCD", .apnsVoip)), caller: me.accountID) == SuccessResponse())
        #expect(try fixture.service.listTokens(caller: me.accountID).registrations.count == 2)
        #expect(try fixture.service.revokeToken(.init(.device("phone")), caller: me.accountID).success)
        #expect(try fixture.service.listTokens(caller: me.accountID).registrations.map(\.deviceId) == ["laptop"])
        // Someone else's token and unknown devices: still success, nothing removed.
        #expect(try fixture.service.revokeToken(.init(.device("laptop")), caller: account(2).accountID).success)
        #expect(try fixture.service.revokeToken(.init(.device("nothing")), caller: me.accountID).success)
        #expect(try fixture.service.listTokens(caller: me.accountID).registrations.count == 1)
    }
}
