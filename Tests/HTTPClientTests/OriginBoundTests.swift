import Foundation
import Testing
@testable import HTTPClient

/// Origins an attacker picks (any Web Push endpoint, issue 26) leave no state behind in the HTTP/2
/// engine once their requests ended: its origin → target map follows the pool's, which forgets
/// an origin with nothing queued or open.
@Suite struct OriginBoundTests {
    @Test func originsWhoseRequestsEndedAreForgotten() async throws {
        let mock = try MockProviders.shared()
        let client = try HTTPClient(configuration: HTTPClientConfiguration(caFile: mock.caFile))
        defer { client.shutdown() }
        async let slow = client.send(ClientRequest(url: mock.tlsBase + "/_mock/delay?ms=3000", timeout: .seconds(10)))
        // Fifty origins on closed loopback ports: each connection is refused at once.
        for port in 40_001...40_050 {
            await #expect(throws: TransportError.self) {
                try await client.send(ClientRequest(url: "https://127.0.0.1:\(port)/push", timeout: .seconds(5)))
            }
        }
        // The engine sweeps every 100 ms while a request is in flight: only the mock's origin is left.
        try await Task.sleep(for: .milliseconds(400))
        #expect(client.stats.originsKnown == 1)
        #expect(try await slow.status == 200)
    }
}
