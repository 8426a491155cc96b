import Foundation
import PushProtocol
import PushSupport

/// What `/status` and `/status.json` show (PROTOCOL §3.3): a snapshot the node assembles from the
/// engine, the store and its config at request time. Identifies nothing about anyone: provider
/// names, counts, reason codes and the first 8 characters of notification ids — never a token,
/// endpoint, registration id, account or the storage URL.
package struct NodeStatus: Sendable, Equatable, Encodable {
    /// The app of the top-level provider sections.
    package static let defaultApp = "default"

    /// One delivery lane: a provider for one app (PROTOCOL §10). The queue is the provider's, over
    /// every app (the outbox is kept per provider); health, in flight and the last failure are the lane's.
    package struct ProviderRow: Sendable, Equatable, Encodable {
        package var provider: String
        package var app: String
        package var health: ProviderHealthState
        /// Deliveries queued or in flight.
        package var queueDepth: Int
        /// Age of the oldest of them; 0 with an empty queue.
        package var oldestAgeSeconds: Double
        /// Requests sent and not yet answered.
        package var inFlight: Int
        package var lastFailure: Failure?

        package init(provider: String, health: ProviderHealthState, queueDepth: Int, oldestAgeSeconds: Double, inFlight: Int,
                    lastFailure: Failure? = nil, app: String = NodeStatus.defaultApp) {
            self.provider = provider
            self.app = app
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
        package var counts: [TryOutcome: Int]

        package init(start: Date, counts: [TryOutcome: Int] = [:]) {
            self.start = start
            self.counts = counts
        }

        /// Tries that ended in `outcome`; 0 when none did.
        package subscript(outcome: TryOutcome) -> Int {
            get { counts[outcome] ?? 0 }
            set { counts[outcome] = newValue }
        }

        /// Every outcome in the order the chart stacks them, with its count.
        package var stacked: [(outcome: TryOutcome, count: Int)] { TryOutcome.allCases.map { ($0, self[$0]) } }

        package var total: Int { counts.values.reduce(0, +) }

        /// The outcomes `/status.json` writes per minute (PROTOCOL §3.3); `orphaned` is charted
        /// on the page and counted in `pushnode_deliveries_total`, not part of this shape.
        static let encoded: [TryOutcome] = [.delivered, .retried, .dead, .rejected, .expired]

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: NameKey.self)
            try container.encode(start, forKey: NameKey("start"))
            for outcome in Self.encoded { try container.encode(self[outcome], forKey: NameKey(outcome.rawValue)) }
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
    package var recent: [FinishedTry]

    package init(version: String, generatedAt: Date, startedAt: Date, uptimeSeconds: Int, storage: String,
                providers: [ProviderRow], registrations: [String: Int], perMinute: [Minute], recent: [FinishedTry]) {
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
    package var json: [UInt8] { JSON.body(self, formattingDates: Timestamp.rfc3339) }
}
