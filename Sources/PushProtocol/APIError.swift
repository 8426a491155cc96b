/// An error the API answers with: stable `error.code`, human message, and the JSON path of the
/// field at fault when one field is. The HTTP status is the code's, decided by the node in one
/// place (`PushHTTP/ErrorStatus.swift`).
///
/// Codes are the strings of PROTOCOL.md §2–§4; never compare messages, compare codes.
public struct APIError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Code
    public var message: String
    public var field: String?
    /// Seconds for a `Retry-After` header (429 only).
    public var retryAfter: Int?

    public init(code: Code, message: String, field: String? = nil, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    public var description: String { "\(code.rawValue): \(message)" + (field.map { " (\($0))" } ?? "") }

    /// A stable error code string; a code this version does not name is kept as sent
    /// (`Code(rawValue:)`), so clients read every node's answers.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        public static let requestMalformed: Code = "request.malformed"
        public static let missingField: Code = "request.missing_field"
        public static let invalidField: Code = "request.invalid_field"
        public static let tooLarge: Code = "request.too_large"
        public static let rateLimited: Code = "rate_limited"
        public static let platformDisabled: Code = "platform.disabled"
        /// `appId` names no app this node is configured for (PROTOCOL §10).
        public static let appUnknown: Code = "app.unknown"
        /// `POST /v1/tokens/test`: no registration of that id belongs to the caller.
        public static let registrationNotFound: Code = "registration.not_found"
        public static let `internal`: Code = "internal"
        /// A signed route called while storage is still opening at start.
        public static let unavailable: Code = "unavailable"
        /// The node's storage failed (database unreachable, disk full, read-only, I/O error): the
        /// node's fault, never the caller's; answered with `Retry-After` (PROTOCOL §3.2).
        public static let storageUnavailable: Code = "storage.unavailable"
        public static let notFound: Code = "not_found"
        public static let methodNotAllowed: Code = "method_not_allowed"

        public static let authMissing: Code = "auth.missing"
        public static let authMalformed: Code = "auth.malformed"
        public static let authInvalidSignature: Code = "auth.invalid_signature"
        public static let authExpired: Code = "auth.expired"
        public static let authReplayed: Code = "auth.replayed"

        public static let spaceSignatureInvalid: Code = "space.signature_invalid"
        public static let topicSignatureInvalid: Code = "topic.signature_invalid"
        public static let messageSignatureInvalid: Code = "message.signature_invalid"
        public static let payloadTooLarge: Code = "payload.too_large"
        public static let tokenEndpointNotRoutable: Code = "token.endpoint_not_routable"
        /// A Web Push endpoint another account holds, registered without its `auth` secret.
        public static let tokenInUse: Code = "token.in_use"
        /// The caller already holds `limits.maxRegistrationsPerAccount` registrations or
        /// `limits.maxSpacesPerAccount` spaces.
        public static let accountLimitReached: Code = "account.limit_reached"
        /// No notification of that id sent by the caller within the outcome retention.
        public static let notificationNotFound: Code = "notification.not_found"
    }

    // Constructors for the common cases.
    public static func malformed(_ message: String) -> APIError {
        APIError(code: .requestMalformed, message: message)
    }
    public static func missing(_ field: String) -> APIError {
        APIError(code: .missingField, message: "\(field) is required", field: field)
    }
    public static func invalid(_ field: String, _ message: String) -> APIError {
        APIError(code: .invalidField, message: message, field: field)
    }
    public static let internalError = APIError(code: .internal, message: "internal error")
}
