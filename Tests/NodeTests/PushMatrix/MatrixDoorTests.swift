import Foundation
import PushCrypto
import PushNet
import PushProtocol
import Testing
@testable import PushDelivery
@testable import PushMatrix
@testable import PushMetrics
@testable import PushService
@testable import PushStore

/// The Matrix door on a memory store: parsing and its Matrix errors, `matrix.apps`, the
/// pushkey rules, content kept out, the answer's `rejected`, the allow list and the rate limits.
@Suite struct MatrixDoorTests {
    static let apnsToken = [UInt8](repeating: 0xab, count: 32)

    static func configuration(forwardContent: Bool = false) -> MatrixDoorConfiguration {
        var configuration = MatrixDoorConfiguration()
        configuration.enabled = true
        configuration.forwardContent = forwardContent
        configuration.apps = [
            MatrixAppRoute(appId: "im.android", app: "default", platform: .android),
            MatrixAppRoute(appId: "im.ios.*", app: "default", platform: .apns, environment: "development"),
            MatrixAppRoute(appId: "im.up", app: "default", platform: .webpush),
        ]
        return configuration
    }

    static func body(_ devices: [[String: Any]], extra: [String: Any] = [:]) -> [UInt8] {
        var notification: [String: Any] = ["event_id": "$e", "room_id": "!r:x", "type": "m.room.message", "sender": "@a:x",
                                           "content": ["body": "secret words", "msgtype": "m.text"],
                                           "counts": ["unread": 1], "devices": devices]
        notification.merge(extra) { $1 }
        return JSON.document(["notification": notification])
    }

    static func door(_ fixture: ServiceFixture, _ configuration: MatrixDoorConfiguration = configuration(),
                     dead: DeadPushkeys = DeadPushkeys()) -> MatrixDoor {
        MatrixDoor(configuration: configuration, service: fixture.service, dead: dead, metrics: MetricsRegistry(), log: .discard)
    }

    static func rejected(_ answer: MatrixDoor.Answer) -> [String]? {
        (JSON.object(answer.body)?["rejected"] as? [String])
    }

    @Test func malformedRequestsAnswerMatrixErrors() throws {
        let door = Self.door(try ServiceFixture())
        func code(_ text: String) -> (Int, String?) {
            let answer = door.notify(body: Array(text.utf8), source: nil)
            return (answer.status, JSON.object(answer.body)?["errcode"] as? String)
        }
        #expect(code("{nope") == (400, "M_NOT_JSON"))
        #expect(code("{}") == (400, "M_MISSING_PARAM"))
        #expect(code(#"{"notification":{"devices":[{"pushkey":"k"}]}}"#) == (400, "M_MISSING_PARAM"))
        #expect(code(#"{"notification":{"devices":{}}}"#) == (400, "M_BAD_JSON"))
        #expect(code(#"{"notification":{"devices":[],"prio":3}}"#) == (400, "M_BAD_JSON"))
        #expect(code(#"{"notification":{"devices":[],"content":"text"}}"#) == (400, "M_BAD_JSON"))
        #expect(code(#"{"notification":{"devices":[],"type":null,"sender":""}}"#) == (200, nil))
    }

    @Test func eachDeviceIsQueuedUnderItsRouteWithoutContent() throws {
        let fixture = try ServiceFixture()
        let door = Self.door(fixture)
        let devices: [[String: Any]] = [
            ["app_id": "im.android", "pushkey": "fcm-token_1:x"],
            ["app_id": "im.ios.beta", "pushkey": Base64.encode(Self.apnsToken), "data": ["default_payload": ["k": "v"]]],
            ["app_id": "im.up", "pushkey": "https://push.example.net/up/1"],
        ]
        let answer = door.notify(body: Self.body(devices), source: IPAddress("127.0.0.1"))
        #expect(answer.status == 200 && Self.rejected(answer) == [])
        let entries = try fixture.drain().sorted { $0.registration.address.platform.rawValue < $1.registration.address.platform.rawValue }
        #expect(entries.map(\.registration.address.platform) == [.android, .apns, .webpush])
        #expect(entries.map(\.registration.address.token) == ["fcm-token_1:x", Hex.encode(Self.apnsToken), "https://push.example.net/up/1"])
        #expect(entries[1].registration.address.environment == "development")
        #expect(Set(entries.map(\.registration.account)) == [MatrixDispatch.account])
        let push = try #require(try JSON.decode(MatrixPush.self, from: entries[0].notification.payload ?? []))
        #expect(push == MatrixPush(MatrixNotification(eventId: "$e", roomId: "!r:x", counts: .init(unread: 1)), appId: "im.android"))
        #expect(entries[0].notification.keyId == MatrixPush.storageTag)
        #expect(!String(decoding: entries.flatMap { $0.notification.payload ?? [] }, as: UTF8.self).contains("secret"))
    }

