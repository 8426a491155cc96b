import CCurl
import Testing
@testable import HTTPClient

/// Pure pieces of the client: header parsing, body cap, error classification, origins.
@Suite struct TransferParsingTests {
    func transfer(maxResponseBytes: Int = 10) -> Transfer {
        Transfer(request: ClientRequest(url: "https://Example.org:8443/a/b?c"), deadline: .now + .seconds(1),
                 maxResponseBytes: maxResponseBytes) { _ in }
    }

    func feed(_ transfer: Transfer, _ lines: [String]) {
        for line in lines {
            Array(line.utf8).withUnsafeBytes { transfer.receiveHeaderLine($0) }
        }
    }

    @Test func lowercasesHeaderNamesAndJoinsRepeatedFields() {
        let transfer = transfer()
        feed(transfer, ["HTTP/2 200 \r\n", "Content-Type: application/json\r\n", "apns-id:  abc \r\n",
                        "Vary: a\r\n", "vary: b\r\n", "\r\n"])
        #expect(transfer.headers == ["content-type": "application/json", "apns-id": "abc", "vary": "a, b"])
        #expect(transfer.sawStatusLine)
    }

    @Test func keepsOnlyTheFinalHeaderBlockAfterAnInterimAnswer() {
        let transfer = transfer()
        feed(transfer, ["HTTP/1.1 100 Continue\r\n", "X-Interim: 1\r\n", "\r\n",
                        "HTTP/1.1 201 Created\r\n", "Location: /m/1\r\n", "\r\n"])
        #expect(transfer.headers == ["location": "/m/1"])
    }

    @Test func refusesBodyBytesBeyondTheCap() {
        let transfer = transfer(maxResponseBytes: 10)
        let taken = [UInt8](repeating: 1, count: 6).withUnsafeBytes { transfer.receiveBody($0) }
        #expect(taken == 6)
        let refused = [UInt8](repeating: 1, count: 5).withUnsafeBytes { transfer.receiveBody($0) }
        #expect(refused == 0)
        #expect(transfer.exceededBodyCap)
        #expect(transfer.body.count == 6)
    }

    @Test func originIsSchemeHostAndPortLowercased() {
        #expect(transfer().origin == "https://example.org:8443")
        #expect(HTTPClient.origin(of: "http://h/p") == "http://h")
        #expect(HTTPClient.origin(of: "https://h?q") == "https://h")
    }

    @Test func classifiesCurlResults() {
        #expect(TransportError(curlCode: CURLE_COULDNT_CONNECT, message: "") == .connectFailed)
        #expect(TransportError(curlCode: CURLE_COULDNT_RESOLVE_HOST, message: "") == .connectFailed)
        #expect(TransportError(curlCode: CURLE_OPERATION_TIMEDOUT, message: "") == .timedOut)
        #expect(TransportError(curlCode: CURLE_HTTP2_STREAM, message: "") == .connectionReset)
        #expect(TransportError(curlCode: CURLE_PEER_FAILED_VERIFICATION, message: "bad cert") == .tls("bad cert"))
        #expect(TransportError(curlCode: CURLE_UNSUPPORTED_PROTOCOL, message: "") == .invalidURL)
        #expect(TransportError(curlCode: CURLE_OUT_OF_MEMORY, message: "oom") == .other(code: 27, message: "oom"))
        #expect(TransportError.connectionReset.isRetryable && TransportError.connectFailed.isRetryable)
        #expect(!TransportError.tooLarge.isRetryable && !TransportError.tls("x").isRetryable)
        #expect(TransportError.isStreamReset(CURLE_HTTP2_STREAM,
                                             message: "HTTP/2 stream 1 was not closed cleanly: INTERNAL_ERROR (err 2)"))
        #expect(!TransportError.isStreamReset(CURLE_HTTP2_STREAM,
                                              message: "HTTP/2 stream 1 was not closed cleanly before end of the underlying stream"))
    }

    @Test func oneRetryPerOriginLeadsTheOthersFollowIt() {
        var gate = FreshConnectionGate<Int>()
        #expect(gate.admit(1, origin: "https://a") == .lead)
        #expect(gate.admit(2, origin: "https://a") == .follow)
        #expect(gate.admit(3, origin: "https://b") == .lead)
        #expect(gate.admit(4, origin: "https://a") == .follow)
        #expect(gate.parkedCount == 2)
        #expect(gate.removeWaiters { $0 == 4 } == [4])
        #expect(gate.leaderFinished(origin: "https://a") == [2])
        #expect(gate.admit(5, origin: "https://a") == .lead)
        #expect(gate.leaderFinished(origin: "https://b").isEmpty)
    }
}
