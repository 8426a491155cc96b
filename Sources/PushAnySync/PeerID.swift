import PushCrypto

/// libp2p peer ids of Ed25519 keys (Spec/anysync-wire.md §3.4): base58btc of the identity multihash of
/// the protobuf `PublicKey{Type=Ed25519(1), Data=pub32}`; always `12D3KooW…`, 52 characters.
package enum PeerID {
    /// `08 01 12 20 ‖ pub32`: the libp2p public key protobuf.
    package static func publicKeyProtobuf(_ publicKey: [UInt8]) -> [UInt8] {
        [0x08, 0x01, 0x12, 0x20] + publicKey
    }

    package static func string(publicKey: [UInt8]) -> String {
        let proto = publicKeyProtobuf(publicKey)
        return Base58.encode([0x00, UInt8(proto.count)] + proto)
    }

    /// The Ed25519 key inside a libp2p `PublicKey` protobuf; throws for other key types.
    package static func ed25519Key(fromProtobuf bytes: [UInt8]) throws(AnySyncWireError) -> [UInt8] {
        let fields = try Protobuf.fields(bytes)
        guard try Protobuf.varint(fields, 1) == 1 else { throw .malformed("libp2p key type is not Ed25519") }
        guard let data = try Protobuf.bytes(fields, 2), data.count == 32 else {
            throw .malformed("libp2p Ed25519 key is not 32 bytes")
        }
        return data
    }
}
