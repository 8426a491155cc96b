import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushHTTP
@testable import PushMetrics
@testable import PushNet
@testable import PushService
@testable import PushSupport

/// The real libmicrohttpd server with the API router on a free loopback port, a stand-in service
/// handler, and raw sockets as the client.
@Suite(.serialized) final class HTTPServerIntegrationTests {
    let registry = MetricsRegistry()
    let server: HTTPServer
    let seenAccounts = Protected<[String]>([])

    init() throws {
        let seen = seenAccounts
        let router = APIRouter(
            capabilities: Capabilities(version: "test", platforms: [.webpush, .android], vapidPublicKey: "BKey",
                                       limits: Limits(maxBodyBytes: 1024)),
            authenticator: RequestAuthenticator(clockSkew: 300),
            rateLimiter: RateLimiter(policy: RateLimitPolicy(registrationPerMinute: 1, registrationBurst: 2)),
            handler: { request, account in
                seen.withLock { $0.append(account.string) }
                if request.path == "/v1/subscriptions" && request.method == "PUT" { return nil }
                return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")],
                                    body: Array("{\"echo\":\(request.body.count)}".utf8))
            },
            operations: OperationsRoutes(metrics: registry, readiness: { .ready }),
            log: .discard)
        server = HTTPServer(configuration: .init(address: ListenAddress(host: "127.0.0.1", port: 0), threads: 2,
                                                 maxBodyBytes: 1024),
                            responder: router)
        try server.start()
    }

    deinit { server.drain(timeout: 0) }

    func client() throws -> RawHTTPClient { try RawHTTPClient(port: server.port) }

    func signedHeaders(_ method: String, _ path: String, query: String? = nil, body: [UInt8] = [],
                       key: AccountKey = Keys.alice, created: Int64? = nil, nonce: String? = nil) -> [(String, String)] {
        let signer = HTTPSigner(key: key, now: { created ?? HTTPSigner.unixTime() },
                                nonce: { nonce ?? HTTPSigner.randomNonce() })
        return try! signer.sign(method: method, path: path, query: query, body: body).fields
    }

    func errorCode(_ response: RawHTTPClient.Response) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return (object?["error"] as? [String: Any])?["code"] as? String
    }

    @Test func twoRequestsShareOneKeepAliveConnection() throws {
        let c = try client()
        let first = try c.request("GET", "/healthz")
        let second = try c.request("GET", "/v1/capabilities")
        #expect(first.status == 200)
        #expect(first.header("connection") != "close")
        #expect(second.status == 200)
        #expect(second.text.contains("\"platforms\":[\"android\",\"webpush\"]"))
    }

    @Test func capabilitiesCarryTheInjectedValues() throws {
        let response = try client().request("GET", "/v1/capabilities")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(object["version"] as? String == "test")
        #expect(object["vapidPublicKey"] as? String == "BKey")
        #expect((object["anysync"] as? [String: Any])?["enabled"] as? Bool == false)
        let limits = try #require(object["limits"] as? [String: Int])
        #expect(limits == ["maxPayloadBytes": 2816, "maxTopicsPerRequest": 256, "maxSubscriptions": 10000])
    }

    @Test func aDeclaredBodyOverTheLimitIs413AndTheConnectionCloses() throws {
        let c = try client()
        // Only the head is sent: the answer must not wait for (or buffer) the body.
        try c.send(Array("POST /v1/notify HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n".utf8))
        let response = try c.readResponse()
        #expect(response.status == 413)
        #expect(errorCode(response) == "request.too_large")
        #expect(c.isClosedByPeer())
    }

    @Test func aChunkedBodyOverTheLimitIs413() throws {
        let c = try client()
        let chunk = String(repeating: "x", count: 800)
        let body = "320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n"
        try c.send(Array("POST /v1/notify HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\(body)".utf8))
        let response = try c.readResponse()
        #expect(response.status == 413)
        #expect(errorCode(response) == "request.too_large")
    }

    @Test func aBodyWithinTheLimitReachesTheHandler() throws {
        let body = Array(repeating: UInt8(ascii: "a"), count: 1024)
        let response = try client().request("POST", "/v1/notify", headers: signedHeaders("POST", "/v1/notify", body: body), body: body)
        #expect(response.status == 200)
        #expect(response.text == "{\"echo\":1024}")
    }

    @Test func unknownPathsAre404AndWrongMethods405() throws {
        let c = try client()
        let missing = try c.request("GET", "/v1/nothing")
        #expect(missing.status == 404)
        #expect(errorCode(missing) == "not_found")
        let wrong = try c.request("DELETE", "/v1/tokens")
        #expect(wrong.status == 405)
        #expect(errorCode(wrong) == "method_not_allowed")
        #expect(wrong.header("allow") == "GET, POST")
        let wrongUnsigned = try c.request("POST", "/healthz")
        #expect(wrongUnsigned.status == 405)
    }

    @Test func authenticationCodesOverHTTP() throws {
        let c = try client()
        #expect(errorCode(try c.request("GET", "/v1/subscriptions")) == "auth.missing")
        var headers = signedHeaders("GET", "/v1/subscriptions")
        #expect(errorCode(try c.request("GET", "/v1/subscriptions", headers: [headers[1]])) == "auth.malformed")
        #expect(errorCode(try c.request("GET", "/v1/subscriptions", headers: [("Signature-Input", "push=?"), headers[1]])) == "auth.malformed")
        headers = signedHeaders("GET", "/v1/subscriptions")
        let forged = try c.request("GET", "/v1/subscriptions?extra=1", headers: headers)
        #expect(forged.status == 401)
        #expect(errorCode(forged) == "auth.invalid_signature")
        let old = signedHeaders("GET", "/v1/subscriptions", created: HTTPSigner.unixTime() - 3600)
        #expect(errorCode(try c.request("GET", "/v1/subscriptions", headers: old)) == "auth.expired")
        let future = signedHeaders("GET", "/v1/subscriptions", created: HTTPSigner.unixTime() + 3600)
        #expect(errorCode(try c.request("GET", "/v1/subscriptions", headers: future)) == "auth.expired")
        let once = signedHeaders("GET", "/v1/subscriptions", query: "a=1")
        #expect(try c.request("GET", "/v1/subscriptions?a=1", headers: once).status == 200)
        let replay = try c.request("GET", "/v1/subscriptions?a=1", headers: once)
        #expect(replay.status == 401)
        #expect(errorCode(replay) == "auth.replayed")
        #expect(registry.render().contains("pushnode_auth_failures_total{code=\"auth.replayed\"} 1"))
    }

    @Test func theHandlerSeesTheCallerAndNilMeans404() throws {
        let c = try client()
        #expect(try c.request("POST", "/v1/spaces", headers: signedHeaders("POST", "/v1/spaces", key: Keys.bob)).status == 200)
        #expect(seenAccounts.withLock { $0.last } == Keys.bob.accountID.string)
        let body = Array("{}".utf8)
        let none = try c.request("PUT", "/v1/subscriptions", headers: signedHeaders("PUT", "/v1/subscriptions", body: body), body: body)
        #expect(none.status == 404)
    }

    @Test func rateLimitedRequestsGet429WithRetryAfter() throws {
        let c = try client()
        let key = try AccountKey(seed: Array(repeating: 9, count: 32))
        #expect(try c.request("GET", "/v1/tokens", headers: signedHeaders("GET", "/v1/tokens", key: key)).status == 200)
        #expect(try c.request("GET", "/v1/tokens", headers: signedHeaders("GET", "/v1/tokens", key: key)).status == 200)
        let limited = try c.request("GET", "/v1/tokens", headers: signedHeaders("GET", "/v1/tokens", key: key))
        #expect(limited.status == 429)
        #expect(errorCode(limited) == "rate_limited")
        #expect(Int(limited.header("retry-after") ?? "") ?? 0 >= 1)
        // Another account is not affected.
        let other = try AccountKey(seed: Array(repeating: 10, count: 32))
        #expect(try c.request("GET", "/v1/tokens", headers: signedHeaders("GET", "/v1/tokens", key: other)).status == 200)
    }

    @Test func healthReadinessAndMetrics() throws {
        let c = try client()
        #expect(try c.request("GET", "/healthz").text == "{\"status\":\"ok\"}")
        #expect(try c.request("GET", "/readyz").status == 200)
        _ = try c.request("GET", "/v1/nothing")
        let metrics = try c.request("GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("content-type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(metrics.text.contains("pushnode_http_requests_total{route=\"/healthz\",status=\"200\"} 1"))
        #expect(metrics.text.contains("pushnode_http_requests_total{route=\"other\",status=\"404\"} 1"))
        #expect(metrics.text.contains("pushnode_http_request_duration_seconds_count{route=\"/readyz\"} 1"))
    }

    @Test func quiescingStopsNewConnectionsButAnswersOpenOnesWithClose() throws {
        let c = try client()
        #expect(try c.request("GET", "/healthz").status == 200)
        server.stop()
        let last = try c.request("GET", "/healthz")
        #expect(last.status == 200)
        #expect(last.header("connection") == "close")
        #expect(throws: RawHTTPClient.Failure.self) { try RawHTTPClient(port: self.server.port) }
        #expect(server.drain(timeout: 5))
    }
}
