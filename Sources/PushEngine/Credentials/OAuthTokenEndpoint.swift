import Dispatch
import Foundation
import HTTPClient
import PushProtocol
import PushSupport

/// Posts a grant to an OAuth token endpoint for an access token (RFC 7523 JWT-bearer for FCM,
/// RFC 6749 §4.4 client credentials for Huawei): a seam, so the token caches are tested without
/// HTTP.
package protocol OAuthTokenEndpoint: Sendable {
    /// Posts `form` (form-encoded, in order) to `tokenURI`; blocks until the endpoint answers.
    func exchange(form: [(String, String)], tokenURI: String) throws(OAuthExchangeError) -> OAuthAccessToken
}

package struct OAuthAccessToken: Sendable, Equatable {
    package var value: String
    /// Seconds the token is valid from when it was issued (`expires_in`).
    package var expiresIn: TimeInterval
}

/// Why a token exchange failed; never carries the assertion or a token.
package struct OAuthExchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String
}

/// `POST token_uri` with the grant form-encoded (`grant_type=…&assertion=…`,
/// `grant_type=client_credentials&client_id=…&client_secret=…`) through an `HTTPClient`,
/// waiting for the answer on the calling thread.
package struct HTTPOAuthTokenEndpoint: OAuthTokenEndpoint {
    package let client: HTTPClient

    package init(client: HTTPClient) { self.client = client }

    package func exchange(form: [(String, String)], tokenURI: String) throws(OAuthExchangeError) -> OAuthAccessToken {
        let body = form.map { Self.formEncode($0.0) + "=" + Self.formEncode($0.1) }.joined(separator: "&")
        let request = ClientRequest(method: "POST", url: tokenURI,
                                    headers: [("content-type", "application/x-www-form-urlencoded")],
                                    body: Array(body.utf8), timeout: .seconds(30))
        let result = Protected<Result<ClientResponse, TransportError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        client.send(request) { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        switch result.withLock({ $0 }) {
        case .failure(let error):
            throw OAuthExchangeError(description: "token endpoint: \(error.code)")
        case .success(let response):
            return try Self.parse(status: response.status, body: response.body)
        case nil:
            throw OAuthExchangeError(description: "token endpoint: no answer")
        }
    }

    /// Reads `{"access_token", "expires_in"}` from a 200 answer.
    package static func parse(status: Int, body: [UInt8]) throws(OAuthExchangeError) -> OAuthAccessToken {
        let object = JSON.object(body)
        guard status == 200 else {
            // The endpoint's own words (`invalid_grant: Invalid JWT Signature.`): RFC 6749 §5.2
            // codes and a human description, neither of which carries the assertion.
            // Huawei's `error` is a number (`1101`), with a `sub_error`.
            let error = (object?["error"] as? String) ?? (object?["error"] as? NSNumber)?.stringValue
            let code = error.map { " \($0)" } ?? ""
            let words = (object?["error_description"] as? String).map { ": " + String($0.prefix(200)) } ?? ""
            throw OAuthExchangeError(description: "token endpoint: HTTP \(status)\(code)\(words)")
        }
        guard let token = object?["access_token"] as? String, !token.isEmpty else {
            throw OAuthExchangeError(description: "token endpoint: no access_token in the answer")
        }
        let expiresIn = (object?["expires_in"] as? NSNumber)?.doubleValue ?? 3600
        return OAuthAccessToken(value: token, expiresIn: expiresIn)
    }

    /// `application/x-www-form-urlencoded`: unreserved characters as they are, the rest %XX.
    static func formEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
