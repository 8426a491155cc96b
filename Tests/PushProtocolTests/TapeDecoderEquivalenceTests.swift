import Foundation
import PushCrypto
import Testing
@testable import PushProtocol

/// What a decoding ended in: the value (re-encoded, so strings compare byte for byte, not as Swift
/// strings do) or the `APIError` (status, code, field and message).
enum DecodeOutcome: Equatable, CustomStringConvertible {
    case value(String)
    case error(APIError)
    case unexpected(String)

    init<T: Encodable>(_ decode: () throws -> T) {
        do {
            self = .value(String(decoding: try JSON.foundationEncode(try decode()), as: UTF8.self))
        } catch let error as APIError {
            self = .error(error)
        } catch {
            self = .unexpected("\(error)")
        }
    }

    var description: String {
        switch self {
        case .value(let text): "value \(text)"
        case .error(let error): "error \(error)"
        case .unexpected(let text): "unexpected \(text)"
        }
    }
}

/// Every request type a route decodes, as one comparison each: the body through `JSON.decode`
/// (the tape first) against `JSON.foundationDecode` (Foundation alone), and what the tape alone gave.
struct RequestType: Sendable, CustomTestStringConvertible {
    let name: String
    /// (the node's answer, Foundation's answer, the tape's value or nil when it declined)
    let compare: @Sendable ([UInt8]) -> (node: DecodeOutcome, reference: DecodeOutcome, tape: DecodeOutcome?)

    var testDescription: String { name }

    static func of<T: Codable & SendableMetatype>(_ type: T.Type) -> RequestType {
        RequestType(name: "\(T.self)") { body in
            let tape = TapeDecoder.decode(T.self, from: body).map { value in DecodeOutcome { value } }
            return (DecodeOutcome { try JSON.decode(T.self, from: body) },
                    DecodeOutcome { try JSON.foundationDecode(T.self, from: body) }, tape)
        }
    }

    static let all: [RequestType] = [
        .of(NotifyRequest.self), .of(NotifySilentRequest.self), .of(SetTokenRequest.self), .of(RevokeTokenRequest.self),
        .of(SpaceRequest.self), .of(SubscribeRequest.self), .of(UnsubscribeRequest.self),
    ]
}

/// Valid bodies of the hot routes, as the node's own encoders and the vectors write them.
enum WireBodies {
    static let spaceKey = try! SpaceKey(publicKey: Array(1...32))
    static let sig64 = [UInt8](repeating: 9, count: 64)
    static let topic = Topic(spaceKey: spaceKey, topic: "chats/ü 💬", signature: sig64)
    static let message = NotifyMessage(keyId: String(repeating: "ab", count: 32), payload: Array(0..<40), signature: sig64)

