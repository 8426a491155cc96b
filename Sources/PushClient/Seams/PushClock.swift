import Foundation

/// Time for PushClient's schedules, injected so tests run on virtual time (STYLE §4).
public protocol PushClock: Sendable {
    /// Wall-clock now: `Retry-After` HTTP dates are measured against it.
    func now() -> Date
    /// Suspends the calling task for `duration`; throws `CancellationError` when cancelled.
    func sleep(for duration: Duration) async throws
}

/// The real clock.
public struct SystemPushClock: PushClock {
    public init() {}
    public func now() -> Date { Date() }
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
