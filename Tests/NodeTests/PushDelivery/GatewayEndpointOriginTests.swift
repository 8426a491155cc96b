import Testing
@testable import PushDelivery

@Suite struct GatewayEndpointOriginTests {
    @Test(arguments: [
        ("https://fcm.googleapis.com/fcm/send/dXk3Zk9w:APA91b", "https://fcm.googleapis.com", "fcm.googleapis.com", nil),
        ("https://Updates.Push.Services.Mozilla.COM/wpush/v2/gAAAA", "https://updates.push.services.mozilla.com",
         "updates.push.services.mozilla.com", nil),
        ("HTTPS://push.example.net:443/x", "https://push.example.net", "push.example.net", nil),
        ("https://push.example.net:8443/x", "https://push.example.net:8443", "push.example.net", 8443),
        ("http://127.0.0.1:8080/up?token=1", "http://127.0.0.1:8080", "127.0.0.1", 8080),
        ("http://ntfy.local:80/up", "http://ntfy.local", "ntfy.local", nil),
        ("https://example.com?x=1", "https://example.com", "example.com", nil),
        ("https://example.com#frag", "https://example.com", "example.com", nil),
        ("https://[2001:DB8::1]:8443/p", "https://[2001:db8::1]:8443", "2001:db8::1", 8443),
        ("https://[::1]/p", "https://[::1]", "::1", nil),
        ("https://[::ffff:192.0.2.1]:9000", "https://[::ffff:192.0.2.1]:9000", "::ffff:192.0.2.1", 9000),
        ("https://web_push.example.org/a", "https://web_push.example.org", "web_push.example.org", nil),
    ] as [(String, String, String, Int?)])
    func parses(endpoint: String, origin: String, host: String, port: Int?) throws {
        let parsed = try EndpointOrigin(endpoint: endpoint)
        #expect(parsed.description == origin)
        #expect(parsed.host == host)
        #expect(parsed.port == port)
    }

    @Test(arguments: [
        "https://user@example.com/p",
        "https://user:secret@example.com/p",
        "https://example.com@evil.test/p",
        "ftp://example.com/p",
        "wss://example.com/p",
        "example.com/p",
        "https:///p",
        "https://",
        "https://:443/p",
        "https://example.com:0/p",
        "https://example.com:65536/p",
        "https://example.com:8a/p",
        "https://example.com:/p",
        "https://example.com:123456/p",
        "https://[::1/p",
        "https://[::1]x/p",
        "https://[]/p",
        "https://[example.com]/p",
        "https://ex%61mple.com/p",
        "https://exa mple.com/p",
        "https://.example.com/p",
        "https://example..com/p",
        "https://bücher.example/p",
    ])
    func rejects(endpoint: String) {
        #expect(throws: GatewayError.invalidToken) { try EndpointOrigin(endpoint: endpoint) }
    }
}
