import CSodium

/// Ed25519 over libsodium: raw 32-byte public keys, 64-byte signatures.
public enum Ed25519 {
    public static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        Sodium.ensure()
        guard signature.count == 64, publicKey.count == 32 else { return false }
        return message.withUnsafeBufferPointer { m in
            crypto_sign_verify_detached(signature, m.baseAddress, UInt64(m.count), publicKey) == 0
        }
    }

    /// A signing key pair. The secret key is zeroed when the value goes away.
    public final class KeyPair: @unchecked Sendable {
        /// The 32-byte public key.
        public let publicKey: [UInt8]
        private var secretKey: [UInt8]  // libsodium form: seed32 ‖ pub32

        /// A fresh random key pair.
        public convenience init() {
            try! self.init(seed: SecureRandom.bytes(32))
        }

        /// The key pair whose Ed25519 seed (RFC 8032 private key) is `seed`.
        public init(seed: [UInt8]) throws {
            Sodium.ensure()
            guard seed.count == 32 else { throw CryptoError.invalidKeyLength(expected: 32, got: seed.count) }
            var pk = [UInt8](repeating: 0, count: 32)
            var sk = [UInt8](repeating: 0, count: 64)
            crypto_sign_seed_keypair(&pk, &sk, seed)
            publicKey = pk
            secretKey = sk
        }

        /// The 32-byte seed. Handle with care: it is the private key.
        public var seed: [UInt8] { Array(secretKey[0..<32]) }

        /// The 64-byte Go/libsodium form `seed ‖ public`.
        public var expandedSecretKey: [UInt8] { secretKey }

        public func sign(_ message: [UInt8]) -> [UInt8] {
            var sig = [UInt8](repeating: 0, count: 64)
            message.withUnsafeBufferPointer { m in
                _ = crypto_sign_detached(&sig, nil, m.baseAddress, UInt64(m.count), secretKey)
            }
            return sig
        }

        deinit { ConstantTime.wipe(&secretKey) }
    }
}

/// A chat account's identity key: signs messages and HTTP requests.
public struct AccountKey: Sendable {
    public let keyPair: Ed25519.KeyPair
    public let accountID: AccountID

    public init(seed: [UInt8]) throws {
        keyPair = try Ed25519.KeyPair(seed: seed)
        accountID = try AccountID(publicKey: keyPair.publicKey)
    }

    public static func generate() -> AccountKey { try! AccountKey(seed: SecureRandom.bytes(32)) }

    public func sign(_ message: [UInt8]) -> [UInt8] { keyPair.sign(message) }
}
