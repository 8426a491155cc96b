import COpenSSL

/// NIST P-256 (secp256r1) on OpenSSL 3: ECDH for Web Push and ECDSA for ES256 JWTs.
///
/// Keys are values (`struct`) over a shared, immutable `EVP_PKEY`. Public keys are always
/// checked to be on the curve when made, so later operations skip that check.
/// - SeeAlso: SEC 1 v2 §2.3.3 (point encoding), RFC 5915 (SEC1 private keys), RFC 5208 (PKCS#8).
public enum P256 {
    /// Length of the uncompressed point encoding `0x04 ‖ x(32) ‖ y(32)`.
    public static let publicKeySize = 65
    /// Length of a private scalar and of an ECDH shared secret.
    public static let scalarSize = 32
    /// Length of a raw `r ‖ s` ECDSA signature.
    public static let signatureSize = 64
}

extension P256 {
    /// A P-256 private key. Its memory is cleared when the last copy goes away.
    public struct PrivateKey: Sendable {
        let key: EVPKey

        init(key: EVPKey) { self.key = key }

        /// A fresh random key.
        public static func generate() throws -> PrivateKey {
            let workspace = try P256Workspace.current
            var pkey: OpaquePointer? = nil
            try OpenSSL.check(EVP_PKEY_generate(workspace.keyGeneration.pointer, &pkey), "EVP_PKEY_generate")
            return PrivateKey(key: EVPKey(taking: try OpenSSL.check(pkey, "EVP_PKEY_generate")))
        }

        /// The key whose secret scalar is the 32-byte big-endian `rawRepresentation`
        /// (the form Web Push libraries use for VAPID private keys).
        /// Throws unless the scalar is in `1 ..< n`.
        public init(rawRepresentation raw: [UInt8]) throws {
            key = try P256Import.privateKey(scalar: raw)
        }

        /// The key from its base64url raw scalar.
        public init(base64URL text: String) throws {
            var raw = try Base64.decodeURL(text)
            defer { ConstantTime.wipe(&raw) }
            try self.init(rawRepresentation: raw)
        }

        /// The 32-byte big-endian secret scalar. Handle with care.
        public var rawRepresentation: [UInt8] {
            get throws {
                var bignum: OpaquePointer? = nil
                try OpenSSL.check(
                    EVP_PKEY_get_bn_param(key.pointer, OpenSSL.cString(OpenSSL.Name.privateKey), &bignum),
                    "EVP_PKEY_get_bn_param")
                defer { BN_clear_free(bignum) }
                var out = [UInt8](repeating: 0, count: P256.scalarSize)
                guard BN_bn2binpad(bignum, &out, Int32(P256.scalarSize)) == Int32(P256.scalarSize) else {
                    throw OpenSSL.failure("BN_bn2binpad")
                }
                return out
            }
        }

        /// The raw scalar in base64url. Handle with care.
        public var base64URLRepresentation: String {
            get throws {
                var raw = try rawRepresentation
                defer { ConstantTime.wipe(&raw) }
                return Base64.encodeURL(raw)
            }
        }

        /// The 65-byte uncompressed encoding of the public key.
        public var publicKeyRawRepresentation: [UInt8] {
            get throws { try P256Import.uncompressedPublicKey(of: key) }
        }

        /// The public half.
        public var publicKey: PublicKey {
            get throws { PublicKey(key: key, rawRepresentation: try publicKeyRawRepresentation) }
        }

        /// The ECDH shared secret with `peer`: the 32-byte x coordinate of `d · Q`.
        public func sharedSecret(with peer: PublicKey) throws -> [UInt8] {
            let context = try PKeyContext(key: key)
            try OpenSSL.check(EVP_PKEY_derive_init(context.pointer), "EVP_PKEY_derive_init")
            // The peer was checked to be on the curve when it was made: skip the second check.
            try OpenSSL.check(EVP_PKEY_derive_set_peer_ex(context.pointer, peer.key.pointer, 0), "EVP_PKEY_derive_set_peer")
            var secret = [UInt8](repeating: 0, count: P256.scalarSize)
            var length = secret.count
            try OpenSSL.check(EVP_PKEY_derive(context.pointer, &secret, &length), "EVP_PKEY_derive")
            guard length == P256.scalarSize else { throw OpenSSL.failure("EVP_PKEY_derive length") }
            return secret
        }
    }
}

extension P256 {
    /// A P-256 public key, known to be a point on the curve.
    public struct PublicKey: Sendable, Equatable {
        let key: EVPKey
        /// The 65-byte uncompressed point `0x04 ‖ x ‖ y`.
        public let rawRepresentation: [UInt8]

        init(key: EVPKey, rawRepresentation: [UInt8]) {
            self.key = key
            self.rawRepresentation = rawRepresentation
        }

        /// The key from its 65-byte uncompressed encoding. Compressed (33-byte) and bare
        /// 64-byte `x ‖ y` forms are refused with `invalidKeyLength`; a wrong prefix or a
        /// point not on the curve with `invalidPoint`.
        public init(rawRepresentation raw: [UInt8]) throws {
            guard raw.count == P256.publicKeySize else {
                throw CryptoError.invalidKeyLength(expected: P256.publicKeySize, got: raw.count)
            }
            guard raw[0] == 0x04 else { throw CryptoError.invalidPoint }
            key = try P256Import.publicKey(uncompressed: raw)
            rawRepresentation = raw
        }

        /// The key from base64url of its uncompressed encoding (a subscription's `p256dh`,
        /// a VAPID `k=`).
        public init(base64URL text: String) throws {
            try self.init(rawRepresentation: try Base64.decodeURL(text))
        }

        public var base64URLRepresentation: String { Base64.encodeURL(rawRepresentation) }

        public static func == (a: PublicKey, b: PublicKey) -> Bool { a.rawRepresentation == b.rawRepresentation }
    }
}
