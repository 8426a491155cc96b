import PushCrypto
import Testing
@testable import PushAnySync

/// Spec/anysync-wire.md §14.5 request bodies and the response encodings.
@Suite struct AnySyncPushWireTests {
    static let topicSignature = "8cf41063b5d31b2d57942518b35b8f924b22ebc42a57cfc2c7ff808dec043d325433e9ced10725ffd2efb38ea35251fe2da5f12cff0619739e901bfb720e940f"

    @Test func subscribeAllBodyOfTheVector() throws {
        let space = WireVectors.spaceKey
        #expect(Hex.encode(space.publicKey) == "a9fc7cdae3c2ce465e6a6106b01da4b053688d90f1e55d07d2d44d4fa981e29d")
        #expect(Base58.encode(space.publicKey) == "CSZCjfKySvuJAXW7ibwHUfqDdJuKEDT2LyfSWCeeWnYC")
        #expect(Hex.encode(space.sign(Array("chats".utf8))) == Self.topicSignature)
        let body = WireVectors.hex("0a6d 0a6b 0a20" + Hex.encode(space.publicKey) + "1205 6368617473 1a40" + Self.topicSignature)
        #expect(try PushWire.topicsRequest(body) == [PushWire.Topic(spaceKey: space.publicKey, topic: "chats",
                                                                     signature: WireVectors.hex(Self.topicSignature))])
        #expect(try PushWire.topicsRequest([]) == [])
    }

    @Test func createSpaceBodyOfTheVector() throws {
        let space = WireVectors.spaceKey
        let signature = "7cb73bdc46069ee47f17cf1c9832c32edf6b63f7e1aead609cb3ee0d87b0c0724c4e3164efa55b23f95bb6117fafd6881496bcdb67ad48bbeb61ecd72047f706"
        #expect(Hex.encode(space.sign(Array("AAD82Pzo9qyLCtj94Kqo24mHQj1hDS5ynYf5UvWL4EfrdXVk".utf8))) == signature)
        let body = WireVectors.hex("0a20" + Hex.encode(space.publicKey) + "1240" + signature)
        let decoded = try PushWire.space(body)
        #expect(decoded.spaceKey == space.publicKey && decoded.signature == WireVectors.hex(signature))
    }

    @Test func notifyBodiesDecodeLeniently() throws {
        // Unknown field 9 and an unpacked repeat are skipped; message absent reads as nil.
        let body = WireVectors.hex("1a 03 677270 4801")
        let request = try PushWire.notify(body)
        #expect(request == PushWire.NotifyRequest(topics: [], message: nil, groupId: "grp"))
        let withMessage = WireVectors.hex("12 08 0a02 6b69 1202 0102 1a00")
        #expect(try PushWire.notify(withMessage).message == PushWire.Message(keyId: "ki", payload: [1, 2], signature: []))
        #expect(throws: AnySyncWireError.truncated) { _ = try PushWire.notify(WireVectors.hex("12 08 0a02")) }
    }

    @Test func subscriptionsResponses() {
        #expect(PushWire.subscriptionsResponse([]) == WireVectors.hex("0a00"))
        let key = WireVectors.spaceKey.publicKey
        #expect(PushWire.subscriptionsResponse([(key, "chats")])
                == WireVectors.hex("0a2b 0a29 0a20" + Hex.encode(key) + "1205 6368617473"))
    }

    @Test func varintsRoundTripAndRejectOverlongInput() throws {
        for value: UInt64 in [0, 1, 127, 128, 300, UInt64.max] {
            var offset = 0
            #expect(try Varint.read(Varint.encode(value)[...], at: &offset) == value)
        }
        var offset = 0
        #expect(throws: AnySyncWireError.malformed("varint too long")) {
            _ = try Varint.read([UInt8](repeating: 0xff, count: 11)[...], at: &offset)
        }
    }
}
