import Testing
@testable import PushSupport

@Suite struct LogSinkTests {
    @Test func quotedFieldsCannotForgeFieldsOrLines() {
        #expect(LogSink.quoted("plain") == "\"plain\"")
        #expect(LogSink.quoted("a\" level=error\nevent=x\\") == #""a\" level=error\nevent=x\\""#)
    }
}
