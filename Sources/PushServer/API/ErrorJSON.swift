import Foundation
import PushProtocol

/// The PROTOCOL §3 error body: `{"error": {"code", "message", "field"?}}`.
enum ErrorJSON {
    private struct Body: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
            let field: String?
        }
        let error: Detail
    }

    static func response(_ error: APIError, extraHeaders: [(String, String)] = []) -> HTTPResponse {
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

/// JSON encoding with stable key order and unescaped slashes.
enum JSON {
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(value)) ?? Data("{}".utf8))
    }

    static func response<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: encode(value))
    }
}
