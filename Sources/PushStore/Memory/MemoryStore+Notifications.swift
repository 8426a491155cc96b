import Foundation
import PushProtocol

extension MemoryStore {
    package func enqueue(_ notification: NotificationRecord, deliveries: [Delivery], superseding: Supersession?,
                         caller: String, key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult {
        try hooks.announce(write { tables -> EnqueueResult in
            if let key, let first = tables.accepted(caller: caller, key: key, since: duplicateSince.unixMilliseconds) {
                return EnqueueResult(.duplicate(first))
            }
            let superseded = superseding.map { tables.supersede($0, caller: caller) } ?? 0
            tables.accept(notification, deliveries: deliveries, caller: caller, key: key)
            return EnqueueResult(.accepted(notification.id), queued: deliveries.count, superseded: superseded)
        })
    }

    /// The portable rule (`FanOut.deliveries(to:)` over the recipients) applied inside the write, so
    /// the recipients and the rows queued for them are one snapshot, as in SQLite's `INSERT … SELECT`.
    package func enqueue(_ notification: NotificationRecord, fanningOut fanOut: FanOut, to topics: [TopicRef],
                         caller: String, key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult {
        try hooks.announce(write { tables -> EnqueueResult in
            if let key, let first = tables.accepted(caller: caller, key: key, since: duplicateSince.unixMilliseconds) {
                return EnqueueResult(.duplicate(first))
            }
            let recipients = tables.recipients(of: topics)
            let superseded = fanOut.supersession(of: recipients).map { tables.supersede($0, caller: caller) } ?? 0
            let deliveries = fanOut.deliveries(to: recipients)
            tables.accept(notification, deliveries: deliveries, caller: caller, key: key)
            return EnqueueResult(.accepted(notification.id), queued: deliveries.count, superseded: superseded)
        })
    }

    package func purgeExpired(now: Date) throws -> PurgeCounts {
        let cutoff = StoreRetention.PurgeCutoffs(now: now, outcomeRetention: configuration.outcomeRetention)
        return try write { tables in
            var counts = PurgeCounts()
            let stale = tables.idempotency.lazy.filter { $0.value.createdAt < cutoff.idempotency }.prefix(StoreRetention.purgeBatch)
            for slot in stale.map(\.key) {
                tables.idempotency[slot] = nil
                counts.idempotencyRecords += 1
            }
            // Queued rows past their ttl (claimed ones are left to their sender); claimDue drops them
            // too, this covers providers nobody claims for.
            for (_, rows) in tables.outbox {
                let expired = rows.values.lazy
                    .filter { !$0.claimed && $0.nextAttemptAt <= cutoff.now && $0.expiresAt <= cutoff.now }
                    .prefix(StoreRetention.purgeBatch).map(\.id)
                for id in Array(expired) where tables.deleteEntry(id, outcome: .expired, at: cutoff.now) {
                    counts.notifications += 1
                }
                counts.deliveries += expired.count
            }
            let old = tables.notificationLog.lazy.filter { $0.value.createdAt < cutoff.statuses }.prefix(StoreRetention.purgeBatch).map(\.key)
            for id in Array(old) {
                tables.notificationLog[id] = nil
                tables.outcomes[id] = nil
                counts.statuses += 1
            }
            return counts
        }
    }
}
