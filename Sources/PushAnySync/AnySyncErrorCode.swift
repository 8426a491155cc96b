import PushProtocol

/// any-sync rpcerr codes the door answers with (ANY-SYNC-WIRE §8.6, PROTOCOL §8).
enum AnySyncErrorCode {
    static let rateLimited: UInt64 = 700
    static let unexpected: UInt64 = 1200
    static let invalidSignature: UInt64 = 1201
    static let invalidTopicSignature: UInt64 = 1202

    static let rateLimitedReply = DRPCReply.error(code: rateLimited, message: "rate limit exceeded")
    static let invalidSignatureReply = DRPCReply.error(code: invalidSignature, message: "invalid signature")
    static let invalidTopicSignatureReply = DRPCReply.error(code: invalidTopicSignature, message: "invalid topic signature")

    /// 1200 with a text naming what was wrong (never a secret: API error texts name fields and limits).
    static func unexpected(_ detail: String) -> DRPCReply {
        .error(code: unexpected, message: "unexpected error: \(detail)")
    }

    /// The reply for an error the service threw.
    static func reply(for error: any Error) -> DRPCReply {
        guard let api = error as? APIError else { return .error(code: unexpected, message: "unexpected error") }
        switch api.code {
        case .topicSignatureInvalid: return invalidTopicSignatureReply
        case .messageSignatureInvalid, .spaceSignatureInvalid: return invalidSignatureReply
        case .rateLimited: return rateLimitedReply
        default: return unexpected(api.message)
        }
    }
}
