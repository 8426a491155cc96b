import Dispatch
import Foundation
import HTTPClient
import PushSupport

/// Exchanges a signed assertion for an OAuth access token (RFC 7523 JWT-bearer grant): a seam,
/// so the token cache is tested without HTTP.
package protocol OAuthTokenEndpoint: Sendable {
    /// Blocks until the token endpoint answers.
    func exchange(assertion: String, tokenURI: String) throws -> OAuthAccessToken
}

package struct OAuthAccessToken: Sendable, Equatable {
    package var value: String
    /// Seconds the token is valid from when it was issued (`expires_in`).
    package var expiresIn: TimeInterval

    package init(value: String, expiresIn: TimeInterval) {
        self.value = value
        self.expiresIn = expiresIn
    }
}

/// Why a token exchange failed; never carries the assertion or a token.
package struct OAuthExchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String
}

/// `POST token_uri` with `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=…`
/// (form-encoded) through an `HTTPClient`, waiting for the answer on the calling thread.
package struct HTTPOAuthTokenEndpoint: OAuthTokenEndpoint {
    package let client: HTTPClient

    package init(client: HTTPClient) { self.client = client }

    package func exchange(assertion: String, tokenURI: String) throws -> OAuthAccessToken {
        let body = "grant_type=" + Self.formEncode("urn:ietf:params:oauth:grant-type:jwt-bearer")
            + "&assertion=" + Self.formEncode(assertion)
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
    package static func parse(status: Int, body: [UInt8]) throws -> OAuthAccessToken {
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        guard status == 200 else {
            // The endpoint's own words (`invalid_grant: Invalid JWT Signature.`): RFC 6749 §5.2
            // codes and a human description, neither of which carries the assertion.
            let code = (object?["error"] as? String).map { " \($0)" } ?? ""
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
