import Foundation
import PushCrypto
import Testing
@testable import PushProtocol

private func bytes(_ json: String) -> [UInt8] { Array(json.utf8) }

/// What the tape reads itself and what it leaves to Foundation (`TapeDecoderEquivalenceTests`
/// holds both to the same answers).
@Suite struct TapeDecoderTests {
    private static let key = "4wBqpZM9xaSheZzJSMawUKKwhdpChKbZ5eu5ky4Vigw"
    private static let sig = Base64.encode([UInt8](repeating: 9, count: 64))

    /// The hot bodies are read by the tape, not handed to Foundation, and to the same values.
    @Test func readsTheValidBodiesItself() throws {
        for body in WireBodies.encoded + WireBodies.vectors {
            var taken = 0
            for type in RequestType.all {
                let (_, reference, tape) = type.compare(body)
                guard case .value = reference else { continue }
                #expect(tape == reference, "\(String(decoding: body, as: UTF8.self))")
                taken += 1
            }
            #expect(taken > 0, "no type decodes \(String(decoding: body, as: UTF8.self))")
        }
        let notify = try #require(TapeDecoder.decode(NotifyRequest.self, from: WireBodies.encoded[0]))
        #expect(notify.topics.first == WireBodies.topic)
        #expect(notify.message == WireBodies.message)
        #expect(notify.kind == .call && notify.ttl == 45 && notify.replaces == true && notify.groupId == "g-1")
    }

    @Test func resolvesEscapesAndSurrogatePairs() throws {
        let body = #"{"topics":[{"spaceKey":"\#(Self.key)","topic":"a\"\\\/\b\f\n\r\t\u00fc\u20AC\ud83d\udcac\u0000z","signature":"\#(Self.sig)"}]}"#
        let request = try #require(TapeDecoder.decode(SubscribeRequest.self, from: bytes(body)))
        #expect(Array(request.topics[0].topic.utf8) == Array("a\"\\/\u{8}\u{c}\n\r\tü€💬\u{0}z".utf8))
    }

    /// Inputs Foundation reads in its own way are declined, and `JSON.decode` answers as Foundation does.
    @Test(arguments: [
        #"{"topics":[],"topics":null}"#,  // duplicate: Foundation keeps the first
        #"{"\u0074opics":[]}"#,  // escaped key
        "{\"topics\":[],\"\u{212A}ind\":\"call\"}",  // non-ASCII key (KELVIN SIGN is canonically K)
        #"{"topics":[],"ttl":1.0}"#, #"{"topics":[],"ttl":1e2}"#,  // integers Foundation accepts in other spellings
        #"{"topics":[],"ttl":1234567890123456789}"#,  // past 18 digits
        #"{"topics":[],"x":01}"#, #"{"topics":[],"x":"\q"}"#, #"{"topics":[],"x":"\ud800"}"#,  // tolerated where unread
        "\u{FEFF}{\"topics\":[]}",  // byte-order mark
    ])
    func declinesWhatFoundationReadsItsOwnWay(json: String) {
        #expect(TapeDecoder.decode(NotifyRequest.self, from: bytes(json)) == nil)
        let node = DecodeOutcome { try JSON.decode(NotifyRequest.self, from: bytes(json)) }
        #expect(node == DecodeOutcome { try JSON.foundationDecode(NotifyRequest.self, from: bytes(json)) })
        guard case .value = node else {
            Issue.record("Foundation refused \(json): \(node)")
            return
        }
    }

    @Test func duplicateKeysAnswerWithTheFirstAsFoundationDoes() throws {
        let request = try JSON.decode(NotifyRequest.self, from: bytes(#"{"topics":[],"ttl":5,"ttl":"x"}"#))
        #expect(request.ttl == 5)
    }

    private struct Lenient: Decodable, Equatable {
        var number: Double
        enum CodingKeys: String, CodingKey { case number }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            number = (try? c.decode(Double.self, forKey: .number)) ?? -1
        }
    }

    /// A declined call the type swallows with `try?` still sends the body to Foundation.
    @Test func aSwallowedDeclineStillFallsBack() throws {
        #expect(TapeDecoder.decode(Lenient.self, from: bytes(#"{"number":1.5}"#)) == nil)
        #expect(try JSON.decode(Lenient.self, from: bytes(#"{"number":1.5}"#)).number == 1.5)
    }

    private struct Special: Decodable { var blob: Data }

    /// Types Foundation decodes its own way (`Data` from base64 text) never go through their own init here.
    @Test func foundationSpecialTypesAreDeclined() throws {
        #expect(TapeDecoder.decode(Special.self, from: bytes(#"{"blob":[]}"#)) == nil)
        #expect(throws: APIError.self) { try JSON.decode(Special.self, from: bytes(#"{"blob":[]}"#)) }
        #expect(try JSON.decode(Special.self, from: bytes(#"{"blob":"AAE="}"#)).blob == Data([0, 1]))
    }

    @Test func boundsOfTheReader() {
        let nested = { (depth: Int) in "{\"topics\":[],\"x\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}" }
        #expect(TapeDecoder.decode(NotifyRequest.self, from: bytes(nested(JSONTape.maxDepth - 2))) != nil)
        #expect(TapeDecoder.decode(NotifyRequest.self, from: bytes(nested(JSONTape.maxDepth))) == nil)
        let members = { (count: Int) in "{\"topics\":[]" + (1..<count).map { ",\"k\($0)\":0" }.joined() + "}" }
        #expect(TapeDecoder.decode(NotifyRequest.self, from: bytes(members(JSONTape.maxMembers))) != nil)
        #expect(TapeDecoder.decode(NotifyRequest.self, from: bytes(members(JSONTape.maxMembers + 1))) == nil)
        let padded = { (count: Int) in "{\"topics\":[],\"p\":\"" + String(repeating: "x", count: count) + "\"}" }
        #expect(TapeDecoder.decode(NotifyRequest.self, from: bytes(padded(JSONTape.maxBytes - 30))) != nil)
        #expect(TapeDecoder.decode(NotifyRequest.self, from: bytes(padded(JSONTape.maxBytes))) == nil)
    }
}
