import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushHTTP
@testable import PushService

@Suite struct ServiceRoutesTests {
    private func json(_ response: HTTPResponse?) throws -> [String: Any] {
        let body = try #require(response?.body)
        return try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }

    private func errorOf(_ response: HTTPResponse?) throws -> (code: String, field: String?, message: String) {
        let error = try #require(try json(response)["error"] as? [String: Any])
        return (error["code"] as? String ?? "", error["field"] as? String, error["message"] as? String ?? "")
    }

    private func request(_ method: String, _ path: String, _ body: String = "") -> HTTPRequest {
        HTTPRequest(method: method, path: path, headers: ["content-type": "application/json"], body: Array(body.utf8))
    }

    @Test func unknownRoutesAreNil() throws {
        let fixture = try ServiceFixture()
        let routes = ServiceRoutes(service: fixture.service)
        #expect(routes.handle(request("GET", "/v1/notify"), caller: account(1).accountID) == nil)
        #expect(routes.handle(request("POST", "/v1/tokens/"), caller: account(1).accountID) == nil)
        #expect(routes.handle(request("GET", "/v1/capabilities"), caller: account(1).accountID) == nil)
    }

    @Test func tokenRoundTripNeverShowsTheToken() throws {
        let fixture = try ServiceFixture()
        let routes = ServiceRoutes(service: fixture.service)
        let me = account(1).accountID
        let created = routes.handle(request("POST", "/v1/tokens", #"{"deviceId":"phone","platform":"android","token":"secret-fcm-token","x":1}"#), caller: me)
        #expect(created?.status == 200)
        #expect(created?.headers.contains { $0.0 == "Content-Type" && $0.1 == "application/json" } == true)
        let id = try json(created)["registrationId"] as? String
        #expect(id == RegistrationID.make(platform: .android, appId: "default", environment: "", token: "secret-fcm-token"))

        let listed = routes.handle(request("GET", "/v1/tokens"), caller: me)
        #expect(listed?.status == 200)
        let text = String(decoding: try #require(listed?.body), as: UTF8.self)
        #expect(!text.contains("secret-fcm-token"))
        let registrations = try #require(try json(listed)["registrations"] as? [[String: Any]])
        #expect(registrations.count == 1)
        #expect(Set(registrations[0].keys) == ["registrationId", "deviceId", "platform", "appId", "environment", "createdAt", "updatedAt"])
        #expect(registrations[0]["createdAt"] as? Int == 1_700_000_000)

        let revoked = routes.handle(request("POST", "/v1/tokens/revoke", #"{"deviceId":"phone"}"#), caller: me)
        #expect(try json(revoked)["success"] as? Bool == true)
    }

    @Test func everyRouteAnswersJSON() throws {
        let fixture = try ServiceFixture()
        let routes = ServiceRoutes(service: fixture.service)
        let me = account(1)
        let space = TestSpace(seed: 4)
        let spaceBody = String(decoding: try JSON.encode(space.registration(for: me.accountID)), as: UTF8.self)
        #expect(routes.handle(request("POST", "/v1/spaces", spaceBody), caller: me.accountID)?.body == Array("{}".utf8))
        let topics = String(decoding: try JSON.encode(SubscribeRequest(topics: [space.topic("chats"), space.topic(me.accountID.string)])), as: UTF8.self)
        #expect(try json(routes.handle(request("PUT", "/v1/subscriptions", topics), caller: me.accountID))["count"] as? Int == 2)
        #expect(try json(routes.handle(request("POST", "/v1/subscriptions", topics), caller: me.accountID))["count"] as? Int == 2)
        let listed = try json(routes.handle(request("GET", "/v1/subscriptions"), caller: me.accountID))["topics"] as? [[String: String]]
        #expect(listed?.count == 2 && listed?.allSatisfy { $0["spaceKey"] == space.key.string } == true)
        let remove = #"{"topics":[{"spaceKey":"\#(space.key.string)","topic":"chats"}]}"#
        #expect(try json(routes.handle(request("POST", "/v1/subscriptions/remove", remove), caller: me.accountID))["count"] as? Int == 1)

        let notify = String(decoding: try JSON.encode(NotifyRequest(topics: [space.topic("chats")], message: fixture.message(from: me))), as: UTF8.self)
        let first = try json(routes.handle(request("POST", "/v1/notify", notify), caller: me.accountID))
        #expect(first["duplicate"] as? Bool == false)
        let second = try json(routes.handle(request("POST", "/v1/notify", notify), caller: me.accountID))
        #expect(second["duplicate"] as? Bool == true && second["id"] as? String == first["id"] as? String)
        let silent = #"{"topics":[],"deviceId":"phone"}"#
        #expect(try json(routes.handle(request("POST", "/v1/notify/silent", silent), caller: me.accountID))["duplicate"] as? Bool == false)
        #expect(routes.handle(request("POST", "/v1/spaces/remove", spaceBody), caller: me.accountID)?.status == 200)
    }

    @Test func errorsBecomeProtocolJSON() throws {
        let fixture = try ServiceFixture()
        let routes = ServiceRoutes(service: fixture.service)
        let me = account(1).accountID
        let malformed = routes.handle(request("POST", "/v1/notify", "{not json"), caller: me)
        #expect(malformed?.status == 400)
        #expect(try errorOf(malformed).code == "request.malformed" && errorOf(malformed).field == nil)
        let array = routes.handle(request("POST", "/v1/tokens", "[]"), caller: me)
        #expect(try errorOf(array).code == "request.malformed")
        let missing = routes.handle(request("POST", "/v1/tokens", #"{"deviceId":"d","platform":"android"}"#), caller: me)
        #expect(try errorOf(missing) == ("request.missing_field", "token", "token is required"))
        let wrongType = routes.handle(request("PUT", "/v1/subscriptions", #"{"topics":[{"spaceKey":"x","topic":"t","signature":1}]}"#), caller: me)
        #expect(try errorOf(wrongType).code == "request.invalid_field")
        let disabled = ServiceRoutes(service: PushService(store: fixture.store, configuration: .init(enabledPlatforms: [.webpush])))
            .handle(request("POST", "/v1/tokens", #"{"deviceId":"d","platform":"ios","token":"t"}"#), caller: me)
        #expect(disabled?.status == 409)
        #expect(try errorOf(disabled).code == "platform.disabled")
    }

    @Test func storeFailuresAreStorageUnavailableWithoutDetails() throws {
        let fixture = try ServiceFixture()
        let seen = Box([String]())
        let routes = ServiceRoutes(service: fixture.service) { error in seen.mutate { $0.append("\(error)") } }
        fixture.store.close()
        let response = routes.handle(request("GET", "/v1/subscriptions"), caller: account(1).accountID)
        #expect(response?.status == 503)
        #expect(response?.headers.contains { $0 == ("Retry-After", String(ErrorJSON.storageRetryAfter)) } == true)
        #expect(try errorOf(response) == ("storage.unavailable", nil, "storage is unavailable; retry later"))
        #expect(seen.current == ["closed"])
    }
}
