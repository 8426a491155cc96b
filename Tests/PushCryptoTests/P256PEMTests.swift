import Testing
@testable import PushCrypto

@Suite struct P256PEMTests {
    let es256: [String: Any]
    init() throws { es256 = try VectorFile.object("jwt.json").object("es256") }

    @Test func readsPKCS8AndSEC1() throws {
        let raw = try es256.bytes("privateKeyRaw")
        #expect(try P256.PrivateKey(pemRepresentation: es256.string("pkcs8PEM")).rawRepresentation == raw)
        let sec1 = try P256.PrivateKey(pemRepresentation: es256.string("sec1PEM"))
        #expect(try sec1.rawRepresentation == raw)
        #expect(try sec1.publicKey.base64URLRepresentation == es256.string("publicKey"))
    }

    @Test func writesPKCS8ThatReadsBack() throws {
        let key = try P256.PrivateKey.generate()
        let pem = try key.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(try P256.PrivateKey(pemRepresentation: pem).rawRepresentation == key.rawRepresentation)
        #expect(try P256.PrivateKey(pemRepresentation: es256.string("pkcs8PEM")).pemRepresentation
            == es256.string("pkcs8PEM"))
    }

    @Test func refusesOtherKeysEncryptedKeysAndGarbage() throws {
        let rsa = try VectorFile.object("jwt.json").object("rs256").string("pkcs8PEM")
        #expect(throws: CryptoError.invalidPEM("not an EC key")) { try P256.PrivateKey(pemRepresentation: rsa) }
        #expect(throws: CryptoError.invalidPEM("EC key is not P-256")) { try P256.PrivateKey(pemRepresentation: Self.p384) }
        #expect(throws: CryptoError.self) { try P256.PrivateKey(pemRepresentation: Self.encrypted) }
        #expect(throws: CryptoError.self) { try P256.PrivateKey(pemRepresentation: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") }
        #expect(throws: CryptoError.self) { try P256.PrivateKey(pemRepresentation: "") }
    }

    /// The RFC 8291 as_private key, encrypted with the passphrase "pw": must fail, never prompt.
    static let encrypted = """
        -----BEGIN ENCRYPTED PRIVATE KEY-----
        MIH0MF8GCSqGSIb3DQEFDTBSMDEGCSqGSIb3DQEFDDAkBBDPufpKgE0PjpHmqeAL
        7o+ZAgIIADAMBggqhkiG9w0CCQUAMB0GCWCGSAFlAwQBKgQQmvmy0L7vt6N/opSW
        U26YgASBkG9D2FeKv8GnebY/Rsb9lxJt55cFgmPjt7YI1xxoNE3qL92G1McZm+iW
        OkbGfJETA+bRdXQgPE9YsWnZzLnawrxShFWiwe5DEvgLllnWoIQ7Eq2ZtD7vChtu
        HWmF0KN/W9jK5vO3ZOe9rhKyD60SOsRVnXN24xycFrY/1np+iZqK9ZZB7S7AMKGo
        Y5L4pZ6clQ==
        -----END ENCRYPTED PRIVATE KEY-----

        """

    /// A throwaway P-384 key.
    static let p384 = """
        -----BEGIN PRIVATE KEY-----
        MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDDVCcWiEgGIB86rliJu
        jIYCIae+3HPl95WjdqkAiLDKlFjdK8cZTgpJsvuAhpNDnIyhZANiAARz2FtukfqJ
        QxPcamXjr9E68PenRrPBHgr5rLENYbwsKgOhLNI7UeOyNSDQy11difBQQ68ssYbZ
        yx9t2vRj8JOn3SOTg3ACv8XWbttsI2/sevUumeS+jwHtZllHdp1GRHI=
        -----END PRIVATE KEY-----

        """
}
