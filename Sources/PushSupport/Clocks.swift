import Foundation

/// The clocks the server reads, as plain functions so tests can inject their own.
package enum Clocks {
    /// Seconds since the Unix epoch (wall clock), for comparing against signature `created` times.
    @Sendable package static func unixSeconds() -> Double { Date().timeIntervalSince1970 }

    /// Seconds on a monotonic clock with an arbitrary origin, for rate limits and durations.
    @Sendable package static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
