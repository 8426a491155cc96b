import Foundation
import Testing
@testable import PushCrypto

@Suite struct JWTTests {
    let jwt: [String: Any]
    init() throws { jwt = try VectorFile.object("jwt.json") }

    /// Splits a compact JWS and decodes its header and claims as JSON text.
    static func parts(_ token: String) throws -> (header: String, claims: String, signature: [UInt8], input: [UInt8]) {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(pieces.count == 3)
        return (
            String(decoding: try Base64.decodeURL(pieces[0]), as: UTF8.self),
            String(decoding: try Base64.decodeURL(pieces[1]), as: UTF8.self),
            try Base64.decodeURL(pieces[2]), Array("\(pieces[0]).\(pieces[1])".utf8)
        )
    }

    @Test func verifiesAnES256TokenSignedByPyJWT() throws {
        let es256 = try jwt.object("es256")
        let token = try Self.parts(es256.string("token"))
        let publicKey = try P256.PublicKey(base64URL: es256.string("publicKey"))
        #expect(publicKey.isValidSignature(token.signature, for: token.input))
        #expect(!publicKey.isValidSignature(token.signature, for: token.input + [0x20]))
    }

    @Test func reproducesTheRS256AssertionExactlyFromPKCS8AndPKCS1() throws {
        let rs256 = try jwt.object("rs256")
        for pem in [try rs256.string("pkcs8PEM"), try rs256.string("pkcs1PEM")] {
            let signer = try RS256Signer(pemRepresentation: pem)
            #expect(signer.keySize == 2048)
            let assertion = GoogleServiceAccountAssertion(
                clientEmail: try rs256.string("clientEmail"), tokenURI: try rs256.string("tokenURI"), signer: signer)
            #expect(try assertion.token(issuedAt: rs256.int("issuedAt")) == rs256.string("token"))
        }
        #expect(throws: CryptoError.invalidPEM("not an RSA key")) {
            try RS256Signer(pemRepresentation: self.jwt.object("es256").string("pkcs8PEM"))
        }
    }

    @Test func googleAssertionWithKeyID() throws {
        let signer = try RS256Signer(pemRepresentation: jwt.object("rs256").string("pkcs8PEM"))
        let assertion = GoogleServiceAccountAssertion(
            clientEmail: "a@b.iam.gserviceaccount.com", tokenURI: "https://oauth2.googleapis.com/token", signer: signer,
            privateKeyID: "abc123")
        let token = try Self.parts(assertion.token(issuedAt: 1000))
        #expect(token.header == #"{"alg":"RS256","typ":"JWT","kid":"abc123"}"#)
        #expect(token.claims == #"{"iss":"a@b.iam.gserviceaccount.com","scope":"https://www.googleapis.com/auth/firebase.messaging","aud":"https://oauth2.googleapis.com/token","iat":1000,"exp":4600}"#)
        #expect(token.signature.count == 256)
    }

    @Test func vapidTokenAndAuthorizationHeader() throws {
        let es256 = try jwt.object("es256")
        let key = try VAPID.Key(pemRepresentation: es256.string("pkcs8PEM"))
        #expect(key.publicKeyBase64URL == (try es256.string("publicKey")))
        let value = try key.authorization(
            audience: "https://push.example.net", subject: "mailto:ops@example.com", expiresAt: 1_700_000_000)
        #expect(value.hasPrefix("vapid t="))
        #expect(value.hasSuffix(", k=" + key.publicKeyBase64URL))
        let token = String(value.dropFirst("vapid t=".count).prefix { $0 != "," })
        let parts = try Self.parts(token)
        #expect(parts.header == #"{"typ":"JWT","alg":"ES256"}"#)
        #expect(parts.claims == #"{"aud":"https://push.example.net","exp":1700000000,"sub":"mailto:ops@example.com"}"#)
        #expect(try P256.PublicKey(base64URL: key.publicKeyBase64URL).isValidSignature(parts.signature, for: parts.input))

        let anonymous = try Self.parts(key.token(audience: "http://localhost:8080", subject: nil, expiresAt: 5))
        #expect(anonymous.claims == #"{"aud":"http://localhost:8080","exp":5}"#)
    }

    @Test func vapidRefusesBadAudienceSubjectAndExpiry() throws {
        let key = try VAPID.Key.generate()
        for audience in ["push.example.net", "https://push.example.net/", "https://push.example.net/wpush/v2/x", "ftp://a", "https://"] {
            #expect(throws: CryptoError.self, "\(audience)") { try key.token(audience: audience, subject: nil, expiresAt: 10) }
        }
        #expect(throws: CryptoError.self) { try key.token(audience: "https://a.example", subject: "ops@example.com", expiresAt: 10) }
        #expect(throws: CryptoError.self) { try key.token(audience: "https://a.example", subject: nil, expiresAt: 0) }
        #expect(try !key.token(audience: "https://a.example", subject: "https://example.com/contact", expiresAt: 10).isEmpty)
    }

    @Test func audienceIsTheEndpointOrigin() throws {
        #expect(try VAPID.audience(forEndpoint: "https://fcm.googleapis.com/fcm/send/abc:def") == "https://fcm.googleapis.com")
        #expect(try VAPID.audience(forEndpoint: "HTTPS://Updates.Push.Services.Mozilla.com:443/wpush/v2/x")
            == "https://updates.push.services.mozilla.com")
        #expect(try VAPID.audience(forEndpoint: "http://127.0.0.1:8080/push?x=1") == "http://127.0.0.1:8080")
        #expect(try VAPID.audience(forEndpoint: "https://[::1]:443/p") == "https://[::1]")
        for bad in ["fcm.googleapis.com/x", "https:///x", "https://user@host/x", "mailto:a@b", ""] {
            #expect(throws: CryptoError.self, "\(bad)") { try VAPID.audience(forEndpoint: bad) }
        }
    }

    @Test func apnsProviderTokenFromAP8Key() throws {
        let es256 = try jwt.object("es256")
        let provider = APNsProviderToken(
            keyID: "ABC123DEFG", teamID: "DEF123GHIJ", signer: try ES256Signer(pemRepresentation: es256.string("pkcs8PEM")))
        let token = try Self.parts(provider.token(issuedAt: 1_700_000_000))
        #expect(token.header == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        #expect(token.claims == #"{"iss":"DEF123GHIJ","iat":1700000000}"#)
        #expect(try P256.PublicKey(base64URL: es256.string("publicKey")).isValidSignature(token.signature, for: token.input))
    }

    @Test func jsonStringsAreEscaped() throws {
        let text = String(decoding: JWT.json(["k\"": "a\\b\n\u{01}é/", "n": -3]), as: UTF8.self)
        #expect(text == #"{"k\"":"a\\b\n\u0001é/","n":-3}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(parsed?["k\""] as? String == "a\\b\n\u{01}é/")
    }
}
