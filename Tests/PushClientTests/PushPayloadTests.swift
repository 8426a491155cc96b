import Foundation
import Testing
@testable import PushClient

@Suite struct PushPayloadTests {
    static func vectorPayload(spaceId: String = "spc1") -> PushPayload {
        PushPayload(spaceId: spaceId, senderId: AnyCompatVector.accountId, newMessage: .init(
            chatId: "bafyreichat", msgId: "msg1", spaceName: "Project", chatName: "general", senderName: "alice",
            text: "hi é世"))
    }

    /// The vector's plaintext comes from a sender without the space fields; ours always writes them
    /// first, and every byte after them is the same.
    @Test func bytesMatchTheVectorPlusTheSpaceFields() {
        let expected = #"{"spaceId":"spc1","spaceUxType":0,"spaceType":0,"# + AnyCompatVector.plaintext.dropFirst()
        #expect(Self.vectorPayload().jsonBytes() == Array(expected.utf8))
    }

    @Test func spaceFieldsAreWrittenEvenWhenEmptyOrZero() {
        let text = String(decoding: Self.vectorPayload(spaceId: "").jsonBytes(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"spaceId":"","spaceUxType":0,"spaceType":0,"senderId":"#))
    }

    @Test func attachmentsAreAnArrayOfLayouts() {
        var payload = Self.vectorPayload()
        payload.spaceUxType = 4
        payload.spaceType = 4
        payload.newMessage?.hasAttachments = true
        payload.newMessage?.attachments = [.init(layout: 8), .init(layout: 0)]
        let text = String(decoding: payload.jsonBytes(), as: UTF8.self)
        #expect(text.contains(#""spaceUxType":4,"spaceType":4,"#))
        #expect(text.hasSuffix(#""hasAttachments":true,"attachments":[{"layout":8},{"layout":0}]}}"#))
    }

    @Test func withoutNewMessageTheKeyIsLeftOut() {
        var payload = Self.vectorPayload()
        payload.newMessage = nil
        #expect(String(decoding: payload.jsonBytes(), as: UTF8.self)
                == #"{"spaceId":"spc1","spaceUxType":0,"spaceType":0,"senderId":"AAmVumbaGtQWyLCesrsYB9NAaBfJUvRNY6ztF7J7UEU927Wy","type":1}"#)
    }

    /// Go's `json.Marshal` escaping: `<>&` and U+2028/9 as \u, short escapes for \b\f\n\r\t,
    /// other controls as \u00xx (lowercase hex), `/` and non-ASCII raw.
    @Test func stringsAreEscapedLikeGo() {
        var payload = Self.vectorPayload()
        payload.newMessage?.text = "a\"b\\c/d<e>f&g\u{8}\u{c}\n\r\t\u{1}\u{1f}\u{7f}\u{2028}\u{2029}é😀"
        let text = String(decoding: payload.jsonBytes(), as: UTF8.self)
        let escaped = #""text":"a\"b\\c/d\u003ce\u003ef\u0026g\b\f\n\r\t\u0001\u001f"# + "\u{7f}" + #"\u2028\u2029"# + "é😀\""
        #expect(text.contains(escaped))
        // And it is JSON that decodes back to the same text.
        let decoded = try? JSONDecoder().decode(PushPayload.self, from: Data(payload.jsonBytes()))
        #expect(decoded == payload)
    }

    @Test func decodingToleratesTheOlderShapeWithoutSpaceFields() throws {
        let decoded = try JSONDecoder().decode(PushPayload.self, from: Data(AnyCompatVector.plaintext.utf8))
        #expect(decoded == Self.vectorPayload(spaceId: ""))
    }

    @Test func decodingRoundTripsEveryField() throws {
        var payload = Self.vectorPayload()
        payload.spaceUxType = 4
        payload.type = PushPayload.callRing
        payload.newMessage?.attachments = [.init(layout: 3)]
        payload.newMessage?.hasAttachments = true
        #expect(try JSONDecoder().decode(PushPayload.self, from: Data(payload.jsonBytes())) == payload)
    }
}
