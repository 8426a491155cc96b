import PushCrypto
import Testing
@testable import PushProtocol

/// A body as bytes.
private func body(_ json: String) -> [UInt8] { Array(json.utf8) }

private func decodeError<T: Decodable>(_ type: T.Type, _ json: String) -> APIError? {
    do {
        _ = try JSON.decode(type, from: body(json))
        return nil
    } catch let error as APIError {
        return error
    } catch {
        Issue.record("not an APIError: \(error)")
        return nil
    }
}

private let keyA = "4wBqpZM9xaSheZzJSMawUKKwhdpChKbZ5eu5ky4Vigw"  // base58 of bytes 1...32
private let sig64 = Base64.encode([UInt8](repeating: 9, count: 64))

@Suite struct WireDecoderTests {
    @Test(arguments: ["", "not json", "[1,2]", "\"text\"", "42", "null", "{\"deviceId\": ", "{\"a\":1}}"])
    func notAnObjectIsMalformed(json: String) {
        let error = decodeError(SetTokenRequest.self, json)
        #expect(error?.code == .requestMalformed)
        #expect(error?.field == nil)
    }

    struct FieldCase: Sendable, CustomTestStringConvertible {
        let json: String
        let code: APIError.Code
        let field: String
        var testDescription: String { "\(field) \(code.rawValue)" }
    }

