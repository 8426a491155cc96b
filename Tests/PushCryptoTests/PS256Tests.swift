import Foundation
import Testing
@testable import PushCrypto

/// The HarmonyOS service-account JWT against Spec/vectors/pushkit.json (written by PyJWT).
@Suite struct PS256Tests {
    @Test func harmonyTokenHasTheVectorsHeaderAndClaims() throws {
        let ps256 = try VectorFile.object("pushkit.json").object("ps256")
        let signer = try PS256Signer(pemRepresentation: ps256.string("pkcs8PEM"))
        #expect(signer.keySize == 2048 && signer.algorithm == "PS256")
        let account = HarmonyServiceAccountToken(keyID: try ps256.string("keyId"), subAccount: try ps256.string("subAccount"),
                                                 signer: signer)
        let token = try account.token(issuedAt: ps256.int("issuedAt"))
        let parts = try JWTTests.parts(token)
        #expect(parts.header == (try ps256.string("headerJSON")))
        #expect(parts.claims == (try ps256.string("claimsJSON")))
        #expect(parts.signature.count == 256)
        // PSS draws a fresh salt: two signatures of one input differ (PKCS#1 v1.5 would not).
        #expect(try account.token(issuedAt: ps256.int("issuedAt")) != token)
    }

    @Test func refusesAKeyThatIsNotRSA() throws {
        #expect(throws: CryptoError.invalidPEM("not an RSA key")) {
            try PS256Signer(pemRepresentation: VectorFile.object("jwt.json").object("es256").string("pkcs8PEM"))
        }
    }
}
