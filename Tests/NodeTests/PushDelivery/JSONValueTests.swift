import Foundation
import Testing
import PushProtocol
@testable import PushDelivery

/// The gateways' JSON writer against Foundation's parser: every string comes back as written,
/// on the no-escape fast path and the escaping one alike.
@Suite struct JSONValueTests {
    static let strings = [
        "", "plain", "eyJhbGciOiJFUzI1NiJ9/+==", "quote \" inside", "back\\slash", "line\nfeed\r\ttab",
        "\u{0}\u{1}\u{1f} controls", "ünïcødé ✓ 🙂", "/slashes/stay/", String(repeating: "A", count: 4096) + "\"",
    ]

    @Test(arguments: strings)
    func aStringRoundTripsThroughAnIndependentParser(_ text: String) throws {
        let bytes = JSONValue.object([("k", .string(text)), (text, .int(-7))]).bytes
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(parsed["k"] as? String == text)
        #expect(parsed[text] as? Int == -7 || text == "k")
    }

    @Test func writesNoEscapeWhereNoneIsNeeded() {
        #expect(String(decoding: JSONValue.strings([("a/b", "c+d/e=")]).bytes, as: UTF8.self) == #"{"a/b":"c+d/e="}"#)
        #expect(String(decoding: JSONValue.strings([("q", "\"\u{1}")]).bytes, as: UTF8.self) == #"{"q":"\"\u0001"}"#)
    }

    /// A value whose members were written ahead (`DataKeys.Rendered`) encodes through `Codable` as
    /// the same document as its bytes.
    @Test func aRenderedObjectEncodesAsItsBytes() throws {
        let written = JSONValue.object([("x-any-id", .string("n1")), ("n", .int(2))]).bytes.dropFirst().dropLast()
        let value = JSONValue.renderedObject(first: [("a", .bool(true))], Array(written))
        let encoded = try JSON.encode(value)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(encoded)) as? [String: Any])
        let direct = try #require(try JSONSerialization.jsonObject(with: Data(value.bytes)) as? [String: Any])
        #expect(parsed as NSDictionary == direct as NSDictionary)
        #expect(parsed["x-any-id"] as? String == "n1" && parsed["n"] as? Int == 2 && parsed["a"] as? Bool == true)
    }
}
