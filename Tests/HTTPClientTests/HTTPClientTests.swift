import Foundation
import HTTPClient
import Testing

/// The client against the mock providers: HTTP/2 over TLS with the mock's CA,
/// HTTP/1.1 over plain HTTP, connection reuse, and every failure class.
@Suite struct HTTPClientTests {
    let mock: MockProviders

    init() throws {
        mock = try MockProviders.shared()
    }

    func client(_ adjust: (inout HTTPClientConfiguration) -> Void = { _ in }) throws -> HTTPClient {
        var configuration = HTTPClientConfiguration(requestTimeout: .seconds(20), caFile: mock.caFile)
        adjust(&configuration)
        return try HTTPClient(configuration: configuration)
    }

    @Test func speaksHTTP2OverTLSWithTheMockCA() async throws {
        let client = try client()
        let response = try await client.send(ClientRequest(
            method: "POST", url: mock.tlsBase + "/_mock/echo",
            headers: [("Content-Type", "application/json"), ("X-Trace", "a"), ("X-Trace", "b")],
            body: Array(#"{"hello":1}"#.utf8)))
        #expect(response.status == 200)
        #expect(response.httpVersion == 2)
        #expect(response.headers["content-type"] == "application/json; charset=UTF-8")
        #expect(response.header("Content-Type") == "application/json; charset=UTF-8")
        let echo = try response.json()
        #expect(echo["method"] as? String == "POST")
        #expect(echo["httpVersion"] as? String == "2")
        #expect(echo["body"] as? String == Data(#"{"hello":1}"#.utf8).base64EncodedString())
        let headers = (echo["headers"] as? [[String]]) ?? []
        #expect(headers.contains(["x-trace", "a"]) && headers.contains(["x-trace", "b"]))
        #expect(headers.contains(["user-agent", "pushnode"]))
        #expect(!headers.contains { $0.first == "expect" })
    }

    @Test func multiplexes200ConcurrentRequestsOverOneConnection() async throws {
        let client = try client()
        let requests = (0..<200).map { _ in ClientRequest(url: mock.tlsBase + "/_mock/echo?delayMs=300") }
        let results = await Completions.sendAll(requests, with: client)
        let responses = results.compactMap(\.value)
        #expect(responses.count == 200)
        #expect(responses.allSatisfy { $0.status == 200 && $0.httpVersion == 2 })
        let connectionIDs = Set(try responses.map { try $0.json()["connection"] as? Int ?? -1 })
        #expect(connectionIDs.count == 1)
        #expect(client.stats.connectionsOpened == 1)
        #expect(client.stats.inFlight == 0)
        #expect(client.stats.responses == 200)
        let id = try #require(connectionIDs.first)
        let server = try #require(try await mock.connectionStats(id: id))
        #expect((server["maxConcurrentStreams"] as? Int ?? 0) > 100)
    }

    /// On its own mock (`MockProviders.flood()`), and each request may wait two minutes: all 3000 are
    /// submitted at once, so the default deadline would measure the mock's speed (a few seconds
    /// normally, far longer under `make sanitize`) rather than whether every request is carried.
    @Test func carriesThousandsOfRequestsBeyondTheStreamLimit() async throws {
        let mock = try MockProviders.flood()
        let client = try HTTPClient(configuration: HTTPClientConfiguration(requestTimeout: .seconds(120), caFile: mock.caFile))
        let requests = (0..<3000).map { _ in ClientRequest(method: "POST", url: mock.tlsBase + "/_mock/echo", body: [1, 2, 3]) }
        let results = await Completions.sendAll(requests, with: client)
        #expect(results.compactMap(\.value).filter { $0.status == 200 }.count == 3000)
        #expect(client.stats.connectionsOpened <= 2)
    }

    @Test func speaksHTTP11OverPlainHTTPAndReusesTheConnection() async throws {
        let client = try client()
        var connections: Set<Int> = []
        for _ in 0..<5 {
            let response = try await client.send(ClientRequest(method: "PUT", url: mock.httpBase + "/_mock/echo", body: [0x41]))
            #expect(response.status == 200)
            #expect(response.httpVersion == 1)
            let echo = try response.json()
            #expect(echo["method"] as? String == "PUT")
            connections.insert(echo["connection"] as? Int ?? -1)
        }
        #expect(connections.count == 1)
        #expect(client.stats.connectionsOpened == 1)
    }

    @Test func queuesConcurrentHTTP11RequestsOnItsConnection() async throws {
        let client = try client()
        let requests = (0..<20).map { _ in ClientRequest(url: mock.httpBase + "/_mock/echo") }
        let results = await Completions.sendAll(requests, with: client)
        #expect(results.compactMap(\.value).filter { $0.status == 200 && $0.httpVersion == 1 }.count == 20)
        #expect(client.stats.connectionsOpened == 1)
    }

    @Test func refusesHeadersThatCouldInjectFields() async throws {
        let client = try client()
        for header in [("X-A", "1\r\nX-Injected: 1"), ("Bad Name", "1"), ("X-B", "nul\u{0}"), ("", "v")] {
            await #expect(throws: TransportError.invalidHeader) {
                try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/echo", headers: [header]))
            }
        }
        #expect(client.stats.inFlight == 0)
    }

    @Test func returnsARedirectAsIs() async throws {
        let client = try client()
        let response = try await client.send(ClientRequest(
            url: mock.tlsBase + "/_mock/status?code=301&location=/_mock/echo"))
        #expect(response.status == 301)
        #expect(response.headers["location"] == "/_mock/echo")
        #expect(response.body == Array("status".utf8))
    }

    @Test func timesOut() async throws {
        let client = try client()
        await #expect(throws: TransportError.timedOut) {
            try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/delay?ms=5000", timeout: .milliseconds(200)))
        }
        #expect(TransportError.timedOut.isRetryable)
    }

    /// Refused as a connect failure on either engine (`http://` is libcurl's, `https://` the
    /// nghttp2 engine's), not left to run into the request's timeout (that would be `timedOut`).
    @Test(arguments: ["http://127.0.0.1:1/", "https://127.0.0.1:1/", "https://localhost:1/"])
    func failsToConnectToAClosedPort(url: String) async throws {
        let client = try client()
        await #expect(throws: TransportError.connectFailed) {
            try await client.send(ClientRequest(url: url, timeout: .seconds(60)))
        }
    }

