import PushCrypto
@testable import PushNode

/// Keys and helpers of Spec/anysync-wire.md §14.
enum WireVectors {
    /// The reference server's example `peerKey` (seed ‖ public), also its sign key.
    static let serverKeyBase64 = "tfs8m4DwNMyPS9UScqizzxQnJGiHn6GA/z80IKe5tUrjcQ+ZxBQnq+xfAjEgI3pCeQdvHs1iNIByWvbfiHGZaQ=="
    static let serverPeerID = "12D3KooWR8Ci1XidFCCXoZppGrUmiy4D1Mjoux9xK6QoZrpbQC3J"
    static let clientPeerID = "12D3KooWHKcqHwfQrEbapSdHJ2GZEB6TACDSWnn9mekJtgcCUHNi"

    static var serverKey: Ed25519.KeyPair { AnySyncPeerKey.parse(serverKeyBase64)! }
    static var clientPeerKey: Ed25519.KeyPair { try! Ed25519.KeyPair(seed: SHA256.hash(Array("any-wire-vector client peer key".utf8))) }
    static var clientAccountKey: Ed25519.KeyPair { try! Ed25519.KeyPair(seed: SHA256.hash(Array("any-wire-vector client account key".utf8))) }
    static var spaceKey: Ed25519.KeyPair { try! Ed25519.KeyPair(seed: SHA256.hash(Array("any-wire-vector space push key".utf8))) }

    static func hex(_ text: String) -> [UInt8] {
        try! Hex.decode(text.filter { !$0.isWhitespace })
    }
}
