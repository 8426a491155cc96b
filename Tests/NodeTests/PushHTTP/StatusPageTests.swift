import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushHTTP
@testable import PushMetrics
@testable import PushService

/// `/status` and `/status.json`: the pure renderer, its escaping and policy, and which listener
/// serves them.
@Suite struct StatusPageTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func snapshot(reason: String = "fcm.unregistered", kind: String = "message") -> NodeStatus {
        var minutes = (0..<60).map { NodeStatus.Minute(start: t0.addingTimeInterval(Double($0 - 59) * 60)) }
        minutes[58][.delivered] = 40
        minutes[58][.retried] = 10
        minutes[59][.dead] = 2
        return NodeStatus(
            version: "0.1.0-test", generatedAt: t0.addingTimeInterval(30), startedAt: t0.addingTimeInterval(-3723),
            uptimeSeconds: 3753, storage: "sqlite",
            providers: [.init(provider: "fcm", health: .healthy, queueDepth: 3, oldestAgeSeconds: 75, inFlight: 1,
                              lastFailure: .init(reason: reason, at: t0.addingTimeInterval(-90))),
                        .init(provider: "webpush", health: .misconfigured, queueDepth: 0, oldestAgeSeconds: 0, inFlight: 0)],
            registrations: ["android": 5, "webpush": 2], perMinute: minutes,
            recent: [.init(at: t0.addingTimeInterval(20), provider: "fcm", kind: kind, outcome: .dead, reason: reason,
                           notification: "01234567")])
    }

    static func page(_ status: NodeStatus = snapshot()) -> String { String(decoding: StatusPage.render(status), as: UTF8.self) }

    @Test func thePageHasTheRowsTheChartAndTheRecentOutcomes() {
        let html = Self.page()
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains(#"<tr data-provider="fcm"><th scope="row">fcm</th>"#))
        #expect(html.contains(#"<td class="n">3</td><td class="n">1m 15s</td><td class="n">1</td><td><code>fcm.unregistered</code> <span class="ago">2m 00s ago</span>"#))
        #expect(html.contains(#"<span class="health bad">misconfigured</span>"#))
        #expect(html.contains(#"<dd id="uptime">1h 02m</dd>"#) && html.contains(#"<dd id="storage">sqlite</dd>"#))
        #expect(html.contains(#"<tr data-platform="android"><th scope="row">android</th><td class="n">5</td></tr>"#))
        // Stacked bars: the busiest minute is the full plot height (186 px), its parts in proportion.
        #expect(html.components(separatedBy: #"<g class="minute">"#).count - 1 == 2)
        // Slots of 1048/60 px from x = 44; the busiest minute (50) fills the plot from y = 10 to 196.
        #expect(html.contains(##"<rect class="bar delivered" x="1058.1" y="47.2" width="15.5" height="148.8" fill="#2f9e5b"/>"##))
        #expect(html.contains(#"<rect class="bar retried" x="1058.1" y="10" width="15.5" height="37.2""#))
        #expect(html.contains("<title>07:59:00 UTC: 40 delivered, 10 retried</title>"))
        #expect(html.contains(#"<li data-outcome="delivered"><span class="swatch sw-delivered"></span>delivered <b>40</b></li>"#))
        #expect(html.contains("<td><code>01234567</code></td>"))
        #expect(!html.contains("<script") && !html.contains("style=\""))
    }

    @Test func everyStringIsEscaped() {
        let html = Self.page(Self.snapshot(reason: #"<script>alert("x")</script>"#, kind: "a&b'"))
        #expect(!html.contains("<script>"))
        #expect(html.contains("<code>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</code>"))
        #expect(html.contains("<td>a&amp;b&#39;</td>"))
        #expect(HTMLText.escape("a\u{0}b\u{1B}c\td") == "a\u{FFFD}b\u{FFFD}c\td")
    }

    @Test func thePolicyAllowsOnlyThePagesOwnStyle() throws {
        let hash = Base64.encode(SHA256.hash(Array(StatusPage.style.utf8)))
        #expect(StatusPage.contentSecurityPolicy
                == "default-src 'none'; style-src 'sha256-\(hash)'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
        let html = Self.page()
        let styles = html.components(separatedBy: "<style>")
        #expect(styles.count == 2 && styles[1].hasPrefix(StatusPage.style + "</style>"))
        let headers = Dictionary(StatusPage.headers, uniquingKeysWith: { a, _ in a })
        #expect(headers["Content-Type"] == "text/html; charset=utf-8" && headers["X-Content-Type-Options"] == "nosniff")
    }

    @Test func theJSONHasTheSameDataWithRFC3339Times() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(Self.snapshot().json)) as? [String: Any])
        #expect(object["version"] as? String == "0.1.0-test" && object["storage"] as? String == "sqlite")
        #expect(object["uptimeSeconds"] as? Int == 3753 && object["startedAt"] as? String == "2027-01-15T06:57:57.000Z")
        let providers = try #require(object["providers"] as? [[String: Any]])
        let failure = try #require(providers.first?["lastFailure"] as? [String: Any])
        #expect(failure["reason"] as? String == "fcm.unregistered" && failure["at"] as? String == "2027-01-15T07:58:30.000Z")
        #expect(providers.last?["lastFailure"] == nil)
        #expect((object["perMinute"] as? [[String: Any]])?.count == 60)
        #expect(((object["perMinute"] as? [[String: Any]])?[58]["delivered"] as? Int) == 40)
        #expect((object["recent"] as? [[String: Any]])?.first?["notification"] as? String == "01234567")
        #expect(object["registrations"] as? [String: Int] == ["android": 5, "webpush": 2])
    }

    @Test func durationsReadShortly() {
        #expect(StatusPage.duration(0) == "0s" && StatusPage.duration(59.9) == "59s" && StatusPage.duration(61) == "1m 01s")
        #expect(StatusPage.duration(7322) == "2h 02m" && StatusPage.duration(90000) == "1d 01h" && StatusPage.duration(-5) == "0s")
    }

    private static func operations(_ status: NodeStatus?) -> OperationsRoutes {
        OperationsRoutes(metrics: MetricsRegistry(), readiness: { .ready }, status: { status })
    }

    private static func api(servesStatus: Bool) -> APIRouter {
        APIRouter(capabilities: Capabilities(version: "test", platforms: [.webpush], vapidPublicKey: "BKey", limits: Limits()),
                  authenticator: RequestAuthenticator(), rateLimiter: RateLimiter(),
                  handler: { _, _ in HTTPResponse(status: 200) }, operations: operations(snapshot()),
                  servesStatus: servesStatus, log: .discard)
    }

    @Test func theAdminListenerServesItAndThePublicOneOnlyWhenConfigured() {
        let admin = AdminRouter(operations: Self.operations(Self.snapshot()))
        let page = admin.respond(to: HTTPRequest(method: "GET", path: "/status"))
        #expect(page.status == 200 && page.body == StatusPage.render(Self.snapshot()))
        #expect(page.headers.contains { $0 == ("Content-Security-Policy", StatusPage.contentSecurityPolicy) })
        let json = admin.respond(to: HTTPRequest(method: "GET", path: "/status.json"))
        #expect(json.status == 200 && json.body == Self.snapshot().json)
        #expect(admin.respond(to: HTTPRequest(method: "POST", path: "/status")).status == 405)

        for path in ["/status", "/status.json"] {
            #expect(Self.api(servesStatus: false).respond(to: HTTPRequest(method: "GET", path: path)).status == 404)
            #expect(Self.api(servesStatus: true).respond(to: HTTPRequest(method: "GET", path: path)).status == 200)
        }
    }

    @Test func beforeStorageIsOpenItAnswers503Starting() {
        let admin = AdminRouter(operations: Self.operations(nil))
        let answer = admin.respond(to: HTTPRequest(method: "GET", path: "/status.json"))
        #expect(answer.status == 503 && String(decoding: answer.body, as: UTF8.self) == #"{"status":"starting"}"#)
    }
}
