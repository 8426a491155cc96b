import Foundation
import PushProtocol
import PushService
import PushSupport

/// The one renderer of the PROTOCOL §3.1 error body, `{"error": {"code", "message", "field"?}}`, for
/// every refusal of the API and admin listeners. The status is the code's in `ErrorStatus`.
///
/// An `internal` error never carries details: whatever message or field it was given, the wire gets
/// "internal error" and no field. A code without a status is a bug, answered the same way.
package enum ErrorJSON {
    private struct Body: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
            let field: String?
        }
        let error: Detail
    }

    /// `Retry-After` is added when `retryAfter` is given (429 only); `extraHeaders` follow it.
    package static func response(_ code: APIError.Code, _ message: String, field: String? = nil, retryAfter: Int? = nil,
                                 extraHeaders: [(String, String)] = []) -> HTTPResponse {
        guard code != .internal, let status = ErrorStatus.byCode[code] else { return internalError }
        var headers = [("Content-Type", "application/json")]
        if let retryAfter { headers.append(("Retry-After", String(retryAfter))) }
        headers += extraHeaders
        return HTTPResponse(status: status, headers: headers, body: body(code, message, field: field))
    }

    /// A refusal of PushProtocol (the body's decoding, the request signature).
    package static func response(_ error: APIError, extraHeaders: [(String, String)] = []) -> HTTPResponse {
        response(error.code, error.message, field: error.field, retryAfter: error.retryAfter, extraHeaders: extraHeaders)
    }

    /// A refusal of the service; a storage failure is `internal`.
    package static func response(_ error: ServiceError) -> HTTPResponse {
        switch error {
        case .refused(let refusal): return response(refusal.code, refusal.message, field: refusal.field)
        case .storageFailed: return internalError
        }
    }

    /// 500 `internal` with the fixed message.
    package static let internalError = HTTPResponse(
        status: 500, headers: [("Content-Type", "application/json")], body: body(.internal, "internal error", field: nil))

    private static func body(_ code: APIError.Code, _ message: String, field: String?) -> [UInt8] {
        JSON.encode(Body(error: .init(code: code.rawValue, message: message, field: field)))
    }
}

extension JSON {
    package static func response<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: encode(value))
    }
}
