/// The per-account rates of each `RateClass` (config section `rateLimits`).
package struct RateLimitPolicy: Sendable, Equatable {
    /// Registration routes: sustained requests per minute.
    package var registrationPerMinute: Double
    /// Registration routes: the burst (bucket capacity).
    package var registrationBurst: Int
    /// Notify routes: sustained requests per second.
    package var notifyPerSecond: Double
    /// Notify routes: the burst (bucket capacity).
    package var notifyBurst: Int

    package init(registrationPerMinute: Double = 20, registrationBurst: Int = 20,
                notifyPerSecond: Double = 20, notifyBurst: Int = 100) {
        self.registrationPerMinute = registrationPerMinute
        self.registrationBurst = registrationBurst
        self.notifyPerSecond = notifyPerSecond
        self.notifyBurst = notifyBurst
    }

    package static let `default` = RateLimitPolicy()

    /// Test pushes per registration (`RateClass.testPush`): a burst of 3, then one every 20 s.
    package static let testPushBurst = 3
    package static let testPushPerMinute: Double = 3

    /// A fresh (full) bucket for `rateClass`.
    package func newBucket(for rateClass: RateClass, now: Double) -> TokenBucket {
        switch rateClass {
        case .registration:
            return TokenBucket(capacity: Double(registrationBurst), refillPerSecond: registrationPerMinute / 60, now: now)
        case .notify:
            return TokenBucket(capacity: Double(notifyBurst), refillPerSecond: notifyPerSecond, now: now)
        case .testPush:
            return TokenBucket(capacity: Double(Self.testPushBurst), refillPerSecond: Self.testPushPerMinute / 60, now: now)
        }
    }
}
