import Foundation
import PushProtocol
import Testing
@testable import PushDelivery

/// The provider requests of a Matrix push (Spec/matrix.md): sygnal's FCM data and APNs payloads,
/// and the UnifiedPush gateway body.
@Suite struct MatrixShapesTests {
    static let payload = JSONValue.object([("aps", .object([("mutable-content", .int(1))])), ("custom", .string("x"))])

    static func full(type: String = "m.room.message", content: JSONValue? = .object([("body", .string("hello")), ("msgtype", .string("m.text"))]),
                     roomName: String? = "Room", unread: Int? = 2, missed: Int? = nil) -> MatrixPush {
        MatrixPush(MatrixNotification(eventId: "$e", roomId: "!r:x", type: type, sender: "@a:x", senderDisplayName: "Alice",
                                      roomName: roomName, prio: .high, content: content,
                                      counts: .init(unread: unread, missedCalls: missed)),
                   appId: "app", data: .object([("default_payload", payload)]))
    }

    @Test func fcmDataFollowsSygnal() {
        let data = Dictionary(uniqueKeysWithValues: MatrixFCMData.pairs(for: Self.full(missed: 1)))
        #expect(data == ["custom": "x", "aps": #"{"mutable-content":1}"#, "event_id": "$e", "type": "m.room.message",
                         "sender": "@a:x", "room_name": "Room", "sender_display_name": "Alice", "content_body": "hello",
                         "content_msgtype": "m.text", "room_id": "!r:x", "prio": "high", "unread": "2", "missed_calls": "1"])
        var low = Self.full().withoutContent
        low.notification.prio = .low
        low.data = nil
        #expect(MatrixFCMData.pairs(for: low).map(\.0) == ["event_id", "room_id", "prio", "unread"])
        #expect(MatrixFCMData.pairs(for: low).first { $0.0 == "prio" }?.1 == "normal")
    }

    @Test func longFieldsAreCutOnACharacterWithAnEllipsis() {
        let cut = MatrixFCMData.truncated(String(repeating: "é", count: 600))
        #expect(cut.utf8.count <= MatrixFCMData.fieldLimit && cut.hasSuffix("…"))
        #expect(MatrixFCMData.truncated("short") == "short")
    }

    @Test func apnsEventIdOnlyMergesTheDefaultPayload() throws {
        let payload = try #require(MatrixAPNsPayload.payload(for: Self.full(missed: 1).withoutContent))
        #expect(String(decoding: payload.bytes, as: UTF8.self)
            == #"{"aps":{"mutable-content":1},"custom":"x","room_id":"!r:x","event_id":"$e","unread_count":2,"missed_calls":1}"#)
    }

    @Test func apnsFullEventHasTheLocalisedAlertAndBadge() throws {
        let payload = try #require(MatrixAPNsPayload.payload(for: Self.full(missed: 1)))
        #expect(String(decoding: payload.bytes, as: UTF8.self) == #"{"aps":{"mutable-content":1,"alert":{"loc-key":"#
            + #""MSG_FROM_USER_IN_ROOM_WITH_CONTENT","loc-args":["Alice","Room","hello"]},"badge":3},"custom":"x","#
            + #""room_id":"!r:x","event_id":"$e"}"#)
    }

    @Test func apnsAlertKeysByEventType() {
        func key(_ push: MatrixPush) -> String? {
            MatrixAPNsPayload.payload(for: push)?.members?.first { $0.0 == "aps" }?.1.members?
                .first { $0.0 == "alert" }?.1.members?.first { $0.0 == "loc-key" }?.1.text
        }
        #expect(key(Self.full(roomName: nil)) == "MSG_FROM_USER_WITH_CONTENT")
        #expect(key(Self.full(content: .object([("body", .string("waves")), ("msgtype", .string("m.emote"))]))) == "ACTION_FROM_USER_IN_ROOM")
        #expect(key(Self.full(content: .object([("body", .string("i.png")), ("msgtype", .string("m.image"))]))) == "IMAGE_FROM_USER_IN_ROOM")
        #expect(key(Self.full(content: nil)) == "MSG_FROM_USER_IN_ROOM")
        let video = JSONValue.object([("offer", .object([("sdp", .string("v=0\r\nm=video 9"))]))])
        #expect(key(Self.full(type: "m.call.invite", content: video)) == "VIDEO_CALL_FROM_USER")
        #expect(key(Self.full(type: "m.call.invite", content: nil)) == "VOICE_CALL_FROM_USER")
        var invite = Self.full(type: "m.room.member", content: nil)
        invite.notification.membership = "invite"
        invite.notification.userIsTarget = true
        #expect(key(invite) == "USER_INVITE_TO_NAMED_ROOM")
        #expect(key(Self.full(type: "m.sticker")) == "MSG_FROM_USER")
        // A member event not inviting the user shows nothing; without a badge nothing is sent.
        #expect(MatrixAPNsPayload.payload(for: Self.full(type: "m.room.member", content: nil, unread: nil)) == nil)
    }

    @Test func apnsBadgeOnly() {
        let badge = MatrixPush(MatrixNotification(counts: .init(unread: 4)), appId: "app",
                               data: .object([("default_payload", Self.payload)]))
        #expect(MatrixAPNsPayload.payload(for: badge) == .object([("aps", .object([("badge", .int(4))]))]))
        #expect(MatrixAPNsPayload.payload(for: MatrixPush(appId: "app")) == nil)
    }

    @Test func unifiedPushBodyIsTheNotificationForThisDevice() {
        let push = MatrixPush(MatrixNotification(eventId: "$e", roomId: "!r:x", prio: .low, counts: .init(unread: 1)),
                              appId: "up", pushkeyTs: 9, data: .object([("format", .string("event_id_only"))]))
        #expect(String(decoding: MatrixUnifiedPushBody.body(for: push, pushkey: "https://up.example/t"), as: UTF8.self)
            == #"{"notification":{"event_id":"$e","room_id":"!r:x","prio":"low","counts":{"unread":1},"devices":"#
            + #"[{"app_id":"up","pushkey":"https://up.example/t","pushkey_ts":9,"data":{"format":"event_id_only"}}]}}"#)
    }

    @Test func theGatewaysSendMatrixShapes() throws {
        var job = Fixtures.job(.android)
        job.matrix = Self.full()
        let fcm = try FCMGateway.buildRequest(job: job, credential: "t", configuration: .init(
            projectId: "p", baseURL: "https://f", defaultAlert: .standard), now: Fixtures.now)
        let message = Fixtures.json(fcm.body)["message"] as? [String: Any]
        #expect((message?["android"] as? [String: Any])?["priority"] as? String == "HIGH")
        #expect((message?["data"] as? [String: String])?["event_id"] == "$e")
        #expect(message?["apns"] == nil)

        var apnsJob = Fixtures.job(.apns)
        apnsJob.matrix = Self.full()
        let apns = try APNsGateway.buildRequest(job: apnsJob, credential: "jwt", configuration: .init(
            topic: "org.example", host: .byEnvironment, defaultAlert: .standard), now: Fixtures.now)
        #expect(apns.header("apns-push-type") == "alert" && apns.header("apns-priority") == "10")
        #expect(apns.body == MatrixAPNsPayload.payload(for: Self.full())?.bytes)
        apnsJob.matrix = MatrixPush(appId: "app")
        #expect(throws: GatewayError.unsupportedKind) {
            try APNsGateway.buildRequest(job: apnsJob, credential: "jwt", configuration: .init(
                topic: "o", host: .byEnvironment, defaultAlert: .standard), now: Fixtures.now)
        }
    }

    @Test func anyPrioButLowIsHigh() throws {
        #expect(try JSON.decode(MatrixNotification.self, from: Array(#"{"prio":"urgent"}"#.utf8)).prio == .high)
        #expect(try JSON.decode(MatrixNotification.self, from: Array(#"{"prio":"low"}"#.utf8)).prio == .low)
        #expect(MatrixPush(appId: "a").prio == .high)
    }

    @Test func storedFormRoundTrips() throws {
        let push = Self.full(missed: 3)
        #expect(try JSON.decode(MatrixPush.self, from: JSON.encode(push)) == push)
    }
}
