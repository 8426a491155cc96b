import PushProtocol
import PushService

/// The any-sync rpcerr codes the door answers with (Spec/anysync-wire.md §8.6, PROTOCOL §8.1), and the one
/// table from the service's error codes to them.
///
/// Which refusals go as code 0: the any-sync client (`rpcerr.Unwrap`) turns every code it has
/// registered into its sentinel error and drops the text, so a 1200 reaches heart's log as a bare
/// "unexpected error". The codes the contract fixes (1201, 1202, 700) keep their code: clients act
/// on them. A refusal of the caller's request with no code of its own goes as code 0 with its text,
/// as the reference node sends its own such errors ("push: message is required"), so the rule
/// broken survives the client's unwrapping. 1200 is kept for the node's own failures (internal,
/// storage), whose cause is not the caller's to know.
enum AnySyncErrorCode {
    /// drpc's code for an error without one: the client keeps the text (also an rpc drpc does not know).
    static let plain: UInt64 = 0
    static let unknownRPC: UInt64 = plain
    static let rateLimited: UInt64 = 700
    static let unexpected: UInt64 = 1200
    static let invalidSignature: UInt64 = 1201
    static let invalidTopicSignature: UInt64 = 1202

    /// The error codes that have an any-sync code of their own; every other refusal of the caller's
    /// request is code 0 with its text.
    static let byCode: [APIError.Code: UInt64] = [
        .messageSignatureInvalid: invalidSignature,
        .spaceSignatureInvalid: invalidSignature,
        .topicSignatureInvalid: invalidTopicSignature,
        .rateLimited: rateLimited,
        .internal: unexpected,
    ]

    /// The any-sync code of `code`.
    static func code(for code: APIError.Code) -> UInt64 { byCode[code] ?? plain }

    /// The reply to a refusal: the fixed text of its any-sync code, or for code 0 the refusal's
    /// message (it names the rule or limit, never a value). A storage failure is
    /// `storageUnavailableReply`, a refusal coded `internal` `internalReply`: the underlying error
    /// never reaches the wire.
    static func reply(for error: ServiceError) -> DRPCReply {
        guard case .refused(let refusal) = error else { return storageUnavailableReply }
        let code = code(for: refusal.code)
        switch code {
        case unexpected: return internalReply
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
