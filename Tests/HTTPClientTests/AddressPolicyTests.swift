import Foundation
import Testing
@testable import HTTPClient

/// Which addresses a client with `refusePrivateAddresses` may reach.
@Suite struct AddressPolicyTests {
    static func v4(_ text: String) -> [UInt8] {
        text.split(separator: ".").map { UInt8($0)! }
    }

    /// Expands a textual IPv6 address with at most one `::`.
    static func v6(_ text: String) -> [UInt8] {
        let halves = text.components(separatedBy: "::")
        func groups(_ part: String) -> [UInt16] { part.isEmpty ? [] : part.split(separator: ":").map { UInt16($0, radix: 16)! } }
        let head = groups(halves[0]), tail = halves.count > 1 ? groups(halves[1]) : []
        let all = head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
    }

    @Test(arguments: ["0.0.0.0", "10.1.2.3", "127.0.0.1", "100.64.0.1", "169.254.169.254", "172.16.0.1",
                      "172.31.255.255", "192.168.1.1", "192.0.2.1", "198.18.0.1", "224.0.0.1", "255.255.255.255"])
    func refusesPrivateIPv4(address: String) {
        #expect(!AddressPolicy.isPublic(Self.v4(address)))
    }

    @Test(arguments: ["8.8.8.8", "142.250.74.106", "17.188.143.187", "172.32.0.1", "100.128.0.1", "192.169.0.1"])
    func allowsPublicIPv4(address: String) {
        #expect(AddressPolicy.isPublic(Self.v4(address)))
    }

    @Test(arguments: ["::", "::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "fc00::1", "fd12:3456::1", "fe80::1",
                      "ff02::1", "2001:db8::1", "64:ff9b::a00:1", "64:ff9b:1::1", "100::1"])
    func refusesPrivateIPv6(address: String) {
        let bytes: [UInt8]
        if let dot = address.range(of: "::ffff:") {
            bytes = [UInt8](repeating: 0, count: 10) + [0xff, 0xff] + Self.v4(String(address[dot.upperBound...]))
        } else {
            bytes = Self.v6(address)
        }
        #expect(!AddressPolicy.isPublic(bytes))
    }

    @Test(arguments: ["2a00:1450:4001:80b::200a", "2606:4700::1111", "64:ff9b::808:808"])
    func allowsPublicIPv6(address: String) {
        #expect(AddressPolicy.isPublic(Self.v6(address)))
    }

    @Test func refusesTheLoopbackMockAtConnectTime() async throws {
        let mock = try MockProviders.shared()
        let client = try HTTPClient(configuration: HTTPClientConfiguration(caFile: mock.caFile, refusePrivateAddresses: true))
        for url in [mock.tlsBase + "/_mock/echo", "http://localhost:\(mock.httpPort)/_mock/echo"] {
            let error = await #expect(throws: TransportError.forbiddenAddress) { try await client.send(ClientRequest(url: url)) }
            #expect(error?.isRetryable == false)
        }
    }
}
