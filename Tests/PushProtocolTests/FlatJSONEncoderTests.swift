import Foundation
import Testing
@testable import PushProtocol

/// `FlatJSONEncoder` writes what Foundation writes, or declines.
@Suite struct FlatJSONEncoderTests {
    private static func expectSame<T: Encodable>(_ value: T, flat: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = try JSON.foundationEncode(value)
        #expect(try JSON.encode(value) == reference, sourceLocation: sourceLocation)
        let written = FlatJSONEncoder.encode(value)
        if flat {
            #expect(written == reference, "\(String(decoding: reference, as: UTF8.self))", sourceLocation: sourceLocation)
        } else {
            #expect(written == nil, "wrote \(written.map { String(decoding: $0, as: UTF8.self) } ?? "")", sourceLocation: sourceLocation)
        }
    }

    @Test func writesTheFlatAnswersAsFoundationDoes() throws {
        try Self.expectSame(NotifyResponse(id: "0123456789abcdef0123456789abcdef", duplicate: false, queued: 200), flat: true)
        try Self.expectSame(NotifyResponse(id: "", duplicate: true, queued: 0), flat: true)
        try Self.expectSame(NotifyResponse(id: "x", duplicate: true, queued: Int.min), flat: true)
        try Self.expectSame(SetTokenResponse(registrationId: "e9b2a553d7c1c74ce50baf116f691171"), flat: true)
        try Self.expectSame(SuccessResponse(success: true), flat: true)
        try Self.expectSame(SubscriptionCountResponse(count: Int.max), flat: true)
    }

    private struct Keys: Encodable {
        var text: String
        enum CodingKeys: String, CodingKey { case b, B, a1, a10, a9, _x, Z, registrationId, registrations, id, idx, empty = "" }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            for (index, key) in [CodingKeys.b, .B, .a1, .a10, .a9, ._x, .Z, .registrationId, .registrations, .id, .idx, .empty].enumerated() {
                if index % 3 == 0 { try c.encode(text, forKey: key) } else if index % 3 == 1 { try c.encode(index, forKey: key) } else {
                    try c.encode(index % 2 == 0, forKey: key)
                }
            }
            try c.encodeIfPresent(String?.none, forKey: .idx)
        }
    }

    @Test(arguments: ["", "plain", "a/b", #"quote " and \ backslash"#, "\\\"\\", "~!@#$%^&*()_+{}[]|:;'<>,.?`"])
    func keysAndStringsInFoundationsOrderAndEscapes(text: String) throws {
        try Self.expectSame(Keys(text: text), flat: true)
    }

    @Test(arguments: ["line\nbreak", "tab\t", "nul\u{0}", "\u{1f}", "é", "\u{2028}", "💬", "\u{7f}"])
    func stringsFoundationEscapesItsOwnWayAreDeclined(text: String) throws {
        let written = FlatJSONEncoder.encode(Keys(text: text))
        if let written { #expect(written == (try JSON.foundationEncode(Keys(text: text)))) }
        #expect(try JSON.encode(Keys(text: text)) == JSON.foundationEncode(Keys(text: text)))
    }

    @Test func randomPrintableStrings() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let text = String(decoding: (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: 0x20...0x7e, using: &generator)
            }, as: UTF8.self)
            try Self.expectSame(NotifyResponse(id: text, duplicate: Bool.random(using: &generator),
                                               queued: Int.random(in: Int.min...Int.max, using: &generator)), flat: true)
        }
    }

    private struct Twice: Encodable {
        enum CodingKeys: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(1, forKey: .a)
            try c.encode(2, forKey: .a)
        }
    }

    private struct Swallowing: Encodable {
        enum CodingKeys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try? c.encode(1.5, forKey: .a)
            try c.encode("b", forKey: .b)
        }
    }

    @Test func declinesNestingOtherTypesRepeatedKeysAndSwallowedDeclines() throws {
        try Self.expectSame(ListTokensResponse(registrations: []), flat: false)
        try Self.expectSame(SubscriptionsResponse(topics: []), flat: false)
        try Self.expectSame(SetTokenRequest(deviceId: "d", platform: .ios, token: "t"), flat: false)  // an enum member
        try Self.expectSame(NotifyRequest(topics: [], message: nil), flat: false)
        try Self.expectSame(Twice(), flat: false)
        try Self.expectSame(Swallowing(), flat: false)
        try Self.expectSame(["b": 1, "a": 2], flat: true)  // flat too: a string-keyed dictionary is one object
        try Self.expectSame("top-level string", flat: false)
    }
}
