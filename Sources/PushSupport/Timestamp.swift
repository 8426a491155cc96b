import Foundation

/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-30T09:41:07.123Z`), the form every log
/// line starts with. Built with `gmtime_r` rather than a `DateFormatter`: it runs once per line.
package enum Timestamp {
    package static func rfc3339(_ date: Date) -> String {
        let since = date.timeIntervalSince1970
        let whole = since.rounded(.down)
        var seconds = time_t(whole)
        var millis = Int(((since - whole) * 1000).rounded(.down))
        if millis > 999 { millis = 999 }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
            + "T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2))"
            + ".\(pad(millis, 3))Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
