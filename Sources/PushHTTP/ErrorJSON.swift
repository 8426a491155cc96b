import Foundation
import PushProtocol
import PushSupport

/// The PROTOCOL §3 error body: `{"error": {"code", "message", "field"?}}`.
package enum ErrorJSON {
    private struct Body: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
            let field: String?
        }
        let error: Detail
    }

    package static func response(_ error: APIError, extraHeaders: [(String, String)] = []) -> HTTPResponse {
        var headers = [("Content-Type", "application/json")]
        if let retryAfter = error.retryAfter { headers.append(("Retry-After", String(retryAfter))) }
        headers += extraHeaders
        return HTTPResponse(status: error.status, headers: headers, body: body(error))
    }

    static func body(_ error: APIError) -> [UInt8] {
        let body = Body(error: .init(code: error.code.rawValue, message: error.message, field: error.field))
        return JSON.encode(body)
    }
}

extension JSON {
    package static func response<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: encode(value))
    }
}
