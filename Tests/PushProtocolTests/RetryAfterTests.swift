import Foundation
import Testing
@testable import PushProtocol

/// The one `Retry-After` parser, shared by the delivery gateways and PushClient.
@Suite struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 784_111_700)

    @Test func delaySeconds() {
        #expect(RetryAfter.delay("120", now: now) == 120)
        #expect(RetryAfter.delay(" 5 ", now: now) == 5)
        #expect(RetryAfter.delay("0", now: now) == 0)
        #expect(RetryAfter.delay("99999999999", now: now) == 31_536_000)
    }

    @Test func unreadableIsNil() {
        for value in [nil, "", "abc", "-5", "1.5", "5s"] as [String?] {
            #expect(RetryAfter.delay(value, now: now) == nil)
        }
    }

    /// The three HTTP-date forms of RFC 9110 §5.6.7, checked against Python's email.utils.
    @Test func httpDateForms() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(RetryAfter.httpDate("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(RetryAfter.httpDate("Sun Nov  6 08:49:37 1994") == expected)
        #expect(RetryAfter.httpDate("Thu, 29 Feb 2024 23:59:59 GMT") == Date(timeIntervalSince1970: 1_709_251_199))
        #expect(RetryAfter.httpDate("Sat, 01 Jan 2000 00:00:00 GMT") == Date(timeIntervalSince1970: 946_684_800))
    }

    @Test func dateIsRelativeToNowAndNeverNegative() {
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 77)
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)
    }

    @Test func malformedDatesAreRejected() {
        for text in ["Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT",
                     "Sun, 06 Nov 1994 25:00:00 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 6 Nov 1994 08:49:37 GMT",
                     "tomorrow"] {
            #expect(RetryAfter.httpDate(text) == nil, "\(text)")
        }
    }
}