    static var encoded: [[UInt8]] {
        [
            try! JSON.encode(NotifyRequest(topics: [topic, Topic(spaceKey: spaceKey, topic: "b", signature: sig64)],
                                                  message: message, groupId: "g-1", kind: .call, ttl: 45, replaces: true)),
            try! JSON.encode(NotifyRequest(topics: [topic], message: nil)),
            try! JSON.encode(NotifySilentRequest(topics: [topic], message: message, groupId: "g", ttl: 60, deviceId: "d1")),
            try! JSON.encode(SetTokenRequest(deviceId: "d1", platform: .webpush, token: "https://push.example/x",
                                                    p256dh: Array(0..<65), auth: Array(0..<16), appId: "app", environment: "")),
            try! JSON.encode(SpaceRequest(spaceKey: spaceKey, signature: sig64)),
            try! JSON.encode(SubscribeRequest(topics: [topic])),
            try! JSON.encode(UnsubscribeRequest(topics: [topic.ref])),
            Array(#"{"deviceId":"d1"}"#.utf8),
            Array(#"{"token":"t","platform":"ios"}"#.utf8),
        ]
    }

    /// The request bodies of `Spec/vectors/http-signature-profile.json`.
    static var vectors: [[UInt8]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try! Data(contentsOf: root.appendingPathComponent("Spec/vectors/http-signature-profile.json"))
        let object = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (object["cases"] as! [[String: Any]]).compactMap { $0["body"] as? String }.filter { !$0.isEmpty }.map { Array($0.utf8) }
    }
}

@Suite struct TapeDecoderEquivalenceTests {
    private static let key = "4wBqpZM9xaSheZzJSMawUKKwhdpChKbZ5eu5ky4Vigw"
    private static let sig = Base64.encode([UInt8](repeating: 9, count: 64))
    private static let payload = Base64.encode([UInt8](repeating: 7, count: 40))
    private static let hex = String(repeating: "ab", count: 32)
    private static let topic = #"{"spaceKey":"\#(key)","topic":"chats","signature":"\#(sig)"}"#
    private static let msg = #"{"keyId":"\#(hex)","payload":"\#(payload)","signature":"\#(sig)"}"#

    /// Edge cases: each is compared for every request type.
    static let edgeBodies: [String] = [
        // Not JSON, not an object, trailing garbage, byte-order mark, whitespace.
        "", " ", "null", "42", "\"x\"", "[]", "[{}]", "{", "}", "{}", "{} ", " \r\n\t{}\n", "{}x", "{},", "{}{}", "\u{FEFF}{}",
        #"{"topics":[]}"#, #"{"topics":[] }  "#, #"{"topics":[]}]"#, #"{"topics":[],}"#, #"{,"topics":[]}"#, #"{"topics" []}"#,
        // Duplicate keys (Foundation keeps the first).
        #"{"topics":[],"topics":[\#(topic)]}"#, #"{"topics":[\#(topic)],"topics":7}"#, #"{"deviceId":"a","deviceId":"b"}"#,
        #"{"topics":[{"spaceKey":"\#(key)","topic":"a","topic":"b","signature":"\#(sig)"}]}"#,
        // Escaped and non-ASCII keys (Foundation unescapes them and compares as Swift strings).
        #"{"\u0074opics":[]}"#, #"{"topic\u0073":[\#(topic)]}"#, "{\"deviceId\":\"d\",\"platform\":\"ios\",\"to\u{212A}en\":\"t\"}",
        "{\"spaceKey\":\"\(key)\",\"signature\":\"\(sig)\",\"spaceK\u{212A}ey\":1}", "{\"spaceKe\u{212A}\":\"\(key)\",\"signature\":\"\(sig)\"}",
        // Strings: escapes, unicode escapes, surrogate pairs, lone surrogates, control characters, raw UTF-8.
        #"{"topics":[{"spaceKey":"\#(key)","topic":"a\"b\\c\/d\b\f\n\r\t","signature":"\#(sig)"}]}"#,
        #"{"topics":[{"spaceKey":"\#(key)","topic":"\u00fc\u20ac\ud83d\udcac","signature":"\#(sig)"}]}"#,
        #"{"topics":[{"spaceKey":"\#(key)","topic":"\ud83d","signature":"\#(sig)"}]}"#,
        #"{"topics":[{"spaceKey":"\#(key)","topic":"\udcac","signature":"\#(sig)"}]}"#,
        #"{"topics":[{"spaceKey":"\#(key)","topic":"\ud83d\u0041","signature":"\#(sig)"}]}"#,
        #"{"topics":[{"spaceKey":"\#(key)","topic":"\u0000","signature":"\#(sig)"}]}"#,
        #"{"topics":[{"spaceKey":"\#(key)","topic":"\uZZZZ","signature":"\#(sig)"}]}"#,
        #"{"topics":[{"spaceKey":"\#(key)","topic":"\x","signature":"\#(sig)"}]}"#,
        "{\"topics\":[{\"spaceKey\":\"\(key)\",\"topic\":\"a\u{1}b\",\"signature\":\"\(sig)\"}]}",
        "{\"topics\":[{\"spaceKey\":\"\(key)\",\"topic\":\"a\u{7f}b\",\"signature\":\"\(sig)\"}]}",
        "{\"topics\":[{\"spaceKey\":\"\(key)\",\"topic\":\"e\u{301} é ﬁ 𝄞\",\"signature\":\"\(sig)\"}]}",
        #"{"topics":[],"x":"\ud800","y":"\q"}"#, #"{"deviceId":"d\u00e9","platform":"android","token":"t"}"#,
        // Numbers.
        #"{"topics":[],"ttl":60}"#, #"{"topics":[],"ttl":0}"#, #"{"topics":[],"ttl":-0}"#, #"{"topics":[],"ttl":-5}"#,
        #"{"topics":[],"ttl":1.0}"#, #"{"topics":[],"ttl":1e2}"#, #"{"topics":[],"ttl":1E+2}"#, #"{"topics":[],"ttl":1.5}"#,
        #"{"topics":[],"ttl":01}"#, #"{"topics":[],"ttl":+1}"#, #"{"topics":[],"ttl":.5}"#, #"{"topics":[],"ttl":1.}"#,
        #"{"topics":[],"ttl":-}"#, #"{"topics":[],"ttl":123456789012345678}"#, #"{"topics":[],"ttl":1234567890123456789}"#,
        #"{"topics":[],"ttl":9223372036854775807}"#, #"{"topics":[],"ttl":9223372036854775808}"#, #"{"topics":[],"ttl":1e999}"#,
        #"{"topics":[],"ttl":"60"}"#, #"{"topics":[],"ttl":null}"#, #"{"topics":[],"ttl":true}"#, #"{"topics":[],"x":01}"#,
        #"{"topics":[],"x":-}"#, #"{"topics":[],"x":1e999,"y":-0.0e-0}"#,
        // Literals, nulls, wrong types.
        #"{"topics":[],"replaces":true}"#, #"{"topics":[],"replaces":false}"#, #"{"topics":[],"replaces":tru}"#,
        #"{"topics":[],"replaces":nul}"#, #"{"topics":null}"#, #"{"topics":[null]}"#, #"{"topics":[],"message":null}"#,
        #"{"topics":[],"message":\#(msg)}"#, #"{"topics":[],"message":[]}"#, #"{"topics":[],"kind":"silent"}"#,
        #"{"topics":[],"kind":"Silent"}"#, #"{"topics":[],"kind":null}"#, #"{"topics":[],"groupId":""}"#,
        #"{"topics":"\#(key)"}"#, #"{"topics":[\#(topic),\#(topic)]}"#, #"{"topics":[\#(topic),]}"#, #"{"topics":[,\#(topic)]}"#,
        #"{"topics":[{"spaceKey":"\#(key)","topic":"a","signature":"\#(sig)","extra":[1,{"a":[]}]}]}"#,
        #"{"topics":[{"spaceKey":"\#(key)","topic":"a","signature":"AAAA"}]}"#,
        #"{"topics":[{"spaceKey":"1\#(key)","topic":"a","signature":"\#(sig)"}]}"#,
        #"{"topics":[{"spaceKey":"","topic":"a","signature":"\#(sig)"}]}"#,
        #"{"deviceId":"d","platform":"webpush","token":"t","p256dh":"_-8","auth":"_-8="}"#,
        #"{"deviceId":"d","platform":"webpush","token":"t","p256dh":"","auth":null}"#,
        #"{"token":"t"}"#, #"{"platform":"ios"}"#, #"{"deviceId":null,"token":"t","platform":"ios"}"#,
        // Nested unknown fields, deep nesting around the tape's and Foundation's limits.
        #"{"topics":[],"meta":{"a":{"b":{"c":[1,2,{"d":null}]}},"e":[[],[[]],{}]}}"#,
        #"{"topics":[],"deep":\#(String(repeating: "[", count: 62))\#(String(repeating: "]", count: 62))}"#,
        #"{"topics":[],"deep":\#(String(repeating: "[", count: 63))\#(String(repeating: "]", count: 63))}"#,
        #"{"topics":[],"deep":\#(String(repeating: "[", count: 64))\#(String(repeating: "]", count: 64))}"#,
        #"{"topics":[],"deep":\#(String(repeating: "[", count: 510))\#(String(repeating: "]", count: 510))}"#,
        #"{"topics":[],"deep":\#(String(repeating: "[", count: 511))\#(String(repeating: "]", count: 511))}"#,
        #"{"topics":[],"deep":\#(String(repeating: "[", count: 5000))}"#,
        // Many members (the tape declines over 64).
        "{\"topics\":[]" + (0..<63).map { ",\"k\($0)\":\($0)" }.joined() + "}",
        "{\"topics\":[]" + (0..<64).map { ",\"k\($0)\":\($0)" }.joined() + "}",
        // Huge strings, below and above the tape's size bound.
        #"{"topics":[{"spaceKey":"\#(key)","topic":"\#(String(repeating: "x", count: 200_000))","signature":"\#(sig)"}]}"#,
        #"{"topics":[],"pad":"\#(String(repeating: "é", count: 140_000))"}"#,
        #"{"deviceId":"\#(String(repeating: "\\u00e9", count: 10_000))","platform":"android","token":"t"}"#,
    ]

    @Test(arguments: RequestType.all)
    func edgeCasesAnswerAsFoundationDoes(_ type: RequestType) {
        for body in Self.edgeBodies {
            let bytes = Array(body.utf8)
            let (node, reference, tape) = type.compare(bytes)
            #expect(node == reference, "\(body.prefix(200))")
            if let tape { #expect(tape == reference, "the tape read \(body.prefix(200)) differently") }
        }
    }

    @Test(arguments: RequestType.all)
    func nonUTF8BodiesAnswerAsFoundationDoes(_ type: RequestType) {
        let bodies: [[UInt8]] = [
            Array(#"{"deviceId":"d"#.utf8) + [0xff] + Array(#"","platform":"ios","token":"t"}"#.utf8),
            Array(#"{"topics":[],"x":""#.utf8) + [0xc3] + Array(#""}"#.utf8),
            Array(#"{"topics":[],"x":""#.utf8) + [0xed, 0xa0, 0x80] + Array(#""}"#.utf8),  // an encoded surrogate
            Array(#"{"topics":[],"x":""#.utf8) + [0xc0, 0xaf] + Array(#""}"#.utf8),  // overlong
            Array(#"{"topics":[],"x":""#.utf8) + [0xf4, 0x90, 0x80, 0x80] + Array(#""}"#.utf8),  // past U+10FFFF
            Array(#"{"topics":[]}"#.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] },
            [0xfe, 0xff] + Array(#"{"topics":[]}"#.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] },
            Array(#"{"topics":[]}"#.utf8) + [0],
        ]
        for body in bodies {
            let (node, reference, tape) = type.compare(body)
            #expect(node == reference, "\(body)")
            if let tape { #expect(tape == reference) }
        }
    }

    /// Every cut, every dropped byte and a few substituted bytes of valid bodies: a deterministic
    /// walk over the inputs next to the valid ones, where the two readers would part first.
    @Test(arguments: RequestType.all)
    func mutationsOfValidBodiesAnswerAsFoundationDoes(_ type: RequestType) {
        let bodies = WireBodies.encoded + WireBodies.vectors
        var compared = 0
        for body in bodies {
            var mutants: [[UInt8]] = []
            for cut in stride(from: 0, to: body.count, by: 5) { mutants.append(Array(body[..<cut])) }
            for index in stride(from: 0, to: body.count, by: 9) {
                var dropped = body
                dropped.remove(at: index)
                mutants.append(dropped)
                for byte: UInt8 in [0x22, 0x5c, 0x30, 0x80] {
                    var changed = body
                    changed[index] = byte
                    mutants.append(changed)
                }
            }
            for mutant in mutants {
                let (node, reference, tape) = type.compare(mutant)
                #expect(node == reference, "\(String(decoding: mutant, as: UTF8.self))")
                if let tape { #expect(tape == reference, "\(String(decoding: mutant, as: UTF8.self))") }
                compared += 1
            }
        }
        #expect(compared > 1000)
    }
}
