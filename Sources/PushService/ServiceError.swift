import PushProtocol

/// Why `PushService` did not perform an operation: a refusal of the caller's request, or a failure
/// of the store. It carries no HTTP status and no any-sync code — each door maps the code once
/// (PushHTTP `ErrorStatus`, PushAnySync `AnySyncErrorCode`).
package enum ServiceError: Error, CustomStringConvertible {
    /// The request breaks a rule of PROTOCOL §3–§4: the caller's fault.
    case refused(Refusal)
    /// The store failed: never the caller's fault. The underlying error is for the node's log
    /// only; no door puts it on the wire.
    case storageFailed(any Error)

    /// A stable code of PROTOCOL §3.2, a message naming the rule or limit (never a value the
    /// caller sent), and the JSON path of the field at fault when one field is.
    package struct Refusal: Sendable, Equatable, CustomStringConvertible {
        package var code: APIError.Code
        package var message: String
        package var field: String?
        /// Seconds for `Retry-After` (a service-side rate limit, `rate_limited`).
        package var retryAfter: Int?

        package var description: String { "\(code.rawValue): \(message)" + (field.map { " (\($0))" } ?? "") }
    }

    package static func refused(_ code: APIError.Code, _ message: String, field: String? = nil) -> ServiceError {
        .refused(Refusal(code: code, message: message, field: field))
    }

    /// `request.invalid_field` at `field`.
    package static func invalid(_ field: String, _ message: String) -> ServiceError {
        .refused(.invalidField, message, field: field)
    }

    /// `request.missing_field` at `field`.
    package static func missing(_ field: String) -> ServiceError {
        .refused(.missingField, "\(field) is required", field: field)
    }

    /// The refusal, nil for a storage failure.
    package var refusal: Refusal? {
        if case .refused(let refusal) = self { return refusal }
        return nil
    }

    package var description: String {
        switch self {
        case .refused(let refusal): return refusal.description
        case .storageFailed(let error): return "storage failed: \(error)"
        }
    }
}

extension ServiceError.Refusal {
    /// A shape rule of PushProtocol (its validation and decoding throw `APIError`s); the status
    /// it carries is dropped, the doors decide their own.
    package init(_ rule: APIError) {
        self.init(code: rule.code, message: rule.message, field: rule.field)
    }
}
