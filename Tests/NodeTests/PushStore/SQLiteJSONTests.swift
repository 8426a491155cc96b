import Testing
@testable import PushStore

/// The JSON arrays a batch statement reads with `json_each`: every value comes back as it went in.
@Suite struct SQLiteJSONTests {
    @Test func stringsAndNumbersComeBackFromJSONEach() throws {
        let db = try SQLiteConnection(path: ":memory:")
        let strings = ["0123abcdef", "quote\"d", "back\\slash", "line\nbreak\u{1}", "ünï"]
        let read = try db.query("SELECT value FROM json_each(?) ORDER BY key", [.text(SQLiteJSON.array(strings: strings))]) { $0.text(0) }
        #expect(read == strings)
        #expect(SQLiteJSON.array(strings: ["a\"b"]) == #"["a\"b"]"#)
        let numbers: [Int64] = [1, -2, 9_007_199_254_740_993]
        #expect(try db.query("SELECT value FROM json_each(?) ORDER BY key", [.text(SQLiteJSON.array(numbers))]) { $0.int64(0) } == numbers)
        #expect(SQLiteJSON.array([Int64]()) == "[]")
    }
}
