import Foundation
import Testing
@testable import PushHTTP
@testable import PushNet
@testable import PushSupport

/// `server.requestTimeout` through the real libmicrohttpd server: a client that trickles its head
/// or its body a byte at a time (each byte restarting libmicrohttpd's own idle timeout) is closed
/// once the request's deadline passes; a client that sends in time is answered, also on a kept-alive
/// connection after a pause.
@Suite(.serialized) final class RequestDeadlineTests {
    struct Echo: HTTPResponder {
        func respond(to request: HTTPRequest) -> HTTPResponse { HTTPResponse(status: 200, body: Array("ok".utf8)) }
        func respondTooLarge(to request: HTTPRequest, limit: Int) -> HTTPResponse { HTTPResponse(status: 413) }
    }

    let server: HTTPServer

    init() throws {
        server = HTTPServer(configuration: .init(address: ListenAddress(host: "127.0.0.1", port: 0), threads: 2,
                                                 connectionTimeout: 30, requestTimeout: 1),
                            responder: Echo())
        try server.start()
    }

    deinit { server.drain(timeout: 0) }

    /// Sends `head`, then one byte of `trickle` every 150 ms on another thread; returns the seconds
    /// until the server closed the connection.
    func secondsUntilClosed(head: String, trickle: String) throws -> Double {
        let client = try RawHTTPClient(port: server.port)
        try client.send(Array(head.utf8))
        let started = Clocks.monotonicSeconds()
        // Only this thread sends and only the test's thread receives: send/recv on one socket from two threads.
        nonisolated(unsafe) let sending = client
        let sender = Thread {
            for byte in Array(trickle.utf8) {
                Thread.sleep(forTimeInterval: 0.15)
                guard (try? sending.send([byte])) != nil else { return }
            }
        }
        sender.start()
        #expect(client.isClosedByPeer())
        return Clocks.monotonicSeconds() - started
    }

    @Test func aTrickledHeadIsClosedAtItsDeadline() throws {
        let elapsed = try secondsUntilClosed(head: "GET /v1/capabilities HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                                             trickle: "X-Slow: " + String(repeating: "a", count: 40))
        #expect(elapsed >= 0.9 && elapsed < 3, "closed after \(elapsed) s")
        #expect(server.requestsTimedOut >= 1)
    }

    @Test func aTrickledBodyIsClosedAtItsDeadline() throws {
        let elapsed = try secondsUntilClosed(head: "POST /v1/notify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 40\r\n\r\n",
                                             trickle: String(repeating: "{", count: 40))
        #expect(elapsed >= 0.9 && elapsed < 3, "closed after \(elapsed) s")
    }

    @Test func requestsInTimeAreAnsweredAlsoAfterAKeepAlivePause() throws {
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.request("GET", "/v1/capabilities").status == 200)
        Thread.sleep(forTimeInterval: 1.5) // longer than requestTimeout, shorter than connectionTimeout
        #expect(try client.request("GET", "/v1/capabilities").status == 200)
        #expect(server.requestsTimedOut == 0)
    }
}
