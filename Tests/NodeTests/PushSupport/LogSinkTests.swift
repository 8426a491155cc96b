import Foundation
import Testing
@testable import PushSupport

@Suite struct LogSinkTests {
    private let time = Date(timeIntervalSince1970: 1_796_031_667.1239)  // 2026-11-30T09:41:07.123Z

    @Test func quotedFieldsCannotForgeFieldsOrLines() {
        #expect(LogSink.quoted("plain") == "\"plain\"")
        #expect(LogSink.quoted("a\" level=error\nevent=x\\") == #""a\" level=error\nevent=x\\""#)
        #expect(LogSink.quoted("tab\there\u{1}") == #""tab\there\x1""#)
    }

    @Test func timestampsAreRFC3339InUTCWithMilliseconds() {
        #expect(Timestamp.rfc3339(time) == "2026-11-30T09:41:07.123Z")
        #expect(Timestamp.rfc3339(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.rfc3339(Date(timeIntervalSince1970: 951_782_400.9999)) == "2000-02-29T00:00:00.999Z")
    }

    @Test func aTextLineStartsWithTheTimeAndQuotesOnlyWhatCouldForgeAField() {
        let record = LogRecord(.warn, "delivery", ["provider": "fcm", "attempt": 2, "reason": "fcm.unavailable",
                                                   "detail": "two words", "forged": "x level=error\nevent=y", "empty": "",
                                                   "ok": true, "next_attempt_at": .time(time)])
        #expect(LogFormat.text.line(record, at: time) == "2026-11-30T09:41:07.123Z level=warn event=delivery provider=fcm attempt=2 "
                + #"reason=fcm.unavailable detail="two words" forged="x level=error\nevent=y" empty="" ok=true "#
                + "next_attempt_at=2026-11-30T09:41:07.123Z")
    }

    @Test func aJSONLineIsOneObjectWithTsLevelEventAndTypedFields() throws {
        let record = LogRecord(.info, "http", ["route": "/v1/notify", "status": 200, "duration_ms": .double(1.5), "ok": false,
                                               "quote": "a\"b\\c\nd\u{7}"])
        let line = LogFormat.json.line(record, at: time)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["ts"] as? String == "2026-11-30T09:41:07.123Z")
        #expect(object["level"] as? String == "info" && object["event"] as? String == "http")
        #expect(object["route"] as? String == "/v1/notify" && object["status"] as? Int == 200)
        #expect(object["duration_ms"] as? Double == 1.5 && object["ok"] as? Bool == false)
        #expect(object["quote"] as? String == "a\"b\\c\nd\u{7}")
        #expect(line.hasPrefix(#"{"ts":"2026-11-30T09:41:07.123Z","level":"info","event":"http","route":"/v1/notify""#))
    }

    @Test func recordsBelowTheLevelAreDropped() {
        let lines = Protected([String]())
        let sink = LogSink(minimum: .warn) { record in lines.withLock { $0.append(record.text) } }
        sink(.debug, "a")
        sink(.info, "b")
        sink(.warn, "c")
        sink(LogRecord(.error, "d"))
        #expect(lines.withLock { $0 } == ["level=warn event=c", "level=error event=d"])
        #expect(!sink.isEnabled(.info) && sink.isEnabled(.error))
    }

    @Test func aLogFileIsAppendedToAndReopenedAtItsPathAfterARename() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushnode-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("node.log").path
        try Data("earlier\n".utf8).write(to: URL(fileURLWithPath: path))
        let output = try LogOutput(path: path)
        let sink = LogSink.writing(to: output, minimum: .info, now: { time })
        sink(.info, "one")
        try FileManager.default.moveItem(atPath: path, toPath: path + ".1")  // logrotate
        sink(.info, "two")  // still the renamed file, until the reopen
        try output.reopen()
        sink(.info, "three")
        #expect(try String(contentsOfFile: path + ".1", encoding: .utf8)
                == "earlier\n2026-11-30T09:41:07.123Z level=info event=one\n2026-11-30T09:41:07.123Z level=info event=two\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "2026-11-30T09:41:07.123Z level=info event=three\n")
        #expect(throws: LogOutputError.self) { try LogOutput(path: dir.appendingPathComponent("missing/x.log").path) }
    }
}
