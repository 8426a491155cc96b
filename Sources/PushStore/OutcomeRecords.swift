import Foundation
import PushProtocol

/// How a delivery left the outbox (PROTOCOL §6): what `GET /v1/notifications/{id}` counts and a
/// registration's `lastOutcome` says.
package enum FinalOutcome: String, Sendable, CaseIterable, Hashable {
    case delivered, expired, dead, rejected, superseded
}

/// One outbox row finished by a sender, and how.
package struct FinishedDelivery: Sendable, Equatable {
    package var id: Int64
    package var outcome: FinalOutcome

    package init(id: Int64, outcome: FinalOutcome) {
        self.id = id
        self.outcome = outcome
    }
}

/// A registration's `lastOutcome`: a final outcome, or `retrying` after a transient failure.
package enum LastOutcome {
    package static let retrying = "retrying"
}

/// The deliveries of one notification by state, for one provider or in total.
package struct DeliveryStateCounts: Sendable, Equatable {
    /// In the outbox, never tried.
    package var queued = 0
    /// Claimed by a node, a try on the wire.
    package var inFlight = 0
    /// Back in the outbox after a failed try, due at `nextAttemptAt` (the earliest).
    package var retrying = 0
    package var nextAttemptAt: Date?
    package var delivered = 0
    package var expired = 0
    package var dead = 0
    package var rejected = 0
    package var superseded = 0

    package mutating func add(_ outcome: FinalOutcome, _ count: Int) {
        switch outcome {
        case .delivered: delivered += count
        case .expired: expired += count
        case .dead: dead += count
        case .rejected: rejected += count
        case .superseded: superseded += count
        }
    }

    /// A row still in the outbox: `claimed`, or queued (`attempts` 0) or retrying at `due`.
    package mutating func addPending(claimed: Bool, attempts: Int, due: Date) {
        if claimed {
            inFlight += 1
        } else if attempts == 0 {
            queued += 1
        } else {
            retrying += 1
            nextAttemptAt = min(nextAttemptAt ?? due, due)
        }
    }

    package mutating func add(_ other: DeliveryStateCounts) {
        queued += other.queued
        inFlight += other.inFlight
        retrying += other.retrying
        delivered += other.delivered
        expired += other.expired
        dead += other.dead
        rejected += other.rejected
        superseded += other.superseded
        if let next = other.nextAttemptAt { nextAttemptAt = min(nextAttemptAt ?? next, next) }
    }
}

/// What the store knows of one accepted notification: when, and its deliveries per provider.
package struct NotificationStatus: Sendable, Equatable {
    package var id: String
    package var createdAt: Date
    package var providers: [Provider: DeliveryStateCounts] = [:]

    /// Every provider's counts added up.
    package var total: DeliveryStateCounts {
        providers.values.reduce(into: DeliveryStateCounts()) { $0.add($1) }
    }
}
