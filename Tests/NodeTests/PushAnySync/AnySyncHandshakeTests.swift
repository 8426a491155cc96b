import PushCrypto
import Testing
@testable import PushAnySync
@testable import PushNode

@Suite struct AnySyncHandshakeTests {
    @Test func peerIDsMatchThePublishedValues() throws {
        #expect(Hex.encode(WireVectors.serverKey.publicKey) == "e3710f99c41427abec5f023120237a4279076f1ecd623480725af6df88719969")
        #expect(PeerID.string(publicKey: WireVectors.serverKey.publicKey) == WireVectors.serverPeerID)
        #expect(PeerID.string(publicKey: WireVectors.clientPeerKey.publicKey) == WireVectors.clientPeerID)
        // libp2p spec vector 1: the host key inside the certificate extension.
        let libp2pKey = WireVectors.hex("a77f1d92fedb59dddaea5a1c4abd1ac2fbde7d7b879ed364501809923d7c11b9")
        #expect(PeerID.string(publicKey: libp2pKey) == "12D3KooWM6CgA9iBFZmcYAHA6A2qvbAxqfkmrYiRQuz3XEsk4Ksv")
        #expect(try AccountID(publicKey: WireVectors.clientAccountKey.publicKey).string == "AAD82Pzo9qyLCtj94Kqo24mHQj1hDS5ynYf5UvWL4EfrdXVk")
    }

    static let clientFrame = WireVectors.hex("""
        01 93000000 0801 1266 0a22 1220 ca2e8db497281bacbfe08eaf4e898e64957e050870045d798acebe49c631d69f
        1240 e60e998bc6925f7e3d012e3db4fbbdb949265e276232183229a429f7561a14ad3087a6c7c58bead70ba98bf9de0ec1e0747868139ce6b2d93d2590abbc62a406
        1808 2225 766563746f722f6d6964646c653a76302e302e302f616e792d73796e633a76302e31312e36
        """)

    @Test func theClientCredentialsOfTheVectorAreAccepted() throws {
        let (frame, consumed) = try #require(try HandshakeFrame.parse(Self.clientFrame))
        #expect(consumed == Self.clientFrame.count && frame.kind == 1)
        let credentials = try HandshakeCredentials.decode(frame.payload)
        #expect(credentials.version == 8 && credentials.clientVersion == "vector/middle:v0.0.0/any-sync:v0.11.6")
        let check = CredentialsCheck(ownPeerID: WireVectors.serverPeerID, versions: 5...14)
        let account = try AccountID(publicKey: WireVectors.clientAccountKey.publicKey)
        #expect(check.check(credentials, remotePeerID: WireVectors.clientPeerID) == .accepted(account: account, version: 8))
        // The same bytes rebuilt by the encoder.
        let sign = WireVectors.clientAccountKey.sign(Array((WireVectors.clientPeerID + WireVectors.serverPeerID).utf8))
        let rebuilt = HandshakeCredentials(
            type: 1, payload: HandshakeCredentials.signedPeerIdsPayload(
                identity: HandshakeCredentials.identity(publicKey: WireVectors.clientAccountKey.publicKey), sign: sign),
            version: 8, clientVersion: "vector/middle:v0.0.0/any-sync:v0.11.6")
        #expect(rebuilt.frame().encoded() == Self.clientFrame)
    }

    @Test func refusalsFollowTheReferenceOrder() throws {
        let credentials = try HandshakeCredentials.decode(Array(Self.clientFrame.dropFirst(5)))
        let narrow = CredentialsCheck(ownPeerID: WireVectors.serverPeerID, versions: 12...14)
        #expect(narrow.check(credentials, remotePeerID: WireVectors.clientPeerID) == .refused(.incompatibleVersion))
        let check = CredentialsCheck(ownPeerID: WireVectors.serverPeerID, versions: 5...14)
        // Signed for another server peer id.
        #expect(check.check(credentials, remotePeerID: WireVectors.serverPeerID) == .refused(.invalidCredentials))
        var skip = credentials
        skip.type = 0
        #expect(check.check(skip, remotePeerID: WireVectors.clientPeerID) == .refused(.skipVerifyNotAllowed))
        var garbage = credentials
        garbage.payload = [0x0a, 0x05, 0x01]
        #expect(check.check(garbage, remotePeerID: WireVectors.clientPeerID) == .closeSilently)
        var badIdentity = credentials
        badIdentity.payload = HandshakeCredentials.signedPeerIdsPayload(identity: [0x08, 0x01, 0x12, 0x20] + [UInt8](repeating: 1, count: 32), sign: [])
        #expect(check.check(badIdentity, remotePeerID: WireVectors.clientPeerID) == .refused(.invalidCredentials))
    }

