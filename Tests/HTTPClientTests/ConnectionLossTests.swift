import Foundation
import HTTPClient
import Testing

/// GOAWAY, reset streams and dropped connections: a request the server never answered
/// is sent once more; a second loss fails with a retryable error.
@Suite struct ConnectionLossTests {
    let mock: MockProviders

    init() throws {
        mock = try MockProviders.shared()
    }

    func client() throws -> HTTPClient {
        try HTTPClient(configuration: HTTPClientConfiguration(requestTimeout: .seconds(20), caFile: mock.caFile))
    }

    func token() -> String { "loss-\(UUID().uuidString)" }

    @Test(arguments: ["goaway", "reset", "close"])
    func retriesARequestOnceWhenItsConnectionDies(action: String) async throws {
        let client = try client()
        let token = token()
        try await mock.script(provider: "mock", token: token, responses: [["action": action]])
        let response = try await client.send(ClientRequest(method: "POST", url: mock.tlsBase + "/_mock/scripted/\(token)"))
        #expect(response.status == 200)
        #expect(response.body == Array("scripted".utf8))
        #expect(try await mock.requests(provider: "mock", token: token).count == 2)
    }

    @Test(arguments: ["reset", "close"])
    func failsRetryablyWhenTheRetryDiesToo(action: String) async throws {
        let client = try client()
        let token = token()
        try await mock.script(provider: "mock", token: token, responses: [["action": action, "times": 2]])
        let error = await #expect(throws: TransportError.connectionReset) {
            try await client.send(ClientRequest(method: "POST", url: mock.tlsBase + "/_mock/scripted/\(token)"))
        }
        #expect(error?.isRetryable == true)
        #expect(try await mock.requests(provider: "mock", token: token).count == 2)
        #expect(client.stats.failures == 1)
    }

    /// One answer drops the connection while 19 more streams wait on it: all 20 are
    /// retried on one new connection and succeed (none hangs until its timeout).
    @Test func retriesEveryStreamOfADroppedConnectionOnOneNewConnection() async throws {
        let client = try client()
        let token = token()
        try await mock.script(
            provider: "mock", token: token,
            responses: [["delayMs": 300, "action": "close"]], then: ["delayMs": 300])
        let first = ClientRequest(url: mock.tlsBase + "/_mock/scripted/\(token)", timeout: .seconds(15))
        async let head = client.send(first)
        while try await mock.requests(provider: "mock", token: token).isEmpty {}
        let requests = (0..<19).map { _ in first }
        let results = await Completions.sendAll(requests, with: client)
        let firstResponse = try await head
        #expect(firstResponse.status == 200)
        #expect(results.compactMap(\.value).filter { $0.status == 200 }.count == 19)
        // One new connection for all the retries, not one each. (A third can appear when a
        // request was still waiting for the first connection as it closed.)
        #expect(client.stats.connectionsOpened <= 3)
    }

    @Test func retriesOverHTTP11WhenTheServerDropsTheConnection() async throws {
        let client = try client()
        let token = token()
        try await mock.script(provider: "mock", token: token, responses: [["action": "close"]])
        let response = try await client.send(ClientRequest(url: mock.httpBase + "/_mock/scripted/\(token)"))
        #expect(response.status == 200)
        #expect(response.httpVersion == 1)
    }

    @Test func finishesInFlightStreamsAfterAGracefulGoawayAndReconnects() async throws {
        let client = try client()
        let token = token()
        try await mock.script(provider: "mock", token: token, responses: [["delayMs": 400, "times": 20]])
        let requests = (0..<20).map { _ in ClientRequest(url: mock.tlsBase + "/_mock/scripted/\(token)") }
        async let results = Completions.sendAll(requests, with: client)
        var received: [[String: Any]] = []
        while received.count < 20 {
            received = try await mock.requests(provider: "mock", token: token)
        }
        let connection = try #require(received.first?["connection"] as? Int)
        try await mock.goaway(connection: connection)
        let answered = await results
        #expect(answered.compactMap(\.value).filter { $0.status == 200 }.count == 20)

        let next = try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/echo"))
        #expect(try next.json()["connection"] as? Int != connection)
        #expect(client.stats.connectionsOpened == 2)
    }
}

/// The pool's timers against the TLS mock: PINGs on a quiet connection, idle connections closed.
@Suite struct QuietConnectionTests {
    let mock: MockProviders

    init() throws {
        mock = try MockProviders.shared()
    }

    /// The answer takes 4 s, PINGs go out after 0.2 s of quiet and must be acknowledged within
    /// 1.5 s: the request is answered on its one connection, never sent again (unacknowledged,
    /// the connection would be dropped twice and the request fail).
    @Test func pingsAQuietConnectionAndKeepsItWhileAcknowledged() async throws {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(
            requestTimeout: .seconds(20), caFile: mock.caFile, pingAfterQuiet: .milliseconds(200), pingTimeout: .milliseconds(1500)))
        let response = try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/delay?ms=4000"))
        #expect(response.status == 200)
        #expect(client.stats.retries == 0)
        #expect(client.stats.connectionsOpened == 1)
    }

    /// Without the idle close the second request would reuse the first one's connection.
    @Test func closesAnIdleConnectionAndOpensANewOneWhenNeeded() async throws {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(
            requestTimeout: .seconds(20), caFile: mock.caFile, idleConnectionTimeout: .milliseconds(500)))
        let first = try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/echo"))
        try await Task.sleep(for: .seconds(2))
        let second = try await client.send(ClientRequest(url: mock.tlsBase + "/_mock/echo"))
        #expect(try second.json()["connection"] as? Int != first.json()["connection"] as? Int)
        #expect(client.stats.connectionsOpened == 2)
        #expect(client.stats.failures == 0)
    }
}
