import PushNet
import Testing
@testable import HTTPClient

/// Which URLs the HTTP/2 engine takes, and what it sends as `:authority` and `:path`.
@Suite struct H2TargetTests {
    @Test func splitsAnHTTPSURL() throws {
        let target = try #require(H2Target.parse("https://FCM.googleapis.com/v1/projects/p/messages:send"))
        #expect(target.host == "fcm.googleapis.com" && target.port == 443 && target.authority == "fcm.googleapis.com")
        #expect(target.path == "/v1/projects/p/messages:send" && target.address == nil)
        #expect(target.origin == HTTPClient.origin(of: "https://FCM.googleapis.com/v1/projects/p/messages:send"))
    }

    @Test func keepsTheQueryDropsTheFragmentAndDefaultsThePath() throws {
        #expect(H2Target.parse("https://a.example:8443?x=1#frag")?.path == "/?x=1")
        #expect(H2Target.parse("https://a.example/p?q=2#f")?.path == "/p?q=2")
        #expect(H2Target.parse("https://a.example")?.path == "/")
        #expect(H2Target.parse("HTTPS://a.example/x")?.port == 443)
    }

    @Test func readsIPLiteralsAndPorts() throws {
        let v4 = try #require(H2Target.parse("https://127.0.0.1:9443/3/device/ab"))
        #expect(v4.host == "127.0.0.1" && v4.port == 9443 && v4.address == IPAddress("127.0.0.1") && v4.authority == "127.0.0.1:9443")
        let v6 = try #require(H2Target.parse("https://[::1]:8443/push"))
        #expect(v6.host == "::1" && v6.port == 8443 && v6.address == IPAddress("::1") && v6.authority == "[::1]:8443")
    }

    /// Not the engine's: libcurl gets them and applies its own rules.
    @Test(arguments: ["http://a.example/x", "ftp://a.example/", "https://", "https://user@a.example/", "https://a.example:0/",
                      "https://a.example:99999/", "https://a.example:x/", "https://[::1/", "https://a.example/with space",
                      "https://:443/"])
    func leavesOtherURLsToLibcurl(_ url: String) {
        #expect(H2Target.parse(url) == nil)
    }
}

/// The engine's per-origin FIFO.
@Suite struct RequestQueueTests {
    private func request(_ n: Int) -> H2Request {
        H2Request(id: UInt64(n), Submission(request: ClientRequest(url: "https://a.example/\(n)"), deadline: .now + .seconds(60),
                                            cancellation: nil, completion: { _ in }),
                  target: H2Target.parse("https://a.example/\(n)")!)
    }

    @Test func keepsOrderWithRetriesInFrontAndForgetsWhatItHandedOut() {
        var queue = RequestQueue<H2Request>()
        weak var handedOut: H2Request?
        do {
            let first = request(0)
            handedOut = first
            queue.append(first)
            for n in 1...3 { queue.append(request(n)) }
            _ = queue.removeFirst()
        }
        // Steady load: the queue never runs empty, yet what it handed out is released.
        for n in 4..<200 {
            queue.append(request(n))
            _ = queue.removeFirst()
        }
        #expect(handedOut == nil)
        #expect(queue.count == 3)
        let retried = request(999)
        queue.prepend(retried)
        #expect(queue.removeFirst() === retried)
        let removed = queue.remove { $0.request.url.hasSuffix("/198") }
        #expect(removed.count == 1 && queue.count == 2)
        #expect(queue.removeFirst().request.url.hasSuffix("/197"))
        #expect(queue.removeFirst().request.url.hasSuffix("/199") && queue.isEmpty)
    }
}