    @Test func rejectsAServerSignedByAnotherCA() async throws {
        for caFile in [mock.otherCaFile, nil] {
            let client = try client { $0.caFile = caFile }
            let error = await #expect(throws: TransportError.self) {
                try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/echo"))
            }
            guard case .tls(let message) = error else {
                Issue.record("expected a TLS error, got \(String(describing: error))")
                continue
            }
            #expect(!message.isEmpty)
            #expect(error?.isRetryable == false)
        }
    }

    @Test func capsTheResponseBody() async throws {
        let client = try client { $0.maxResponseBytes = 4 << 20 }
        let atCap = try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/bytes?n=\(4 << 20)"))
        #expect(atCap.body.count == 4 << 20)
        await #expect(throws: TransportError.tooLarge) {
            try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/bytes?n=\((4 << 20) + 1)"))
        }
        // The stream was reset, not the connection: the next request still goes through.
        let after = try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/echo"))
        #expect(after.status == 200)
    }

    @Test func rejectsURLsThatAreNotHTTP() async throws {
        let client = try client()
        for url in ["ftp://127.0.0.1/x", "file:///etc/passwd", "no scheme"] {
            await #expect(throws: TransportError.invalidURL) { try await client.send(ClientRequest(url: url)) }
        }
    }

    @Test func cancelsWithItsTask() async throws {
        let client = try client()
        // The connection is up before the request that gets cancelled, so cancelling can only
        // reset that one stream: the next request must reuse the same connection.
        #expect(try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/echo")).status == 200)
        let pending = Task { () throws(TransportError) -> ClientResponse in
            try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/delay?ms=10000"))
        }
        while client.stats.inFlight == 0 { await Task.yield() }
        pending.cancel()
        await #expect(throws: TransportError.cancelled) { try await pending.value }
        #expect(client.stats.inFlight == 0)
        let next = try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/echo"))
        #expect(next.status == 200)
        #expect(client.stats.connectionsOpened == 1)
    }

    @Test func cancelsOnShutdown() async throws {
        let client = try client()
        let pending = Task { () throws(TransportError) -> ClientResponse in
            try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/delay?ms=10000"))
        }
        while client.stats.inFlight == 0 { await Task.yield() }
        client.shutdown()
        await #expect(throws: TransportError.cancelled) { try await pending.value }
        await #expect(throws: TransportError.cancelled) {
            try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/echo"))
        }
        client.shutdown()
        #expect(client.stats.inFlight == 0)
    }
}