    @Test func theServerCredentialsEchoTheVersion() {
        let check = CredentialsCheck(ownPeerID: WireVectors.serverPeerID, versions: 5...14)
        let own = check.credentials(signKey: WireVectors.serverKey, remotePeerID: WireVectors.clientPeerID, version: 8,
                                    clientVersion: "pushnode:v0.1.0")
        #expect(own.frame().encoded() == WireVectors.hex("""
            01 7d000000 0801 1266 0a22 1220 e3710f99c41427abec5f023120237a4279076f1ecd623480725af6df88719969
            1240 5f7a1d96a2e5569e7077e6348a56e4e27767c009ef1126f3ca661d4a805f8e6841b988c39ad950b8868cbd2f28fec0c1dd34954ed7bdf1854892300a8c3d4203
            1808 220f 707573686e6f64653a76302e312e30
            """))
    }

    @Test func acksAndProtoFrames() throws {
        #expect(HandshakeAck(error: .null).frame().encoded() == WireVectors.hex("0200000000"))
        #expect(HandshakeAck(error: .invalidCredentials).frame().encoded() == WireVectors.hex("02020000000802"))
        #expect(HandshakeAck(error: .skipVerifyNotAllowed).frame().encoded() == WireVectors.hex("02020000000804"))
        #expect(HandshakeAck(error: .incompatibleVersion).frame().encoded() == WireVectors.hex("02020000000806"))
        let client = try #require(try HandshakeFrame.parse(WireVectors.hex("030400000012020100"))).frame
        #expect(try ProtoHandshake.answer(to: client) == .accept(HandshakeFrame(kind: 3, payload: WireVectors.hex("120100"))))
        #expect(ProtoHandshake.replyNone.encoded() == WireVectors.hex("0303000000120100"))
        let old = HandshakeFrame(kind: 3, payload: [])
        #expect(try ProtoHandshake.answer(to: old) == .accept(HandshakeAck(error: .null).frame()))
        let quic = HandshakeFrame(kind: 3, payload: [0x08, 0x01])
        #expect(try ProtoHandshake.answer(to: quic) == .refuse(HandshakeAck(error: .incompatibleProto).frame()))
    }

    @Test func handshakeFramesOverTheLimitOrTruncatedAreRefused() throws {
        #expect(throws: AnySyncWireError.tooLarge("handshake frame of 204801 bytes")) {
            _ = try HandshakeFrame.parse([1, 0x01, 0x20, 0x03, 0x00])
        }
        #expect(try HandshakeFrame.parse([1, 5, 0, 0, 0, 1, 2]) == nil)
    }

    @Test func signedKeyExtensionOfTheServerKey() throws {
        let spki = WireVectors.hex("3059301306072a8648ce3d020106082a8648ce3d030107034200040c901d423c831ca85e27c73c263ba132721bb9d7a84c4f0380b2a6756fd601331c8870234dec878504c174144fa4b14b66a651691606d8173e55bd37e381569e")
        let key = WireVectors.serverKey
        let value = SignedKeyExtension.Value(publicKey: PeerID.publicKeyProtobuf(key.publicKey),
                                             signature: key.sign(SignedKeyExtension.signaturePrefix + spki))
        let sig = "3d2c2c1fbc6c3ce7de1d6ff215999c1135463f41fdefe4966ca47ac0519f87f4014333a178eed09eddc6f7925857c0402071ff3ae74e5afb44e3a1a1faad770d"
        let encoded = SignedKeyExtension.encode(value)
        #expect(encoded == WireVectors.hex("3068 0424 08011220e3710f99c41427abec5f023120237a4279076f1ecd623480725af6df88719969 0440" + sig))
        #expect(try SignedKeyExtension.decode(encoded) == value)
        #expect(throws: AnySyncWireError.self) { _ = try SignedKeyExtension.decode(Array(encoded.dropLast())) }
    }

    @Test func aFreshCertificateVerifiesToItsHostPeerID() throws {
        let (cert, _) = try Libp2pCertificate.make(hostKey: WireVectors.serverKey)
        #expect(try Libp2pCertificate.verifiedPeerID(of: cert.pointer) == WireVectors.serverPeerID)
    }

    @Test func peerKeyFilesAcceptHexSeedsAndTheReferenceForm() {
        let key = WireVectors.serverKey
        #expect(AnySyncPeerKey.parse(Hex.encode(key.seed))?.publicKey == key.publicKey)
        #expect(AnySyncPeerKey.parse(Hex.encode(key.seed + key.publicKey))?.publicKey == key.publicKey)
        #expect(AnySyncPeerKey.parse(Hex.encode(key.seed + [UInt8](repeating: 0, count: 32))) == nil)
        #expect(AnySyncPeerKey.parse("not a key") == nil)
    }
}
