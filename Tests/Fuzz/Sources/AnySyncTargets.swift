import COpenSSL
import Foundation
import PushCrypto
@testable import PushAnySync

/// The any-sync door's parsers one by one (Spec/anysync-wire.md): handshake frames and the
/// Credentials inside TLS, the client certificate's libp2p extension, DRPC on one stream, and
/// every protobuf message of `pushproto`.
enum AnySyncTargets {
    static let nodeKey = try! Ed25519.KeyPair(seed: [UInt8](repeating: 1, count: 32))
    static let check = CredentialsCheck(ownPeerID: PeerID.string(publicKey: nodeKey.publicKey), versions: 5...14)
    static let clientPeerID = PeerID.string(publicKey: try! Ed25519.KeyPair(seed: [UInt8](repeating: 2, count: 32)).publicKey)

    /// Handshake frames from the front of the input, as the connection reads them: Credentials
    /// through the reference's checks, Ack, and the per-stream Proto answer.
    static func handshake(_ bytes: [UInt8]) {
        var buffer = bytes
        while let (frame, consumed) = try? HandshakeFrame.parse(buffer) {
            FuzzCheck.expect(consumed > 0 && consumed <= buffer.count, "handshake frame consumed \(consumed) of \(buffer.count)")
            buffer.removeFirst(consumed)
            if let credentials = try? HandshakeCredentials.decode(frame.payload) {
                _ = check.check(credentials, remotePeerID: clientPeerID)
                FuzzCheck.expect((try? HandshakeCredentials.decode(credentials.frame().payload)) == credentials,
                                 "Credentials do not round-trip")
            }
            _ = try? HandshakeAck.decode(frame.payload)
            _ = try? ProtoHandshake.answer(to: frame)
        }
    }

    /// A client certificate (DER) through OpenSSL's parser and then the libp2p checks; the
    /// extension bytes alone through `SignedKeyExtension` and the key protobuf.
    static func certificate(_ bytes: [UInt8]) {
        if let value = try? SignedKeyExtension.decode(bytes) {
            FuzzCheck.expect(SignedKeyExtension.encode(value) == bytes, "SignedKey DER does not re-encode to itself")
            _ = try? PeerID.ed25519Key(fromProtobuf: value.publicKey)
        }
        bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let cert = d2i_X509(nil, &cursor, buffer.count) else { return }
            defer { X509_free(cert) }
            _ = try? Libp2pCertificate.verifiedPeerID(of: cert)
        }
    }

    /// One yamux stream's bytes (Proto handshake, then DRPC frames) through
    /// `DRPCServerConnection`, cut into pieces of the first byte's size; calls answered by a fixed
    /// reply so only the stream layer is measured.
    static func drpc(_ bytes: [UInt8]) {
        let (selector, rest) = bytes.selectorAndRest
        let piece = max(1, Int(selector))
        var connection = DRPCServerConnection(maxMessageBytes: 64 * 1024)
        var offset = 0
        while offset < rest.count {
            let end = min(rest.count, offset + piece)
            do {
                let result = try connection.receive(Array(rest[offset..<end])) { rpc, body in
                    .message(Array(rpc.utf8.prefix(8)) + body.prefix(8))
                }
                if result.close { return }
            } catch {
                return // the stream is reset: the expected answer to garbage
            }
            offset = end
        }
    }

    /// Every `pushproto` and handshake message decoder on the same bytes; what decodes must
    /// re-encode to a message that decodes to the same value.
    static func protobuf(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count, (try? Varint.read(bytes[...], at: &offset)) != nil {}
        if let fields = try? Protobuf.fields(bytes) {
            for number in Set(fields.map(\.number)) {
                _ = try? Protobuf.varint(fields, number)
                _ = try? Protobuf.repeatedVarints(fields, number)
                _ = try? Protobuf.repeatedBytes(fields, number)
                _ = try? Protobuf.string(fields, number)
            }
        }
        _ = try? PushWire.setToken(bytes)
        _ = try? PushWire.space(bytes)
        _ = try? PushWire.notify(bytes)
        if let topics = try? PushWire.topicsRequest(bytes) {
            let encoded = PushWire.subscriptionsResponse(topics.map { ($0.spaceKey, $0.topic) })
            let again = try? PushWire.topicsRequest(encoded)
            FuzzCheck.expect(again?.map(\.topic) == topics.map(\.topic) && again?.map(\.spaceKey) == topics.map(\.spaceKey),
                             "Topics do not round-trip")
        }
        _ = CredentialsCheck.accountKey(fromIdentity: bytes)
        _ = try? PeerID.ed25519Key(fromProtobuf: bytes)
    }
}
