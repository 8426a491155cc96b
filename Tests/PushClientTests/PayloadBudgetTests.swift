import Testing
@testable import PushClient

@Suite struct PayloadBudgetTests {
    static let overhead = 28

    static func payload(text: String, attachments: Int = 0) -> PushPayload {
        PushPayload(spaceId: "spc1", spaceUxType: 0, spaceType: 0, senderId: AnyCompatVector.accountId,
                    newMessage: .init(chatId: "bafyreichat", msgId: "msg1", spaceName: "Project", chatName: "general",
                                      senderName: "alice", text: PushText.truncate(text), hasAttachments: attachments > 0,
                                      attachments: Array(repeating: .init(layout: 8), count: attachments)))
    }

    /// Sealed size = plaintext + 28: fits at exactly that limit, shrinks one byte below.
    @Test func fitsAtTheExactLimitAndShrinksOneByteBelow() throws {
        let p = Self.payload(text: "hello there", attachments: 3)
        let sealedSize = p.jsonBytes().count + Self.overhead
        let exact = try #require(PayloadBudget.fit(p, maxPayloadBytes: sealedSize))
        #expect(exact.step == .full)
        #expect(exact.payload == p)
        #expect(exact.plaintext == p.jsonBytes())

        let below = try #require(PayloadBudget.fit(p, maxPayloadBytes: sealedSize - 1))
        #expect(below.step == .withoutAttachments)
        #expect(below.payload.newMessage?.attachments == [])
        #expect(below.payload.newMessage?.hasAttachments == true)
        #expect(below.payload.newMessage?.text == "hello there")
        #expect(below.plaintext.count + Self.overhead <= sealedSize - 1)
    }

    /// Text is shortened by whole scalars with a binary search: at the size of the k-scalar
    /// candidate it keeps exactly k, one byte less keeps k - 1. Multi-byte text is never split.
    @Test(arguments: ["a", "é", "世", "😀", "e\u{301}"])
    func shortensTextToTheLongestPrefixThatFits(unit: String) throws {
        let text = String(repeating: unit, count: 400)
        let p = Self.payload(text: text)
        func candidateSize(_ k: Int) -> Int {
            var c = p
            c.newMessage?.text = PushText.cut(text, keeping: k)
            return c.jsonBytes().count + Self.overhead
        }
        for k in [1, 2, 150, 390] {  // each candidate smaller than the full text
            let at = try #require(PayloadBudget.fit(p, maxPayloadBytes: candidateSize(k)))
            #expect(at.step == .shortenedText)
            #expect(at.payload.newMessage?.text == PushText.cut(text, keeping: k))
            let under = try #require(PayloadBudget.fit(p, maxPayloadBytes: candidateSize(k) - 1))
            if k > 1 {
                #expect(under.payload.newMessage?.text == PushText.cut(text, keeping: k - 1))
            } else {
                #expect(under.step == .minimal)
            }
        }
    }

    @Test func cutTextShrinksFromTheOriginalNeverFromTheEllipsis() throws {
        let text = String(repeating: "ab", count: 1000)  // 2000 scalars: cut to 1021 + "..."
        let p = Self.payload(text: text)
        let fit = try #require(PayloadBudget.fit(p, fullText: text, maxPayloadBytes: p.jsonBytes().count + Self.overhead - 1))
        #expect(fit.step == .shortenedText)
        #expect(fit.payload.newMessage?.text == PushText.cut(text, keeping: 1020))
    }

    @Test func minimalKeepsOnlyTheIdsAndBareDropsTheMessage() throws {
        let p = Self.payload(text: "hello there", attachments: 1)
        var minimal = p
        minimal.newMessage = .init(chatId: "bafyreichat", msgId: "msg1", hasAttachments: true)
        let minimalSize = minimal.jsonBytes().count + Self.overhead
        let m = try #require(PayloadBudget.fit(p, maxPayloadBytes: minimalSize))
        #expect(m.step == .minimal)
        #expect(m.payload == minimal)

        var bare = p
        bare.newMessage = nil
        let bareSize = bare.jsonBytes().count + Self.overhead
        let b = try #require(PayloadBudget.fit(p, maxPayloadBytes: minimalSize - 1))
        #expect(b.step == .bare)
        #expect(b.payload == bare)
        #expect(PayloadBudget.fit(p, maxPayloadBytes: bareSize) != nil)
        #expect(PayloadBudget.fit(p, maxPayloadBytes: bareSize - 1) == nil)
    }

    /// Across every limit from "nothing fits" to "everything fits", the result never exceeds the
    /// limit and a larger limit never gives a shorter text.
    @Test func neverExceedsTheLimitAndGrowsWithIt() {
        let text = String(repeating: "Grüße, 世界! ", count: 30)
        let p = Self.payload(text: text, attachments: 2)
        let full = p.jsonBytes().count + Self.overhead
        var lastText = -1
        var fitted = 0
        for limit in 100...(full + 2) {
            guard let fit = PayloadBudget.fit(p, fullText: text, maxPayloadBytes: limit) else {
                #expect(fitted == 0, "once something fits, every larger limit fits")
                continue
            }
            fitted += 1
            #expect(fit.plaintext.count + Self.overhead <= limit)
            #expect(fit.plaintext == fit.payload.jsonBytes())
            let scalars = fit.payload.newMessage?.text.unicodeScalars.count ?? 0
            let kept = fit.step == .shortenedText ? scalars - 3 : scalars  // the original text kept
            #expect(kept >= lastText)
            lastText = kept
        }
        #expect(fitted > 0)
    }
}
