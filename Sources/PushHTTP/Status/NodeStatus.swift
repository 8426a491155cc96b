import Foundation
import PushSupport

/// What `/status` and `/status.json` show (PROTOCOL §3.3): a snapshot the node assembles from the
/// engine, the store and its config at request time. Identifies nothing about anyone: provider
/// names, counts, reason codes and the first 8 characters of notification ids — never a token,
/// endpoint, registration id, account or the storage URL.
package struct NodeStatus: Sendable, Equatable, Encodable {
    package struct ProviderRow: Sendable, Equatable, Encodable {
        package var provider: String
        /// `ProviderHealth.State`'s name: `healthy`, `credentials_refused`, `misconfigured`.
        package var health: String
        /// Deliveries queued or in flight.
        package var queueDepth: Int
        /// Age of the oldest of them; 0 with an empty queue.
        package var oldestAgeSeconds: Double
        /// Requests sent and not yet answered.
        package var inFlight: Int
        package var lastFailure: Failure?

        package init(provider: String, health: String, queueDepth: Int, oldestAgeSeconds: Double, inFlight: Int,
                    lastFailure: Failure? = nil) {
            self.provider = provider
            self.health = health
            self.queueDepth = queueDepth
            self.oldestAgeSeconds = oldestAgeSeconds
            self.inFlight = inFlight
            self.lastFailure = lastFailure
        }
    }

    /// The last try of a provider that did not deliver.
    package struct Failure: Sendable, Equatable, Encodable {
        package var reason: String
        package var at: Date

        package init(reason: String, at: Date) {
            self.reason = reason
            self.at = at
        }
    }

    /// One minute of finished tries, all providers together.
    package struct Minute: Sendable, Equatable, Encodable {
        package var start: Date
        package var delivered = 0
        package var retried = 0
        package var dead = 0
        package var rejected = 0
        package var expired = 0

        package init(start: Date, delivered: Int = 0, retried: Int = 0, dead: Int = 0, rejected: Int = 0, expired: Int = 0) {
            self.start = start
            self.delivered = delivered
            self.retried = retried
            self.dead = dead
            self.rejected = rejected
            self.expired = expired
        }

        /// The outcomes in the order the chart stacks them, with their counts.
        package var stacked: [(outcome: String, count: Int)] {
            [("delivered", delivered), ("retried", retried), ("dead", dead), ("rejected", rejected), ("expired", expired)]
        }

        package var total: Int { delivered + retried + dead + rejected + expired }
    }

    /// One finished try.
    package struct Outcome: Sendable, Equatable, Encodable {
        package var at: Date
        package var provider: String
        package var kind: String
        package var outcome: String
        package var reason: String?
        /// The Notify id's first characters, as the engine's `RecentDeliveries` shortened it (the
        /// one place the length is decided).
        package var notification: String

        package init(at: Date, provider: String, kind: String, outcome: String, reason: String?, notification: String) {
            self.at = at
            self.provider = provider
            self.kind = kind
            self.outcome = outcome
            self.reason = reason
            self.notification = notification
        }
    }

    package var version: String
    package var generatedAt: Date
    package var startedAt: Date
    package var uptimeSeconds: Int
    /// `storage.driver`: `sqlite` or `postgres`.
    package var storage: String
    package var providers: [ProviderRow]
    /// Platform → registrations, over every account.
    package var registrations: [String: Int]
    /// The last hour, oldest first.
    package var perMinute: [Minute]
    /// The last finished tries, newest first.
    package var recent: [Outcome]

    package init(version: String, generatedAt: Date, startedAt: Date, uptimeSeconds: Int, storage: String,
                providers: [ProviderRow], registrations: [String: Int], perMinute: [Minute], recent: [Outcome]) {
        self.version = version
        self.generatedAt = generatedAt
        self.startedAt = startedAt
        self.uptimeSeconds = uptimeSeconds
        self.storage = storage
        self.providers = providers
        self.registrations = registrations
        self.perMinute = perMinute
        self.recent = recent
    }

    /// The `/status.json` body (dates as RFC 3339).
    package var json: [UInt8] { JSON.encode(self, rfc3339Dates: true) }
}
