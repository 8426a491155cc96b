import Foundation

/// The `Retry-After` header: delay-seconds or an HTTP-date.
///
/// - SeeAlso: RFC 9110 §10.2.3 (Retry-After) and §5.6.7 (HTTP-date: IMF-fixdate, and the
///   obsolete RFC 850 and asctime forms a recipient must accept).
public enum RetryAfter {
    /// Seconds to wait from `now`; nil when the header is absent or unreadable. A date in the
    /// past gives 0.
    public static func delay(_ value: String?, now: Date) -> TimeInterval? {
        guard let value else { return nil }
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // Cap absurd values rather than overflow: a year is already "not in this ttl".
            return text.utf8.count > 9 ? 31_536_000 : TimeInterval(Int(text)!)
        }
        guard let date = httpDate(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// Parses an HTTP-date in any of its three forms (always GMT).
    public static func httpDate(_ text: String) -> Date? {
        let tokens = text.split(separator: " ").map { $0.hasSuffix(",") ? $0.dropLast() : $0 }
        let day: Int, month: Int, year: Int, time: Substring
        switch tokens.count {
        case 6: // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard tokens[5] == "GMT", let d = number(tokens[1], digits: 2), let m = monthNumber(tokens[2]),
                  let y = number(tokens[3], digits: 4) else { return nil }
            (day, month, year, time) = (d, m, y, tokens[4])
        case 4: // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            let parts = tokens[1].split(separator: "-", omittingEmptySubsequences: false)
            guard tokens[3] == "GMT", parts.count == 3, let d = number(parts[0], digits: 2),
                  let m = monthNumber(parts[1]), let yy = number(parts[2], digits: 2) else { return nil }
            (day, month, year, time) = (d, m, yy < 70 ? 2000 + yy : 1900 + yy, tokens[2])
        case 5: // asctime: Sun Nov  6 08:49:37 1994
            guard let m = monthNumber(tokens[1]), let d = number(tokens[2], digits: 1...2),
                  let y = number(tokens[4], digits: 4) else { return nil }
            (day, month, year, time) = (d, m, y, tokens[3])
        default:
            return nil
        }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let h = number(clock[0], digits: 2), let mi = number(clock[1], digits: 2),
              let s = number(clock[2], digits: 2), h < 24, mi < 60, s < 61, (1...31).contains(day) else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + h * 3_600 + mi * 60 + s))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func monthNumber(_ name: Substring) -> Int? {
        months.firstIndex(of: String(name)).map { $0 + 1 }
    }

    private static func number(_ text: Substring, digits: Int) -> Int? { number(text, digits: digits...digits) }

    private static func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
