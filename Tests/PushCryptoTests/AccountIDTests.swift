import Testing
@testable import PushCrypto

@Suite struct AccountIDTests {
    @Test func vectorRoundTrips() throws {
        let id = try AccountID("ABCw4rFBR7qU2HGzHwnKLYo9mMRcjGhFK28gSy58RKc5feqz")
        #expect(try AccountID(publicKey: id.publicKey).string == id.string)
    }

    @Test func anyCompatAccount() throws {
        let key = try AccountKey(seed: Hex.decode("15cd54408e8094705de2ad2c19786121b18720bc766cbd363d06242a71e7c1e3"))
        #expect(Hex.encode(key.keyPair.publicKey) == "e2e01496118b06413df0f8032a81f36d5c27c63d26a506bcee38fae9cff69211")
        #expect(key.accountID.string == "AAmVumbaGtQWyLCesrsYB9NAaBfJUvRNY6ztF7J7UEU927Wy")
    }

    @Test func rejectsBadChecksumVersionAndBase58() throws {
        var raw = try Base58.decode("ABCw4rFBR7qU2HGzHwnKLYo9mMRcjGhFK28gSy58RKc5feqz")
        raw[34] ^= 1
        #expect(throws: CryptoError.invalidChecksum) { try AccountID(Base58.encode(raw)) }
        raw[34] ^= 1
        raw[0] = 0x5c
        #expect(throws: CryptoError.invalidVersionByte) { try AccountID(Base58.encode(raw)) }
        #expect(throws: CryptoError.self) { try AccountID("ABCw4rFBR7qU2HGzHwnKLYo9mMRcjGhFK28gSy58RKc5feq0") }
    }
}
