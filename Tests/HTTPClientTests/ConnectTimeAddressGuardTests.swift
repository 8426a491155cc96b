import Foundation
import PushNet
import Testing
@testable import HTTPClient

/// The connect-time SSRF guard (the open-socket callback of a client with
/// `refusePrivateAddresses`) refuses every address class the register-time endpoint check
/// refuses: both ask `AddressClass`, and a real request to a refused literal never connects.
@Suite struct ConnectTimeAddressGuardTests {
    /// One literal per refused class, with the embedded-IPv4 forms that once slipped through:
    /// 6to4 of a private or loopback IPv4 (2002::/16), NAT64 of a private IPv4 (64:ff9b::/96),
    /// IPv4-mapped, IPv4-compatible, 2001::/23, 3fff::/20 and addresses outside 2000::/3.
    static let refused = [
        "0.0.0.0", "10.1.2.3", "127.0.0.1", "100.64.0.1", "169.254.169.254", "172.16.0.1", "172.31.255.255",
        "192.168.1.1", "192.0.0.8", "192.0.2.1", "192.88.99.1", "198.18.0.1", "198.51.100.7", "203.0.113.9",
        "224.0.0.1", "240.0.0.1", "255.255.255.255",
        "::", "::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:192.168.0.1", "::127.0.0.1",
        "fc00::1", "fd12:3456::1", "fe80::1", "fec0::1", "ff02::1",
        "2001::1", "2001:10::1", "2001:db8::1", "3fff::1", "5f00::1", "100::1",
        "2002:7f00:1::1", "2002:a00:1::1", "2002:c0a8:101::1", "2002:a9fe:a9fe::1",
        "64:ff9b::a00:1", "64:ff9b::7f00:1", "64:ff9b::c0a8:101", "64:ff9b:1::1",
    ]
    static let allowed = [
        "8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "192.169.0.1",
        "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2606:4700::1111", "2a00:1450:4001:80b::200a",
    ]

    static func bytes(_ literal: String) throws -> [UInt8] {
        switch try #require(IPAddress(literal)) {
        case .v4(let b), .v6(let b): return b
        }
    }

    @Test(arguments: refused)
    func theGuardRefuses(address: String) throws {
        let raw = try Self.bytes(address)
        #expect(!Transfer.isPubliclyRoutable(raw))
        // The register-time check's verdict on the same address.
        #expect(!AddressClass.of(try #require(IPAddress(address))).isPubliclyRoutable)
    }

    @Test(arguments: allowed)
    func theGuardAllows(address: String) throws {
        #expect(Transfer.isPubliclyRoutable(try Self.bytes(address)))
        #expect(AddressClass.of(try #require(IPAddress(address))).isPubliclyRoutable)
    }

    @Test func otherLengthsAreRefused() {
        #expect(!Transfer.isPubliclyRoutable([]))
        #expect(!Transfer.isPubliclyRoutable([8, 8, 8]))
    }

    /// Through libcurl: the open-socket callback sees each literal and the request fails with
    /// `forbiddenAddress` before any connect (port 9, discard, would otherwise be refused or time out).
    @Test func aRequestToARefusedLiteralNeverConnects() async throws {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(refusePrivateAddresses: true))
        defer { client.shutdown() }
        for literal in ["10.1.2.3", "127.0.0.1", "[::1]", "[::ffff:127.0.0.1]", "[2002:7f00:1::1]",
                        "[64:ff9b::a00:1]", "[fd00::1]"] {
            let request = ClientRequest(url: "http://\(literal):9/push", timeout: .seconds(5))
            await #expect(throws: TransportError.forbiddenAddress, "\(literal)") { try await client.send(request) }
        }
    }

    /// A name is judged by what it resolves to at connect time: `localhost` (an endpoint that
    /// might have resolved to a public address at registration) is refused, while a client that
    /// admits private addresses reaches the same server.
    @Test func refusesTheLoopbackMockAtConnectTime() async throws {
        let mock = try MockProviders.shared()
        let client = try HTTPClient(configuration: HTTPClientConfiguration(caFile: mock.caFile, refusePrivateAddresses: true))
        defer { client.shutdown() }
        for url in [mock.tlsBase + "/_mock/echo", "http://localhost:\(mock.httpPort)/_mock/echo"] {
            let error = await #expect(throws: TransportError.forbiddenAddress) { try await client.send(ClientRequest(url: url)) }
            #expect(error?.isRetryable == false)
        }
        let open = try HTTPClient(configuration: HTTPClientConfiguration(caFile: mock.caFile))
        defer { open.shutdown() }
        let answer = try await open.send(ClientRequest(url: "http://localhost:\(mock.httpPort)/_mock/echo"))
        #expect(answer.status < 500)
    }
}
