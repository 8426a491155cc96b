@testable import PushAnySync
@testable import PushConfig
@testable import PushDelivery
@testable import PushEngine
@testable import PushHTTP
@testable import PushMetrics
@testable import PushNet
@testable import PushNode
@testable import PushService
@testable import PushStore
@testable import PushSupport
import Testing

@Suite struct LogSinkTests {
    @Test func quotedFieldsCannotForgeFieldsOrLines() {
        #expect(LogSink.quoted("plain") == "\"plain\"")
        #expect(LogSink.quoted("a\" level=error\nevent=x\\") == #""a\" level=error\nevent=x\\""#)
    }
}
