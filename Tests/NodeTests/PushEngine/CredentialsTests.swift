import Foundation
import HTTPClient
import PushCrypto
import Testing
@testable import PushDelivery
@testable import PushEngine

/// A token endpoint that counts exchanges and answers `token-N`, or fails while `failing`.
final class FakeTokenEndpoint: OAuthTokenEndpoint, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var assertions: [String] = []
    private var forms: [[(String, String)]] = []
    var failing = false
    var expiresIn: TimeInterval = 3600
    /// Widens the race window of the single-flight test (not a timing assertion).
    var pause: useconds_t = 0

    var exchanges: Int { lock.withLock { count } }
    var lastAssertion: String? { lock.withLock { assertions.last } }
    var lastForm: [(String, String)]? { lock.withLock { forms.last } }

    func exchange(form: [(String, String)], tokenURI: String) throws(OAuthExchangeError) -> OAuthAccessToken {
        if pause > 0 { usleep(pause) }
        lock.lock()
        defer { lock.unlock() }
        if failing { throw OAuthExchangeError(description: "down") }
        count += 1
        forms.append(form)
        if let assertion = form.first(where: { $0.0 == "assertion" })?.1 { assertions.append(assertion) }
        return OAuthAccessToken(value: "token-\(count)", expiresIn: expiresIn)
    }
}

func rs256Assertion() throws -> GoogleServiceAccountAssertion {
    let url = repositoryRoot.appendingPathComponent("Spec/vectors/jwt.json")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    let pem = (object["rs256"] as! [String: Any])["pkcs8PEM"] as! String
    return GoogleServiceAccountAssertion(clientEmail: "pushnode@example.iam.gserviceaccount.com",
                                         tokenURI: "https://oauth2.example/token", signer: try RS256Signer(pemRepresentation: pem))
}

/// The claims of a compact JWT.
func jwtClaims(_ token: String) throws -> [String: Any] {
    let part = token.split(separator: ".")[1]
    return try JSONSerialization.jsonObject(with: Data(Base64.decodeURL(String(part)))) as! [String: Any]
}

@Suite struct FCMAccessTokensTests {
    @Test func mintsOnceAndReusesUntilTheRefreshMargin() throws {
        let endpoint = FakeTokenEndpoint()
        let tokens = FCMAccessTokens.make(assertion: try rs256Assertion(), endpoint: endpoint)
        #expect(tokens.current() == nil)
        #expect(tokens.prepare(now: t0))
        #expect(tokens.current() == "token-1" && tokens.generation == 1)
        let claims = try jwtClaims(endpoint.lastAssertion!)
        #expect(claims["iat"] as? Int == Int(t0.timeIntervalSince1970) && claims["aud"] as? String == "https://oauth2.example/token")
        #expect(tokens.prepare(now: t0.addingTimeInterval(3600 - 301)))
        #expect(endpoint.exchanges == 1)
        #expect(tokens.prepare(now: t0.addingTimeInterval(3600 - 299)))
        #expect(endpoint.exchanges == 2 && tokens.current() == "token-2" && tokens.generation == 2)
    }

    @Test func aFailedRenewalKeepsAStillValidToken() {
        let endpoint = FakeTokenEndpoint()
        let tokens = FCMAccessTokens.make(assertion: try! rs256Assertion(), endpoint: endpoint)
        endpoint.failing = true
        #expect(!tokens.prepare(now: t0))
        #expect(tokens.lastFailure == "down")  // the endpoint's words, for /readyz and check --live
        endpoint.failing = false
        #expect(tokens.prepare(now: t0))
        #expect(tokens.lastFailure == nil)
        endpoint.failing = true
        #expect(tokens.prepare(now: t0.addingTimeInterval(3500)))  // renewal failed, token-1 valid 100 s more
        #expect(!tokens.prepare(now: t0.addingTimeInterval(3600)))
    }