    static let tokenCases: [FieldCase] = [
        .init(json: #"{"platform":"android","token":"t"}"#, code: .missingField, field: "deviceId"),
        .init(json: #"{"deviceId":null,"platform":"android","token":"t"}"#, code: .missingField, field: "deviceId"),
        .init(json: #"{"deviceId":"d","token":"t"}"#, code: .missingField, field: "platform"),
        .init(json: #"{"deviceId":"d","platform":"android"}"#, code: .missingField, field: "token"),
        .init(json: #"{"deviceId":7,"platform":"android","token":"t"}"#, code: .invalidField, field: "deviceId"),
        .init(json: #"{"deviceId":"d","platform":"blackberry","token":"t"}"#, code: .invalidField, field: "platform"),
        .init(json: #"{"deviceId":"d","platform":true,"token":"t"}"#, code: .invalidField, field: "platform"),
        .init(json: #"{"deviceId":"d","platform":"webpush","token":"t","p256dh":"!!"}"#, code: .invalidField, field: "p256dh"),
        .init(json: #"{"deviceId":"d","platform":"webpush","token":"t","auth":[1]}"#, code: .invalidField, field: "auth"),
        .init(json: #"{"deviceId":"d","platform":"apns","token":"t","environment":1}"#, code: .invalidField, field: "environment"),
    ]

    @Test(arguments: tokenCases)
    func setTokenFieldErrors(_ c: FieldCase) {
        let error = decodeError(SetTokenRequest.self, c.json)
        #expect(error?.code == c.code)
        #expect(error?.field == c.field)
    }

    static let notifyCases: [FieldCase] = [
        .init(json: #"{"message":{"keyId":"k","payload":"AAAA","signature":"AAAA"}}"#, code: .missingField, field: "topics"),
        .init(json: #"{"topics":[],"replaces":"yes"}"#, code: .invalidField, field: "replaces"),
        .init(json: #"{"topics":[],"kind":"clear","replaces":1}"#, code: .invalidField, field: "replaces"),
        .init(json: #"{"topics":{},"message":{}}"#, code: .invalidField, field: "topics"),
        .init(json: #"{"topics":[{"spaceKey":"\#(keyA)","topic":"chats"}],"message":{}}"#, code: .missingField, field: "topics[0].signature"),
        .init(json: #"{"topics":[{"spaceKey":"\#(keyA)","topic":"a","signature":"\#(sig64)"},{"spaceKey":"\#(keyA)","topic":"b","signature":"\#(sig64)"},{"spaceKey":"\#(keyA)","topic":"c","signature":5}],"message":{}}"#, code: .invalidField, field: "topics[2].signature"),
        .init(json: #"{"topics":[{"spaceKey":"\#(keyA)","topic":"a","signature":"not base64!"}],"message":{}}"#, code: .invalidField, field: "topics[0].signature"),
        .init(json: #"{"topics":[{"spaceKey":"0OIl","topic":"a","signature":"\#(sig64)"}],"message":{}}"#, code: .invalidField, field: "topics[0].spaceKey"),
        .init(json: #"{"topics":[{"spaceKey":"abc","topic":"a","signature":"\#(sig64)"}],"message":{}}"#, code: .invalidField, field: "topics[0].spaceKey"),
        .init(json: #"{"topics":[{"spaceKey":"\#(keyA)","topic":1,"signature":"\#(sig64)"}],"message":{}}"#, code: .invalidField, field: "topics[0].topic"),
        .init(json: #"{"topics":[],"message":{"keyId":"k","signature":"\#(sig64)"}}"#, code: .missingField, field: "message.payload"),
        .init(json: #"{"topics":[],"message":{"keyId":"k","payload":"%%%","signature":"\#(sig64)"}}"#, code: .invalidField, field: "message.payload"),
        .init(json: #"{"topics":[],"message":{"keyId":"k","payload":"AAAA","signature":"\#(sig64)"},"kind":"loud"}"#, code: .invalidField, field: "kind"),
        .init(json: #"{"topics":[],"message":{"keyId":"k","payload":"AAAA","signature":"\#(sig64)"},"ttl":"60"}"#, code: .invalidField, field: "ttl"),
        .init(json: #"{"topics":[],"message":{"keyId":"k","payload":"AAAA","signature":"\#(sig64)"},"ttl":1.5}"#, code: .invalidField, field: "ttl"),
        .init(json: #"{"topics":[],"message":{"keyId":"k","payload":"AAAA","signature":"\#(sig64)"},"ttl":1e30}"#, code: .invalidField, field: "ttl"),
        .init(json: #"{"topics":[],"message":{"keyId":"k","payload":"AAAA","signature":"\#(sig64)"},"groupId":false}"#, code: .invalidField, field: "groupId"),
    ]

    @Test(arguments: notifyCases)
    func notifyFieldErrors(_ c: FieldCase) {
        let error = decodeError(NotifyRequest.self, c.json)
        #expect(error?.code == c.code)
        #expect(error?.field == c.field)
    }

    @Test func unknownFieldsAreIgnored() throws {
        let request = try JSON.decode(SetTokenRequest.self, from: body(
            #"{"deviceId":"d1","platform":"apns_voip","token":"abcd","extra":{"deep":[1,2]},"appId":"com.x"}"#))
        #expect(request == SetTokenRequest(deviceId: "d1", platform: .apnsVoip, token: "abcd", appId: "com.x"))
    }

    @Test func revokeForms() throws {
        #expect(try JSON.decode(RevokeTokenRequest.self, from: body(#"{"deviceId":"d"}"#)).target == .device("d"))
        #expect(try JSON.decode(RevokeTokenRequest.self, from: body(#"{"token":"t","platform":"ios"}"#)).target
                == .token("t", .ios))
        #expect(decodeError(RevokeTokenRequest.self, #"{"token":"t"}"#)?.field == "platform")
        #expect(decodeError(RevokeTokenRequest.self, #"{"platform":"ios"}"#)?.field == "token")
        #expect(decodeError(RevokeTokenRequest.self, "{}") == .missing("deviceId"))
    }

    @Test func notifyRoundTrips() throws {
        let key = try SpaceKey(publicKey: Array(1...32))
        #expect(key.string == keyA)
        let request = NotifyRequest(
            topics: [Topic(spaceKey: key, topic: "chats/ü", signature: [UInt8](repeating: 3, count: 64))],
            message: NotifyMessage(keyId: String(repeating: "ab", count: 32), payload: Array(0..<40),
                                   signature: [UInt8](repeating: 4, count: 64)),
            groupId: "g", kind: .call, ttl: 45)
        let bytes = try JSON.encode(request)
        #expect(try JSON.decode(NotifyRequest.self, from: bytes) == request)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""spaceKey":"\#(keyA)""#))
        #expect(text.contains(#""payload":"\#(Base64.encode(Array(0..<40)))""#))
    }

    @Test func webPushKeysAreBase64URL() throws {
        let request = try JSON.decode(SetTokenRequest.self, from: body(
            #"{"deviceId":"d","platform":"webpush","token":"https://x","p256dh":"_-8","auth":"_-8="}"#))
        #expect(request.p256dh == [0xff, 0xef])
        #expect(request.auth == [0xff, 0xef])
    }

    @Test func fieldPathRendering() {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { self.stringValue = stringValue }
            init(intValue: Int) { self.stringValue = "Index \(intValue)"; self.intValue = intValue }
        }
        #expect(FieldPath.render([Key(stringValue: "topics"), Key(intValue: 2), Key(stringValue: "signature")])
                == "topics[2].signature")
        #expect(FieldPath.render([Key(stringValue: "message"), Key(stringValue: "payload")]) == "message.payload")
    }
}
