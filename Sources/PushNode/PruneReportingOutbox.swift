import Foundation
import PushProtocol
import PushStore

/// The engine's outbox with one addition: each registration it prunes (a provider said the
/// device is gone) is reported, so the Matrix door can tell the homeserver to drop that pusher
/// (`DeadPushkeys`). Every call is the wrapped store's.
final class PruneReportingOutbox: OutboxStore {
    private let store: any OutboxStore
    private let pruned: @Sendable (String) -> Void

    init(_ store: any OutboxStore, pruned: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.pruned = pruned
    }

    func pruneRegistration(_ registrationId: String, notUpdatedAfter: Date) throws -> Bool {
        let deleted = try store.pruneRegistration(registrationId, notUpdatedAfter: notUpdatedAfter)
        if deleted { pruned(registrationId) }
        return deleted
    }

    func claimDue(provider: Provider, apps: AppFilter, limit: Int, now: Date) throws -> OutboxClaim {
        try store.claimDue(provider: provider, apps: apps, limit: limit, now: now)
    }

    func complete(_ finished: [FinishedDelivery], at now: Date) throws { try store.complete(finished, at: now) }
    func reschedule(_ entryID: Int64, at date: Date) throws { try store.reschedule(entryID, at: date) }
    func release(_ entryIDs: [Int64], until date: Date) throws { try store.release(entryIDs, until: date) }
    func renewClaims(_ entryIDs: [Int64], now: Date) throws -> Set<Int64> { try store.renewClaims(entryIDs, now: now) }
    func onEnqueue(_ handler: @escaping @Sendable () -> Void) { store.onEnqueue(handler) }
    func outboxStatistics() throws -> [Provider: OutboxStatistics] { try store.outboxStatistics() }
    func purgeExpired(now: Date) throws -> PurgeCounts { try store.purgeExpired(now: now) }
}
