import PushProtocol
import Testing

@Suite struct StructuredFieldTests {
    @Test func parsesInnerListsWithParameters() throws {
        let dictionary = try StructuredField.parseDictionary(#"sig1=("@method" "@path");created=1618884473;keyid="k\"\\";ok, b=?0"#)
        #expect(dictionary.map(\.key) == ["sig1", "b"])
        guard case .innerList(let list) = dictionary[0].member else { Issue.record("not an inner list"); return }
        #expect(list.items.map(\.value) == [.string("@method"), .string("@path")])
        #expect(list.parameter("created") == .integer(1_618_884_473))
        #expect(list.parameter("keyid") == .string(#"k"\"#))
        #expect(list.parameter("ok") == .boolean(true))
        guard case .item(let item) = dictionary[1].member else { Issue.record("not an item"); return }
        #expect(item.value == .boolean(false))
    }

    @Test func parsesByteSequencesTokensDecimalsAndBareKeys() throws {
        let dictionary = try StructuredField.parseDictionary("a=:AAEC:, b=tok/en, c=-1.25, d")
        let values = dictionary.map { entry -> StructuredField.BareItem? in
            if case .item(let item) = entry.member { return item.value }
            return nil
        }
        #expect(values == [.bytes([0, 1, 2]), .token("tok/en"), .decimal("-1.25"), .boolean(true)])
    }

    @Test func serializesTheWayRFC9421NeedsForSignatureParams() {
        let list = StructuredField.InnerList(
            [StructuredField.Item(.string("@method")), StructuredField.Item(.string("content-digest"))],
            parameters: [("created", .integer(5)), ("nonce", .string(#"a"b\c"#)), ("flag", .boolean(true)), ("x", .bytes([255]))])
        #expect(list.serialized == #"("@method" "content-digest");created=5;nonce="a\"b\\c";flag;x=:/w==:"#)
    }

    @Test func serializationRoundTrips() throws {
        let text = #"push=("@method" "@path" "@query");created=1;nonce="abcdefghijklmnop";keyid="A";alg="ed25519""#
        let dictionary = try StructuredField.parseDictionary(text)
        guard case .innerList(let list) = dictionary[0].member else { Issue.record("not an inner list"); return }
        #expect("push=" + list.serialized == text)
    }

    @Test(arguments: [
        "a=(1 2", "a=\"unterminated", "a=1,", "a=1 b=2", "A=1", "a=:not base64!:", "a=?2", "a=1, a=2",
        "a=\"bad\\escape\"", "a=1234567890123456", "a=(\"x\"\"y\")", "a=\"tab\there\"",
    ])
    func rejectsMalformedFields(_ text: String) {
        #expect(throws: StructuredField.ParseError.self) { try StructuredField.parseDictionary(text) }
    }

    @Test func toleratesSurroundingWhitespace() throws {
        #expect(try StructuredField.parseDictionary("  a=1 ,\tb=2  ").count == 2)
        #expect(try StructuredField.parseDictionary("").isEmpty)
    }
}

@Suite struct HTTPSignatureBaseTests {
    /// A value with a line break would add a line to the signed text; "\r\n" (one Swift Character) too.
    @Test(arguments: ["a\nb", "a\rb", "a\r\nb", "\r\n"])
    func componentValuesWithLineBreaksAreRefused(value: String) {
        let params = StructuredField.InnerList([StructuredField.Item(.string("x-test"))], parameters: [])
        #expect(throws: HTTPSignatureError.self) {
            try HTTPSignatureBase(components: [HTTPSignatureBase.Component(name: "x-test", value: value)], signatureParams: params)
        }
    }
}
