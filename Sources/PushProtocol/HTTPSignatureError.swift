/// Why a request signature was refused. Each case maps to one PROTOCOL §2 code; `reason` is
/// safe to show (it never contains key material or header values).
public enum HTTPSignatureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Neither `Signature` nor `Signature-Input` was sent (`auth.missing`).
    case missing
    /// Only one of the two headers, or one that does not parse or breaks the profile (`auth.malformed`).
    case malformed(String)
    /// The signature or the content digest does not match the request (`auth.invalid_signature`).
    case invalidSignature(String)

    public var description: String {
        switch self {
        case .missing: return "no Signature or Signature-Input header"
        case .malformed(let reason): return reason
        case .invalidSignature(let reason): return reason
        }
    }

    /// The 401 answer for this failure.
    public var apiError: APIError {
        switch self {
        case .missing:
            return APIError(code: .authMissing, message: "request is not signed (Signature and Signature-Input are required)")
        case .malformed(let reason):
            return APIError(code: .authMalformed, message: "malformed request signature: \(reason)")
        case .invalidSignature(let reason):
            return APIError(code: .authInvalidSignature, message: "invalid request signature: \(reason)")
        }
    }
}
