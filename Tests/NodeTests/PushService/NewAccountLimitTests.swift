import Testing
@testable import PushNet
@testable import PushService

/// PROTOCOL §7 `limits.newAccountsPerAddress` (issue 26): keys are free, so an account the node
/// has not seen draws from its client address's bucket too; rotating keys from one address no
/// longer brings a fresh budget per key.
@Suite struct NewAccountLimitTests {
    @Test func anAddressBringsAtMostItsNewAccountsAMinute() {
        let clock = TestClock(0)
        let limiter = RateLimiter(newAccountsPerAddress: 3, now: clock.function)
        for account in ["a", "b", "c"] {
            #expect(limiter.take(account: account, rateClass: .registration, client: "198.51.100.7") == .allowed)
        }
        // The fourth new key from that address is refused (a token every 20 s), and stays unseen.
        #expect(limiter.take(account: "d", rateClass: .registration, client: "198.51.100.7") == .denied(retryAfter: 20))
        #expect(limiter.take(account: "d", rateClass: .notify, client: "198.51.100.7") == .denied(retryAfter: 20))
        // Accounts already seen keep their own budgets, in every class, from anywhere.
        for _ in 0..<5 { #expect(limiter.take(account: "a", rateClass: .registration, client: "198.51.100.7") == .allowed) }
        #expect(limiter.take(account: "b", rateClass: .notify, client: "203.0.113.9") == .allowed)
        // Another address has a bucket of its own; a door that knows no address charges none.
        #expect(limiter.take(account: "e", rateClass: .registration, client: "203.0.113.9") == .allowed)
        #expect(limiter.take(account: "f", rateClass: .registration) == .allowed)
        clock.advance(20)
        #expect(limiter.take(account: "d", rateClass: .registration, client: "198.51.100.7") == .allowed)
    }

    @Test func zeroTurnsItOff() {
        let limiter = RateLimiter(newAccountsPerAddress: 0)
        for index in 0..<100 {
            #expect(limiter.take(account: "k\(index)", rateClass: .registration, client: "198.51.100.7") == .allowed)
        }
    }

    @Test func anIPv6ClientIsItsSlash64AndAProxyOnThisHostNamesTheClient() throws {
        let one = try #require(IPAddress("2001:db8:1:2::1")), other = try #require(IPAddress("2001:db8:1:2:ffff::9"))
        #expect(ClientAddress.key(peer: one) == "2001:db8:1:2::/64")
        #expect(ClientAddress.key(peer: other) == ClientAddress.key(peer: one))
        #expect(ClientAddress.key(peer: try #require(IPAddress("2001:db8:1:3::1"))) != ClientAddress.key(peer: one))
        let loopback = try #require(IPAddress("127.0.0.1"))
        #expect(ClientAddress.key(peer: loopback) == "127.0.0.1")
        #expect(ClientAddress.key(peer: loopback, forwardedFor: "10.0.0.1, 198.51.100.7") == "198.51.100.7")
        #expect(ClientAddress.key(peer: loopback, forwardedFor: "garbage") == "127.0.0.1")
        // Only a proxy on this host is believed.
        let remote = try #require(IPAddress("203.0.113.9"))
        #expect(ClientAddress.key(peer: remote, forwardedFor: "198.51.100.7") == "203.0.113.9")
    }
}
