import COpenSSL
import PushCrypto
@testable import PushAnySync

/// Valid any-sync wire inputs built with the door's own encoders (as its tests build them).
enum AnySyncSeeds {
    static let client = try! Ed25519.KeyPair(seed: [UInt8](repeating: 2, count: 32))
    static let account = try! Ed25519.KeyPair(seed: [UInt8](repeating: 5, count: 32))
    static let space = try! Ed25519.KeyPair(seed: [UInt8](repeating: 6, count: 32))

    /// A client's Credentials, the Ack, and the two Proto offers.
    static func handshake() -> [[UInt8]] {
        let check = AnySyncTargets.check
        let payload = HandshakeCredentials.signedPeerIdsPayload(
            identity: HandshakeCredentials.identity(publicKey: account.publicKey),
            sign: account.sign(Array((AnySyncTargets.clientPeerID + check.ownPeerID).utf8)))
        let credentials = HandshakeCredentials(type: 1, payload: payload, version: 9, clientVersion: "any-sync:v0.13.1").frame()
        let ack = HandshakeAck(error: .null).frame()
        return [credentials.encoded() + ack.encoded(), HandshakeAck(error: .invalidCredentials).frame().encoded(),
                proto.encoded(), HandshakeFrame(kind: 3, payload: []).encoded()]
    }

    /// `Proto{proto: DRPC, encodings: [None, Snappy]}`.
    static let proto = HandshakeFrame(kind: 3, payload: [0x12, 0x02, 0x00, 0x01])

    /// A client certificate made as the door makes its own (DER).
    static func certificate() throws -> [[UInt8]] {
        let (cert, _) = try Libp2pCertificate.make(hostKey: client)
        let length = i2d_X509(cert.pointer, nil)
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            _ = i2d_X509(cert.pointer, &cursor)
        }
        let value = SignedKeyExtension.Value(publicKey: PeerID.publicKeyProtobuf(client.publicKey), signature: [UInt8](repeating: 7, count: 64))
        return [der, SignedKeyExtension.encode(value)]
    }

    /// The rpc bodies of the ten methods, valid and signed.
    static func bodies() -> [(rpc: String, body: [UInt8])] {
        var topic: [UInt8] = []
        Protobuf.appendBytes(1, space.publicKey, to: &topic)
        Protobuf.appendBytes(2, Array("chats".utf8), to: &topic)
        Protobuf.appendBytes(3, space.sign(Array("chats".utf8)), to: &topic)
        var topics: [UInt8] = []
        Protobuf.appendBytes(1, topic, to: &topics)
        var topicsRequest: [UInt8] = []
        Protobuf.appendBytes(1, topics, to: &topicsRequest)
        var message: [UInt8] = []
        Protobuf.appendBytes(1, Array(String(repeating: "a", count: 64).utf8), to: &message)
        Protobuf.appendBytes(2, [UInt8](repeating: 1, count: 40), to: &message)
        Protobuf.appendBytes(3, [UInt8](repeating: 2, count: 64), to: &message)
        var notify = topicsRequest
        Protobuf.appendBytes(2, message, to: &notify)
        Protobuf.appendBytes(3, Array("group".utf8), to: &notify)
        var token: [UInt8] = []
        Protobuf.appendVarint(1, 1, to: &token)
        Protobuf.appendBytes(2, Array("fcm-token".utf8), to: &token)
        var spaceRequest: [UInt8] = []
        Protobuf.appendBytes(1, space.publicKey, to: &spaceRequest)
        Protobuf.appendBytes(2, space.sign(Array(AnySyncRPCTarget.caller.string.utf8)), to: &spaceRequest)
        return [("SetToken", token), ("RevokeToken", []), ("CreateSpace", spaceRequest), ("RemoveSpace", spaceRequest),
                ("Subscriptions", []), ("Subscribe", topicsRequest), ("Unsubscribe", topicsRequest),
                ("SubscribeAll", topicsRequest), ("Notify", notify), ("NotifySilent", notify)]
    }

    /// One stream per rpc: Proto, then Invoke + Message on DRPC stream 1, then Close.
    static func streams() -> [[UInt8]] {
        bodies().map { call in
            proto.encoded()
                + DRPCFrame(kind: .invoke, stream: 1, message: 1, data: Array((PushRPC.prefix + call.rpc).utf8)).encoded()
                + DRPCFrame(kind: .message, stream: 1, message: 2, data: call.body).encoded()
                + DRPCFrame(kind: .closeSend, stream: 1, message: 3).encoded()
        }
    }

    /// A session: a ping, then each stream opened with SYN, carried in one Data frame, and closed with
    /// FIN; a WindowUpdate on the first; GoAway at the end.
    static func session() -> [UInt8] {
        var out = YamuxHeader(kind: .ping, flags: .syn, streamID: 0, length: 7).encoded()
        for (index, stream) in streams().enumerated() {
            let id = UInt32(2 * index + 1)
            out += YamuxHeader(kind: .data, flags: .syn, streamID: id, length: UInt32(stream.count)).encoded() + stream
            out += YamuxHeader(kind: .windowUpdate, flags: [], streamID: id, length: 1024).encoded()
            out += YamuxHeader(kind: .data, flags: .fin, streamID: id, length: 0).encoded()
        }
        return out + YamuxHeader(kind: .goAway, flags: [], streamID: 0, length: 0).encoded()
    }
}
