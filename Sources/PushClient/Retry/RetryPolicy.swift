/// How often and how far apart a request to the node is tried.
public struct RetryPolicy: Sendable, Equatable {
    /// Total tries, the first included (anytype-heart: 6).
    public var maxAttempts: Int
    /// The pause between tries when the node gives no `Retry-After` (anytype-heart: 10 s).
    public var interval: Duration
    /// The longest `Retry-After` honoured; a longer one gives up (`rate_limited`) instead of holding
    /// the message for longer than a push is worth.
    public var maxRetryAfter: Duration

    public init(maxAttempts: Int = 6, interval: Duration = .seconds(10), maxRetryAfter: Duration = .seconds(600)) {
        self.maxAttempts = max(1, maxAttempts)
        self.interval = interval
        self.maxRetryAfter = maxRetryAfter
    }

    /// 6 tries, 10 s apart.
    public static let `default` = RetryPolicy()
}