    @Test func aRefusalRenewsOnceThenGivesUp() throws {
        let endpoint = FakeTokenEndpoint()
        let tokens = FCMAccessTokens.make(assertion: try rs256Assertion(), endpoint: endpoint)
        #expect(tokens.prepare(now: t0))
        #expect(tokens.refused(generation: 1, now: t0) == .renewed)
        #expect(tokens.current() == "token-2")
        // Answers to requests sent with token-1 arriving late do not renew again.
        #expect(tokens.refused(generation: 1, now: t0) == .alreadyRenewed)
        // The renewed token refused too: renewing again will not help.
        #expect(tokens.refused(generation: 2, now: t0) == .gaveUp)
        #expect(endpoint.exchanges == 2)
        // Once token-2 has worked, its refusal (a revocation) is worth one renewal again.
        tokens.accepted(generation: 2)
        #expect(tokens.refused(generation: 2, now: t0) == .renewed)
        #expect(tokens.refused(generation: 3, now: t0) == .gaveUp)
    }

    @Test func concurrentCallersShareOneMint() throws {
        let endpoint = FakeTokenEndpoint()
        endpoint.pause = 20_000
        let tokens = FCMAccessTokens.make(assertion: try rs256Assertion(), endpoint: endpoint)
        let results = Box([Bool]())
        concurrently(8) { _ in
            let ok = tokens.prepare(now: t0)
            results.mutate { $0.append(ok) }
        }
        #expect(results.current == Array(repeating: true, count: 8))
        #expect(endpoint.exchanges == 1)
    }

