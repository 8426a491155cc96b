import PushCrypto
import PushProtocol
import PushService

/// pushproto's messages as the service's requests. Only what the wire itself decides is checked
/// here, in request order; every rule of the protocol (shapes, limits, signature verification) is
/// the service's. Refusals are the service's `ServiceError`, so the door's one table answers them.
extension PushWire {
    /// Bytes the wire cannot read: a code-0 refusal naming the wire error (never a value).
    static func decoded<T>(_ read: @autoclosure () throws(AnySyncWireError) -> T) throws(ServiceError) -> T {
        do {
            return try read()
        } catch {
            throw .refused(.requestMalformed, "cannot decode the request: \(error)")
        }
    }

    /// `Platform` IOS = 0, Android = 1; anything else is a code-0 refusal.
    static func platform(_ value: UInt64) throws(ServiceError) -> Platform {
        switch value {
        case 0: return .ios
        case 1: return .android
        default: throw .invalid("platform", "unknown platform \(value)")
        }
    }

    /// A space key of 32 bytes, else a code-0 refusal with the reference's text.
    static func spaceKey(_ bytes: [UInt8], field: String) throws(ServiceError) -> SpaceKey {
        guard let key = try? SpaceKey(publicKey: bytes) else {
            throw .invalid(field, "expect ed25519 public key data size to be 32")
        }
        return key
    }

    /// pushproto signatures are bare bytes that are only ever verified: one that is not 64 bytes is a
    /// signature that does not verify (1201/1202, as the reference answers), where the HTTP door
    /// refuses the JSON field's shape instead.
    static func signature(_ bytes: [UInt8], refusing code: APIError.Code, field: String) throws(ServiceError) -> [UInt8] {
        guard bytes.count == 64 else { throw .refused(code, "\(field) is not 64 bytes", field: field) }
        return bytes
    }

    static func spaceRequest(_ wire: (spaceKey: [UInt8], signature: [UInt8])) throws(ServiceError) -> SpaceRequest {
        SpaceRequest(spaceKey: try spaceKey(wire.spaceKey, field: "spaceKey"),
                     signature: try signature(wire.signature, refusing: .spaceSignatureInvalid, field: "signature"))
    }

    /// Each topic's space key, then its signature's length, in request order.
    static func serviceTopics(_ wire: [Topic]) throws(ServiceError) -> [PushProtocol.Topic] {
        var topics: [PushProtocol.Topic] = []
        for (index, topic) in wire.enumerated() {
            let path = "topics[\(index)]"
            topics.append(PushProtocol.Topic(
                spaceKey: try spaceKey(topic.spaceKey, field: "\(path).spaceKey"), topic: topic.topic,
                signature: try signature(topic.signature, refusing: .topicSignatureInvalid, field: "\(path).signature")))
        }
        return topics
    }

    static func serviceMessage(_ wire: Message) throws(ServiceError) -> NotifyMessage {
        NotifyMessage(keyId: wire.keyId, payload: wire.payload,
                      signature: try signature(wire.signature, refusing: .messageSignatureInvalid, field: "message.signature"))
    }
}
