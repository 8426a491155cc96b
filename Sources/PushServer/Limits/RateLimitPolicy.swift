/// The per-account rates of each `RateClass` (config section `rateLimits`).
public struct RateLimitPolicy: Sendable, Equatable {
    /// Registration routes: sustained requests per minute.
    public var registrationPerMinute: Double
    /// Registration routes: the burst (bucket capacity).
    public var registrationBurst: Int
    /// Notify routes: sustained requests per second.
    public var notifyPerSecond: Double
    /// Notify routes: the burst (bucket capacity).
    public var notifyBurst: Int

    public init(registrationPerMinute: Double = 20, registrationBurst: Int = 20,
                notifyPerSecond: Double = 20, notifyBurst: Int = 100) {
        self.registrationPerMinute = registrationPerMinute
        self.registrationBurst = registrationBurst
        self.notifyPerSecond = notifyPerSecond
        self.notifyBurst = notifyBurst
    }

    public static let `default` = RateLimitPolicy()

    /// A fresh (full) bucket for `rateClass`.
    public func newBucket(for rateClass: RateClass, now: Double) -> TokenBucket {
        switch rateClass {
        case .registration:
            return TokenBucket(capacity: Double(registrationBurst), refillPerSecond: registrationPerMinute / 60, now: now)
        case .notify:
            return TokenBucket(capacity: Double(notifyBurst), refillPerSecond: notifyPerSecond, now: now)
        }
    }
}
