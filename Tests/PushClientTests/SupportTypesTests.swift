import Testing
@testable import PushClient

@Suite struct SupportTypesTests {
    @Test func boundedQueueRefusesPastCapacityAndWrapsAround() {
        var q = BoundedQueue<Int>(capacity: 3)
        let firstPushes = [1, 2, 3, 4].map { q.push($0) }
        #expect(firstPushes == [true, true, true, false])
        let first = q.popFirst()
        #expect(first == 1)
        let pushed5 = q.push(5)
        let pushed6 = q.push(6)
        #expect(pushed5 && !pushed6)
        let drained = [q.popFirst(), q.popFirst(), q.popFirst(), q.popFirst()]
        #expect(drained == [2, 3, 5, nil])
        for round in 0..<10 {  // many wraps, never more than capacity held
            let pushes = [q.push(round), q.push(round + 100)]
            let pops = [q.popFirst(), q.popFirst()]
            #expect(pushes == [true, true])
            #expect(pops == [round, round + 100])
        }
        #expect(q.isEmpty)
    }

    @Test func logLinesAreKeyValueWithQuotingWhereNeeded() {
        let lines = LogLines()
        lines.log.event("push_failed", [("kind", "message"), ("reason", "rejected"), ("note", "two words"), ("q", "a\"b"), ("e", "")])
        #expect(lines.all == [#"event=push_failed kind=message reason=rejected note="two words" q="a\"b" e="""#])
    }

    @Test func nodeResponseHeadersAreCaseInsensitive() {
        let response = NodeResponse(status: 429, headers: ["Retry-After": "3"])
        #expect(response.header("retry-after") == "3")
        #expect(response.header("RETRY-AFTER") == "3")
    }
}
