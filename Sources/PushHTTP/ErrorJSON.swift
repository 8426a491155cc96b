import Foundation
import PushProtocol
import PushService
import PushSupport

/// The one renderer of the PROTOCOL §3.1 error body, `{"error": {"code", "message", "field"?}}`, for
/// every refusal of the API and admin listeners. The status is the code's in `ErrorStatus`.
///
/// An `internal` error never carries details: whatever message or field it was given, the wire gets
/// "internal error" and no field. A code without a status is a bug, answered the same way. A
/// storage failure is `storage.unavailable`: 503 with `Retry-After` and, whatever it was given, the
/// fixed `storageUnavailableMessage` and no field.
package enum ErrorJSON {
    private struct Body: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
            let field: String?
        }
        let error: Detail
    }

    /// The `Retry-After` of `storage.unavailable`, in seconds: long enough for a database restart or
    /// failover to begin, short enough that a client's retries (PushClient honours it) land soon
    /// after it ends. PROTOCOL §3.2.
    package static let storageRetryAfter = 2

    /// `Retry-After` is added when `retryAfter` is given (429), and always for `storage.unavailable`;
    /// `extraHeaders` follow it.
    package static func response(_ code: APIError.Code, _ message: String, field: String? = nil, retryAfter: Int? = nil,
                                 extraHeaders: [(String, String)] = []) -> HTTPResponse {
        guard code != .internal, let status = ErrorStatus.byCode[code] else { return internalError }
        let storage = code == .storageUnavailable
        var headers = [("Content-Type", "application/json")]
        if let retryAfter = retryAfter ?? (storage ? storageRetryAfter : nil) {
            headers.append(("Retry-After", String(retryAfter)))
        }
        headers += extraHeaders
        return HTTPResponse(status: status, headers: headers,
                            body: body(code, storage ? storageUnavailableMessage : message, field: storage ? nil : field))
    }

    /// A refusal of PushProtocol (the body's decoding, the request signature).
    package static func response(_ error: APIError, extraHeaders: [(String, String)] = []) -> HTTPResponse {
        response(error.code, error.message, field: error.field, retryAfter: error.retryAfter, extraHeaders: extraHeaders)
    }

    /// A refusal of the service; a storage failure is `storageUnavailable`.
    package static func response(_ error: ServiceError) -> HTTPResponse {
        switch error {
        case .refused(let refusal): return response(refusal.code, refusal.message, field: refusal.field, retryAfter: refusal.retryAfter)
        case .storageFailed: return storageUnavailable
        }
    }

    /// The fixed text of `storage.unavailable`: the underlying error is for the log only.
    package static let storageUnavailableMessage = "storage is unavailable; retry later"

    /// 503 `storage.unavailable` with the fixed message and `Retry-After: storageRetryAfter`.
    package static var storageUnavailable: HTTPResponse { response(.storageUnavailable, storageUnavailableMessage) }

    /// 500 `internal` with the fixed message.
    package static let internalError = HTTPResponse(
        status: 500, headers: [("Content-Type", "application/json")], body: body(.internal, "internal error", field: nil))

    private static func body(_ code: APIError.Code, _ message: String, field: String?) -> [UInt8] {
        JSON.body(Body(error: .init(code: code.rawValue, message: message, field: field)))
    }
}

extension JSON {
    package static func response<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: body(value))
    }
}
