import Testing
@testable import PushClient

@Suite struct PushTextTests {
    @Test func textUpTo1024ScalarsIsUnchanged() {
        let text = String(repeating: "a", count: 1024)
        #expect(PushText.truncate(text) == text)
        #expect(PushText.truncate("") == "")
    }

    @Test func longerTextKeeps1021ScalarsAndAppendsTheEllipsis() {
        let text = String(repeating: "a", count: 1025)
        let cut = PushText.truncate(text)
        #expect(cut == String(repeating: "a", count: 1021) + "...")
        #expect(cut.unicodeScalars.count == 1024)
    }

    /// Counted in scalars, never bytes; a 4-byte scalar is one and is never split.
    @Test func multiByteScalarsCountAsOne() {
        let emoji = "😀"  // 4 UTF-8 bytes, 2 UTF-16 units, 1 scalar
        let exact = String(repeating: emoji, count: 1024)
        #expect(PushText.truncate(exact) == exact)
        let cut = PushText.truncate(String(repeating: emoji, count: 2000))
        #expect(cut == String(repeating: emoji, count: 1021) + "...")
        #expect(cut.utf8.count == 1021 * 4 + 3)
    }

    /// A combining sequence is several scalars (Go runes); the cut may fall inside the grapheme
    /// but never inside a scalar's encoding.
    @Test func combiningMarksAreSeparateScalars() {
        let text = String(repeating: "e\u{301}", count: 600)  // 1200 scalars, 600 graphemes
        let cut = PushText.truncate(text)
        #expect(cut.unicodeScalars.count == 1024)
        #expect(cut.unicodeScalars.prefix(1021).elementsEqual(text.unicodeScalars.prefix(1021)))
    }
}
