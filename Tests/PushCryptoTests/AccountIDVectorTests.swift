import Testing
@testable import PushCrypto

/// `Spec/vectors/account-id.json`.
@Suite struct AccountIDVectorTests {
    struct Valid: Decodable, Sendable, CustomTestStringConvertible {
        let name: String
        let seed: String?
        let publicKey, accountId: String
        var testDescription: String { name }
    }

    struct Invalid: Decodable, Sendable, CustomTestStringConvertible {
        let name, accountId, error: String
        var testDescription: String { name }
    }

    struct File: Decodable { let valid: [Valid]; let invalid: [Invalid] }

    static let file = try? VectorFile.load("account-id.json", as: File.self)

    @Test func fileLoads() {
        #expect((Self.file?.valid.count ?? 0) >= 2)
        #expect((Self.file?.invalid.count ?? 0) >= 3)
    }

    @Test(arguments: file?.valid ?? []) func valid(_ v: Valid) throws {
        let publicKey = try Hex.decode(v.publicKey)
        #expect(try AccountID(publicKey: publicKey).string == v.accountId)
        #expect(try AccountID(v.accountId).publicKey == publicKey)
        if let seed = v.seed {
            #expect(try AccountKey(seed: Hex.decode(seed)).accountID.string == v.accountId)
        }
    }

    @Test(arguments: file?.invalid ?? []) func invalid(_ v: Invalid) {
        #expect {
            try AccountID(v.accountId)
        } throws: { error in
            switch (v.error, error as? CryptoError) {
            case ("checksum", .invalidChecksum?), ("version", .invalidVersionByte?), ("encoding", .invalidEncoding?): true
            default: false
            }
        }
    }
}
