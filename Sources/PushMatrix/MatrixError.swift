import PushDelivery

/// A refusal of the Matrix door, with the Matrix error code and HTTP status it is answered with:
/// `{"errcode": …, "error": …}` (Matrix Client-Server API "Standard error response").
package struct MatrixError: Error, Equatable, Sendable {
    package struct Code: RawRepresentable, Hashable, Sendable {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }

        /// The body is JSON but not a notification (wrong type, wrong shape).
        package static let badJSON = Code(rawValue: "M_BAD_JSON")
        /// The body is not JSON at all.
        package static let notJSON = Code(rawValue: "M_NOT_JSON")
        /// A required member is absent.
        package static let missingParam = Code(rawValue: "M_MISSING_PARAM")
        /// The caller's address is not in `matrix.allowedSources`.
        package static let forbidden = Code(rawValue: "M_FORBIDDEN")
        /// Over the rate of the caller's address or of a pushkey.
        package static let limitExceeded = Code(rawValue: "M_LIMIT_EXCEEDED")
        /// A fault of the node (its storage): the homeserver retries.
        package static let unknown = Code(rawValue: "M_UNKNOWN")
        /// The door is off, or no such route.
        package static let unrecognized = Code(rawValue: "M_UNRECOGNIZED")
    }

    package var code: Code
    package var message: String
    /// Whole seconds, for `retry_after_ms` and `Retry-After` (429 and 503).
    package var retryAfter: Int?

    package init(_ code: Code, _ message: String, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    package static let notJSON = MatrixError(.notJSON, "the body is not JSON")

    /// The HTTP status of the code.
    package var status: Int {
        switch code {
        case .forbidden: 403
        case .limitExceeded: 429
        case .unknown: 503
        case .unrecognized: 404
        default: 400
        }
    }

    /// The error body.
    package var body: [UInt8] {
        var members: [(String, JSONValue)] = [("errcode", .string(code.rawValue)), ("error", .string(message))]
        if code == .limitExceeded, let retryAfter { members.append(("retry_after_ms", .int(retryAfter * 1000))) }
        return JSONValue.object(members).bytes
    }
}