    @Test func tokenAnswerParsingAndFormEncoding() throws {
        let answer = try HTTPOAuthTokenEndpoint.parse(status: 200, body: Array(#"{"access_token":"ya29.x","expires_in":3599,"token_type":"Bearer"}"#.utf8))
        #expect(answer == OAuthAccessToken(value: "ya29.x", expiresIn: 3599))
        #expect(throws: OAuthExchangeError(description: "token endpoint: HTTP 400 invalid_grant")) {
            try HTTPOAuthTokenEndpoint.parse(status: 400, body: Array(#"{"error":"invalid_grant"}"#.utf8))
        }
        #expect(throws: OAuthExchangeError(description: "token endpoint: HTTP 400 invalid_grant: Invalid JWT Signature.")) {
            try HTTPOAuthTokenEndpoint.parse(status: 400, body: Array(#"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#.utf8))
        }
        #expect(HTTPOAuthTokenEndpoint.formEncode("urn:ietf:params:oauth:grant-type:jwt-bearer")
                == "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer")
        #expect(HTTPOAuthTokenEndpoint.formEncode("a.b-c_d~e+f/g=") == "a.b-c_d~e%2Bf%2Fg%3D")
    }

    @Test func serviceAccountFile() throws {
        let account = try ServiceAccount(json: Array(#"{"client_email":"a@b","private_key":"k","project_id":"p1","token_uri":"https://t/token"}"#.utf8))
        #expect(account.projectId == "p1" && account.tokenURI == "https://t/token" && account.privateKeyID == nil)
        let defaulted = try ServiceAccount(json: Array(#"{"client_email":"a@b","private_key":"k","project_id":"p1"}"#.utf8))
        #expect(defaulted.tokenURI == ServiceAccount.defaultTokenURI)
        #expect(throws: ServiceAccount.Invalid.self) { try ServiceAccount(json: Array(#"{"client_email":"a@b"}"#.utf8)) }
    }
}

@Suite struct APNsProviderTokensTests {
    private func tokens() throws -> SelfSignedTokens {
        APNsProviderTokens.make(signer: APNsProviderToken(keyID: "KEYID12345", teamID: "TEAMID1234",
                                                          signer: ES256Signer(key: try P256.PrivateKey.generate())))
    }

    @Test func reusedThenRotatedAtFiftyMinutes() throws {
        let tokens = try tokens()
        #expect(tokens.prepare(now: t0))
        let first = tokens.current()!
        #expect(try jwtClaims(first)["iat"] as? Int == Int(t0.timeIntervalSince1970))
        #expect(tokens.prepare(now: t0.addingTimeInterval(49 * 60)) && tokens.current() == first)
        #expect(tokens.prepare(now: t0.addingTimeInterval(50 * 60)) && tokens.current() != first)
        #expect(tokens.generation == 2)
    }

    @Test func aRefusalRenewsAtOnceButOnlyOnce() throws {
        let tokens = try tokens()
        #expect(tokens.prepare(now: t0))
        // Within 20 minutes only a refusal mints.
        #expect(tokens.refused(generation: 1, now: t0.addingTimeInterval(60)) == .renewed)
        #expect(tokens.generation == 2)
        #expect(tokens.refused(generation: 1, now: t0.addingTimeInterval(61)) == .alreadyRenewed)
        #expect(tokens.refused(generation: 2, now: t0.addingTimeInterval(62)) == .gaveUp)
        #expect(tokens.prepare(now: t0.addingTimeInterval(120)) && tokens.generation == 2)
        // The next regular rotation may be refused and renewed again.
        #expect(tokens.prepare(now: t0.addingTimeInterval(60 + 50 * 60)) && tokens.generation == 3)
        #expect(tokens.refused(generation: 3, now: t0.addingTimeInterval(60 + 50 * 60)) == .renewed)
    }
}

@Suite struct WebPushCredentialTests {
    @Test func vapidValueCachedPerOriginForTwelveHours() throws {
        let key = try VAPID.Key.generate()
        let authorizer = CachingVAPIDAuthorizer(key: key, subject: "mailto:ops@example.org")
        let a = try authorizer.authorization(forOrigin: "https://push.example.net", now: t0)
        #expect(try authorizer.authorization(forOrigin: "https://push.example.net", now: t0.addingTimeInterval(11 * 3600)) == a)
        let b = try authorizer.authorization(forOrigin: "https://other.example", now: t0)
        #expect(b != a && authorizer.signatures == 2)
        let renewed = try authorizer.authorization(forOrigin: "https://push.example.net", now: t0.addingTimeInterval(12 * 3600))
        #expect(renewed != a && authorizer.signatures == 3)

        #expect(a.hasPrefix("vapid t=") && a.hasSuffix(", k=\(key.publicKeyBase64URL)"))
        let jwt = String(a.dropFirst("vapid t=".count).prefix { $0 != "," })
        let claims = try jwtClaims(jwt)
        #expect(claims["aud"] as? String == "https://push.example.net" && claims["sub"] as? String == "mailto:ops@example.org")
        let exp = claims["exp"] as! Int
        #expect(exp > Int(t0.timeIntervalSince1970) + 12 * 3600 && exp <= Int(t0.timeIntervalSince1970) + 24 * 3600)
    }

    @Test func encryptorOpensWithTheSubscriberKeyAndCachesParsedKeys() throws {
        let subscriber = try P256.PrivateKey.generate()
        let p256dh = try subscriber.publicKeyRawRepresentation
        let auth = SecureRandom.bytes(16)
        let encryptor = CachingWebPushEncryptor()
        let one = try encryptor.encrypt(Array("hello".utf8), p256dh: p256dh, auth: auth)
        let two = try encryptor.encrypt(Array("hello".utf8), p256dh: p256dh, auth: auth)
        #expect(one != two)  // a fresh key and salt per message
        #expect(try WebPush.decrypt(two, privateKey: subscriber, auth: auth) == Array("hello".utf8))
        #expect(throws: (any Error).self) { try encryptor.encrypt([1], p256dh: [0x04] + [UInt8](repeating: 0, count: 64), auth: auth) }
    }

    @Test func sendTimeAddressGuard() {
        let check = RoutableHostCheck(resolver: .warmed(FakeResolver(), ["push.example.net", "intranet.example", "v6-ula.example",
                                                                         "unknown.example", "flaky.example"]))
        #expect(check.isRoutable("push.example.net"))
        #expect(!check.isRoutable("intranet.example"))
        #expect(!check.isRoutable("v6-ula.example"))
        #expect(!check.isRoutable("unknown.example"))
        #expect(check.isRoutable("flaky.example"))  // undecided: the client's connect-time check decides
        #expect(!check.isRoutable("127.0.0.1") && !check.isRoutable("::1") && check.isRoutable("93.184.216.34"))
    }

    @Test func transportBindingMapsEveryFailure() {
        #expect(TransportBinding.failure(.forbiddenAddress).outcome == .rejected(DeliveryReason(.notRoutable, detail: "transport.forbidden_address")))
        #expect(TransportBinding.failure(.timedOut) == .timedOut)
        #expect(TransportBinding.failure(.invalidHeader) == .invalidURL)
        #expect(TransportBinding.failure(.connectionReset).outcome == .transient(DeliveryReason(.transportConnectionReset), retryAfter: nil))
        let request = TransportBinding.clientRequest(OutboundRequest(url: "https://x/y", headers: [("a", "b")], body: [1]),
                                                     timeout: .seconds(3))
        #expect(request.method == "POST" && request.url == "https://x/y" && request.body == [1] && request.timeout == .seconds(3))
    }
}

@Suite struct PushKitCredentialTests {
    @Test func huaweiTokenIsBoughtWithClientCredentialsAndCached() throws {
        let endpoint = FakeTokenEndpoint()
        let tokens = HuaweiAccessTokens.make(clientID: "10086", clientSecret: "s3cr3t", tokenURL: "https://oauth.test/token",
                                             endpoint: endpoint)
        #expect(tokens.prepare(now: t0) && tokens.current() == "token-1")
        let form = try #require(endpoint.lastForm)
        #expect(form.map(\.0) == ["grant_type", "client_id", "client_secret"])
        #expect(form.map(\.1) == ["client_credentials", "10086", "s3cr3t"])
        #expect(tokens.prepare(now: t0.addingTimeInterval(3600 - 301)) && endpoint.exchanges == 1)
        #expect(tokens.prepare(now: t0.addingTimeInterval(3600 - 300)) && endpoint.exchanges == 2)
        #expect(tokens.refused(generation: 2, now: t0.addingTimeInterval(3500)) == .renewed)
        #expect(tokens.refused(generation: 3, now: t0.addingTimeInterval(3501)) == .gaveUp)
        endpoint.failing = true
        #expect(!HuaweiAccessTokens.make(clientID: "1", clientSecret: "2", tokenURL: "u", endpoint: endpoint).prepare(now: t0))
    }

    @Test func harmonyJWTIsReusedForFiftyMinutes() throws {
        let vector = try JSONSerialization.jsonObject(
            with: Data(contentsOf: repositoryRoot.appendingPathComponent("Spec/vectors/pushkit.json"))) as! [String: Any]
        let ps256 = vector["ps256"] as! [String: Any]
        let tokens = HarmonyServiceTokens.make(signer: HarmonyServiceAccountToken(
            keyID: "kid", subAccount: "1234", signer: try PS256Signer(pemRepresentation: ps256["pkcs8PEM"] as! String)))
        #expect(tokens.prepare(now: t0))
        let first = try #require(tokens.current())
        let claims = try jwtClaims(first)
        #expect(claims["iss"] as? String == "1234" && claims["exp"] as? Int == Int(t0.timeIntervalSince1970) + 3600)
        #expect(tokens.prepare(now: t0.addingTimeInterval(49 * 60)) && tokens.current() == first)
        #expect(tokens.prepare(now: t0.addingTimeInterval(50 * 60)) && tokens.current() != first)
    }

    @Test func harmonyServiceAccountFile() throws {
        let account = try HarmonyServiceAccount(json: Array(#"{"project_id":"p","key_id":"k","sub_account":"s","private_key":"x"}"#.utf8))
        #expect(account.keyID == "k" && account.subAccount == "s" && account.projectId == "p")
        #expect(throws: HarmonyServiceAccount.Invalid.self) { try HarmonyServiceAccount(json: Array(#"{"key_id":"k"}"#.utf8)) }
    }
}
