/// The `pushproto` messages (Spec/anysync-wire.md §9) as the door reads and writes them: a hand-written
/// protobuf codec with the reference's field numbers. Decoding is lenient like vtprotobuf.
enum PushWire {
    /// `Topic{1 spaceKey: bytes, 2 topic: string, 3 signature: bytes}`.
    struct Topic: Equatable {
        var spaceKey: [UInt8]
        var topic: String
        var signature: [UInt8]
    }

    /// `Message{1 keyId: string, 2 payload: bytes, 3 signature: bytes}`.
    struct Message: Equatable {
        var keyId: String
        var payload: [UInt8]
        var signature: [UInt8]
    }

    /// `NotifyRequest{1 topics: Topics, 2 message: Message, 3 groupId: string}`.
    struct NotifyRequest: Equatable {
        var topics: [Topic]
        var message: Message?
        var groupId: String
    }

    /// `SetTokenRequest{1 platform: Platform(IOS=0, Android=1), 2 token: string}`.
    static func setToken(_ body: [UInt8]) throws(AnySyncWireError) -> (platform: UInt64, token: String) {
        let fields = try Protobuf.fields(body)
        return (try Protobuf.varint(fields, 1), try Protobuf.string(fields, 2))
    }

    /// `CreateSpaceRequest` / `RemoveSpaceRequest{1 spaceKey: bytes, 2 accountSignature: bytes}`.
    static func space(_ body: [UInt8]) throws(AnySyncWireError) -> (spaceKey: [UInt8], signature: [UInt8]) {
        let fields = try Protobuf.fields(body)
        return (try Protobuf.bytes(fields, 1) ?? [], try Protobuf.bytes(fields, 2) ?? [])
    }

    /// The `Topics topics = 1` of Subscribe/Unsubscribe/SubscribeAll; absent reads as empty.
    static func topicsRequest(_ body: [UInt8]) throws(AnySyncWireError) -> [Topic] {
        try topics(Protobuf.bytes(Protobuf.fields(body), 1) ?? [])
    }

    static func notify(_ body: [UInt8]) throws(AnySyncWireError) -> NotifyRequest {
        let fields = try Protobuf.fields(body)
        var message: Message?
        if let bytes = try Protobuf.bytes(fields, 2) {
            let m = try Protobuf.fields(bytes)
            message = Message(keyId: try Protobuf.string(m, 1), payload: try Protobuf.bytes(m, 2) ?? [],
                              signature: try Protobuf.bytes(m, 3) ?? [])
        }
        return NotifyRequest(topics: try topics(Protobuf.bytes(fields, 1) ?? []), message: message,
                             groupId: try Protobuf.string(fields, 3))
    }

    /// `Topics{repeated Topic topics = 1}`.
    static func topics(_ bytes: [UInt8]) throws(AnySyncWireError) -> [Topic] {
        var out: [Topic] = []
        for topic in try Protobuf.repeatedBytes(Protobuf.fields(bytes), 1) {
            let t = try Protobuf.fields(topic)
            out.append(Topic(spaceKey: try Protobuf.bytes(t, 1) ?? [], topic: try Protobuf.string(t, 2),
                             signature: try Protobuf.bytes(t, 3) ?? []))
        }
        return out
    }

    /// `SubscriptionsResponse{1 topics: Topics}`; the Topics message is always written (`0a 00` when
    /// empty), topics carry no signature.
    static func subscriptionsResponse(_ topics: [(spaceKey: [UInt8], topic: String)]) -> [UInt8] {
        var list: [UInt8] = []
        for topic in topics {
            var t: [UInt8] = []
            if !topic.spaceKey.isEmpty { Protobuf.appendBytes(1, topic.spaceKey, to: &t) }
            if !topic.topic.isEmpty { Protobuf.appendBytes(2, Array(topic.topic.utf8), to: &t) }
            Protobuf.appendBytes(1, t, to: &list)
        }
        var out: [UInt8] = []
        Protobuf.appendBytes(1, list, to: &out)
        return out
    }
}