    @Test func contentIsKeptWhenForwardingIsOn() throws {
        let fixture = try ServiceFixture()
        let door = Self.door(fixture, Self.configuration(forwardContent: true))
        _ = door.notify(body: Self.body([["app_id": "im.android", "pushkey": "tok"]]), source: nil)
        let push = try JSON.decode(MatrixPush.self, from: try #require(try fixture.drain().first?.notification.payload))
        #expect(push.type == "m.room.message" && push.sender == "@a:x")
        #expect(push.content == .object([("body", .string("secret words")), ("msgtype", .string("m.text"))]))
    }

    @Test func rejectedPushkeys() throws {
        let fixture = try ServiceFixture()
        let dead = DeadPushkeys()
        let door = Self.door(fixture, dead: dead)
        let deadRoute = Self.configuration().apps[0]
        dead.insert(MatrixPushkey.registrationId(pushkey: "gone", route: deadRoute))
        let devices: [[String: Any]] = [
            ["app_id": "other.app", "pushkey": "a"], ["app_id": "im.ios.x", "pushkey": "not base64!"],
            ["app_id": "im.ios.x", "pushkey": Base64.encode([1, 2, 3])], ["app_id": "im.android", "pushkey": "has space"],
            ["app_id": "im.up", "pushkey": "https://10.0.0.1/up"], ["app_id": "im.android", "pushkey": "gone"],
            ["app_id": "im.android", "pushkey": "fine"],
        ]
        let answer = door.notify(body: Self.body(devices), source: nil)
        #expect(Self.rejected(answer) == ["a", "not base64!", Base64.encode([1, 2, 3]), "has space", "https://10.0.0.1/up", "gone"])
        #expect(try fixture.drain().map(\.registration.address.token) == ["fine"])
    }

    /// A route to an app without credentials for its platform is the node's mistake: the pushkey
    /// is neither queued nor rejected (the pusher stays).
    @Test func aPlatformTheAppCannotSendIsNotQueuedNorRejected() throws {
        let fixture = try ServiceFixture(PushService.Configuration(enabledPlatforms: [.android]))
        let devices: [[String: Any]] = [["app_id": "im.ios.x", "pushkey": Base64.encode(Self.apnsToken)],
                                        ["app_id": "im.android", "pushkey": "tok"]]
        let answer = Self.door(fixture).notify(body: Self.body(devices), source: nil)
        #expect(answer.status == 200 && Self.rejected(answer) == [])
        #expect(try fixture.drain().map(\.registration.address.platform) == [.android])
    }

    @Test func theSameEventToTheSameDeviceIsQueuedOnce() throws {
        let fixture = try ServiceFixture()
        let door = Self.door(fixture)
        let body = Self.body([["app_id": "im.android", "pushkey": "tok"]])
        #expect(door.notify(body: body, source: nil).status == 200)
        #expect(door.notify(body: body, source: nil).status == 200)
        #expect(try fixture.drain().count == 1)
        // A badge update has no event: each is queued.
        let badge = Array(#"{"notification":{"counts":{"unread":0},"devices":[{"app_id":"im.android","pushkey":"tok"}]}}"#.utf8)
        _ = door.notify(body: badge, source: nil)
        _ = door.notify(body: badge, source: nil)
        #expect(try fixture.drain().count == 2)
    }

    @Test func allowListAndRateLimits() throws {
        let fixture = try ServiceFixture()
        var configuration = Self.configuration()
        configuration.allowedSources = [IPNetwork("192.0.2.0/24")!]
        configuration.pushkeyBurst = 2
        configuration.sourceBurst = 3
        let now = Box(0.0)
        let door = MatrixDoor(configuration: configuration, service: fixture.service, dead: DeadPushkeys(),
                              metrics: MetricsRegistry(), log: .discard, now: { now.current })
        let body = { (event: String) in Self.body([["app_id": "im.android", "pushkey": "tok"]], extra: ["event_id": event]) }
        #expect(door.notify(body: body("$1"), source: IPAddress("198.51.100.1")).status == 403)
        #expect(door.notify(body: body("$1"), source: nil).status == 403)
        let inside = IPAddress("192.0.2.7")
        #expect(door.notify(body: body("$1"), source: inside).status == 200)
        #expect(door.notify(body: body("$2"), source: inside).status == 200)
        let limited = door.notify(body: body("$3"), source: inside)
        #expect(limited.status == 429 && JSON.object(limited.body)?["errcode"] as? String == "M_LIMIT_EXCEEDED")
        #expect(door.notify(body: body("$4"), source: inside).status == 429)  // the source's burst is spent
        now.mutate { $0 = 3600 }
        #expect(door.notify(body: body("$5"), source: inside).status == 200)
    }

    @Test func appRoutesMatchExactlyOrByTrailingStar() {
        let routes = [MatrixAppRoute(appId: "a.b", app: "x", platform: .android),
                      MatrixAppRoute(appId: "a.*", app: "y", platform: .apns)]
        #expect(routes.route(for: "a.b")?.app == "x")
        #expect(routes.route(for: "a.c")?.app == "y")
        #expect(routes.route(for: "a.")?.app == "y")
        #expect(routes.route(for: "b.a") == nil && routes.route(for: "a") == nil)
    }

    @Test func networksContainTheirAddresses() {
        let network = IPNetwork("10.1.0.0/16")!
        #expect(network.contains(IPAddress("10.1.200.3")!) && !network.contains(IPAddress("10.2.0.1")!))
        #expect(network.contains(IPAddress("::ffff:10.1.0.9")!))
        #expect(IPNetwork("::1")!.contains(IPAddress("::1")!) && !IPNetwork("::1")!.contains(IPAddress("::2")!))
        #expect(IPNetwork("0.0.0.0/0")!.contains(IPAddress("203.0.113.1")!))
        #expect(IPNetwork("10.0.0.0/33") == nil && IPNetwork("example.org") == nil)
    }

    @Test func deadPushkeysForgetTheOldestPastCapacity() {
        let dead = DeadPushkeys(capacity: 2)
        for id in ["a", "b", "c"] { dead.insert(id) }
        #expect(!dead.contains("a") && dead.contains("b") && dead.contains("c"))
    }
}
