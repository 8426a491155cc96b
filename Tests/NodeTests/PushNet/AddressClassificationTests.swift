import Testing
@testable import PushNet

@Suite struct AddressClassificationTests {
    @Test(arguments: [
        ("0.0.0.0", AddressClass.unspecified), ("0.1.2.3", .unspecified),
        ("10.0.0.1", .private), ("172.16.0.1", .private), ("172.31.255.255", .private), ("172.32.0.1", .global),
        ("192.168.1.1", .private), ("100.64.0.1", .sharedAddressSpace), ("100.127.255.255", .sharedAddressSpace),
        ("100.128.0.1", .global), ("127.0.0.1", .loopback), ("127.255.0.9", .loopback),
        ("169.254.169.254", .linkLocal), ("192.0.0.8", .reserved), ("192.0.2.1", .reserved), ("198.18.0.1", .reserved),
        ("198.19.255.1", .reserved), ("198.51.100.7", .reserved), ("203.0.113.9", .reserved), ("192.88.99.1", .reserved),
        ("224.0.0.1", .multicast), ("239.255.255.250", .multicast), ("240.0.0.1", .reserved),
        ("255.255.255.255", .reserved), ("8.8.8.8", .global), ("93.184.216.34", .global), ("1.1.1.1", .global),
        ("::", .unspecified), ("::1", .loopback), ("::ffff:127.0.0.1", .loopback), ("::ffff:10.1.2.3", .private),
        ("::ffff:8.8.8.8", .global), ("::127.0.0.1", .reserved), ("64:ff9b::10.0.0.1", .private),
        ("64:ff9b::8.8.4.4", .global), ("64:ff9b:1::1", .reserved), ("100::1", .reserved),
        ("fc00::1", .private), ("fd12:3456::1", .private), ("fe80::1", .linkLocal), ("febf::1", .linkLocal),
        ("fec0::1", .reserved), ("ff02::1", .multicast), ("ff0e::1", .multicast),
        ("2001::1", .reserved), ("2001:db8::1", .reserved), ("2001:10::1", .reserved), ("3fff::1", .reserved),
        ("2002:7f00:1::", .loopback), ("2002:0808:0808::1", .global), ("5f00::1", .reserved),
        ("2606:4700:4700::1111", .global), ("2a00:1450:4001:80b::200e", .global), ("2001:4860:4860::8888", .global),
    ])
    func classifies(address: String, expected: AddressClass) throws {
        let parsed = try #require(IPAddress(address))
        #expect(AddressClass.of(parsed) == expected)
        #expect(AddressClass.of(parsed).isPubliclyRoutable == (expected == .global))
    }

    @Test func parsesLiteralsOnly() {
        #expect(IPAddress("[::1]") == .v6([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]))
        #expect(IPAddress("192.0.2.1") == .v4([192, 0, 2, 1]))
        #expect(IPAddress("example.org") == nil)
        #expect(IPAddress("2130706433") == nil)
        #expect(IPAddress("2001:db8::1")?.description == "2001:db8::1")
    }

    @Test func systemResolverAnswersLiteralsAndLocalhost() {
        // getaddrinfo turns numeric forms into addresses without DNS, including the odd ones.
        #expect(SystemHostResolver().resolve("2130706433") == .addresses([.v4([127, 0, 0, 1])]))
        guard case .addresses(let local) = SystemHostResolver().resolve("localhost") else {
            Issue.record("localhost did not resolve")
            return
        }
        #expect(local.allSatisfy { AddressClass.of($0) == .loopback })
    }
}
