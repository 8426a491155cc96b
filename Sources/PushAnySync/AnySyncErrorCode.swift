import PushProtocol
import PushService

/// The any-sync rpcerr codes the door answers with (Spec/anysync-wire.md §8.6, PROTOCOL §8.1), and the one
/// table from the service's error codes to them.
///
/// The contract fixes them (PROTOCOL §8): 1201 for a bad signature, 1202 for a bad topic signature,
/// the limiter's 700 when rate limited, and `Unexpected` (1200) for everything else, with a text
/// naming the rule or limit broken (never a value). The node's own failures (internal, storage) are
/// 1200 too, with a fixed text: their cause is not the caller's to know. The any-sync client turns
/// 1200 into its sentinel error and drops the text (`rpcerr.Unwrap`); heart retries a failed call on
/// every code but 1204 either way, so the text is for logs and other clients.
enum AnySyncErrorCode {
    /// drpc's own code for an rpc it does not know (not a refusal of the service).
    static let unknownRPC: UInt64 = 0
    static let rateLimited: UInt64 = 700
    static let unexpected: UInt64 = 1200
    static let invalidSignature: UInt64 = 1201
    static let invalidTopicSignature: UInt64 = 1202

    /// The error codes that have an any-sync code of their own; every other refusal is 1200.
    static let byCode: [APIError.Code: UInt64] = [
        .messageSignatureInvalid: invalidSignature,
        .spaceSignatureInvalid: invalidSignature,
        .topicSignatureInvalid: invalidTopicSignature,
        .rateLimited: rateLimited,
    ]

    /// The any-sync code of `code`.
    static func code(for code: APIError.Code) -> UInt64 { byCode[code] ?? unexpected }

    /// The reply to a refusal: the fixed text of its any-sync code, or for 1200 the refusal's
    /// message (it names the rule or limit, never a value). A storage failure is
    /// `storageUnavailableReply`, a refusal coded `internal` `internalReply`: the underlying error
    /// never reaches the wire.
    static func reply(for error: ServiceError) -> DRPCReply {
        guard case .refused(let refusal) = error else { return storageUnavailableReply }
        guard refusal.code != .internal else { return internalReply }
        let code = code(for: refusal.code)
        switch code {
        case rateLimited: return .error(code: code, message: "rate limit exceeded")
        case invalidSignature: return .error(code: code, message: "invalid signature")
        case invalidTopicSignature: return .error(code: code, message: "invalid topic signature")
        default: return .error(code: code, message: refusal.message)
        }
    }

    /// 1200 with a fixed text, for failures that are not the caller's.
    static let internalReply = DRPCReply.error(code: unexpected, message: "unexpected error")

    /// 1200 with a fixed text naming the fault, for a storage failure (HTTP's 503
    /// `storage.unavailable`): any-sync has no code of its own for "the server's storage failed,
    /// retry", and its clients retry 1200 like any other failed call. The client shows only
    /// "unexpected error"; the node's log and `/readyz` name the fault.
    static let storageUnavailableReply = DRPCReply.error(code: unexpected, message: "unexpected error: storage unavailable")

    /// Code 0 naming the rpc, as drpc answers.
    static func unknownRPCReply(_ rpc: String) -> DRPCReply {
        .error(code: unknownRPC, message: "unknown rpc: \"\(rpc)\"")
    }
}
