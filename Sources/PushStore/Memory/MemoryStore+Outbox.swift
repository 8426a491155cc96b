import Foundation
import PushProtocol

extension MemoryStore {
    /// Due rows oldest due first (ties in queue order); `limit` counts the expired and orphaned rows
    /// dropped on the way, as the SQL stores' `LIMIT` does.
    package func claimDue(provider: Provider, apps: AppFilter, limit: Int, now: Date) throws -> OutboxClaim {
        let nowMs = now.unixMilliseconds
        let leaseEnd = now.addingTimeInterval(configuration.claimLease).unixMilliseconds
        return try write { tables in
            let due = (tables.outbox[provider] ?? [:]).values
                .filter { $0.nextAttemptAt <= nowMs && apps.admits(tables.registrations[$0.registrationId]?.address.appId) }
                .sorted { ($0.nextAttemptAt, $0.id) < ($1.nextAttemptAt, $1.id) }
                .prefix(max(0, limit))
            var claim = OutboxClaim()
            for var row in due {
                if row.expiresAt <= nowMs {
                    tables.deleteEntry(row.id, outcome: .expired, at: nowMs)
                    claim.expired += 1
                    continue
                }
                guard let registration = tables.registrations[row.registrationId],
                      let notification = tables.notifications[row.notification] else {
                    // Its registration is gone (pruned or revoked): for the status, the device is dead.
                    tables.deleteEntry(row.id, outcome: .dead, at: nowMs)
                    claim.orphaned += 1
                    continue
                }
                row.claimed = true
                row.attempts += 1
                row.nextAttemptAt = leaseEnd
                tables.outbox[provider]![row.id] = row
                claim.entries.append(OutboxEntry(
                    id: row.id, attempts: row.attempts, createdAt: Date(unixMilliseconds: row.createdAt),
                    expiresAt: Date(unixMilliseconds: row.expiresAt), notification: notification.record,
                    registration: registration.withoutLastDelivery))
            }
            return claim
        }
    }

    package func complete(_ finished: [FinishedDelivery], at now: Date) throws {
        guard !finished.isEmpty else { return }
        try write { tables in
            for delivery in finished { tables.deleteEntry(delivery.id, outcome: delivery.outcome, at: now.unixMilliseconds) }
        }
    }

    package func reschedule(_ entryID: Int64, at date: Date) throws {
        try write { tables in
            guard let (provider, row) = tables.row(entryID) else { return }
            tables.outbox[provider]![entryID]!.claimed = false
            tables.outbox[provider]![entryID]!.nextAttemptAt = date.unixMilliseconds
            tables.recordLastOutcome(LastOutcome.retrying, of: row.registrationId)
        }
    }

    package func notificationStatus(id: String, caller: String) throws -> NotificationStatus? {
        try read { $0.status(of: id, caller: caller) }
    }

    /// One process: every claimed row is this store's, so renewing is moving its lease end.
    package func renewClaims(_ entryIDs: [Int64], now: Date) throws -> Set<Int64> {
        guard !entryIDs.isEmpty else { return [] }
        let leaseEnd = now.addingTimeInterval(configuration.claimLease).unixMilliseconds
        return try write { tables in
            var held = Set<Int64>()
            for id in entryIDs {
                guard let (provider, row) = tables.row(id), row.claimed else { continue }
                tables.outbox[provider]![id]!.nextAttemptAt = leaseEnd
                held.insert(id)
            }
            return held
        }
    }

    package func outboxStatistics() throws -> [Provider: OutboxStatistics] {
        try read { tables in
            tables.outbox.compactMapValues { rows -> OutboxStatistics? in
                guard let oldest = rows.values.lazy.map(\.createdAt).min() else { return nil }
                return OutboxStatistics(depth: rows.count, oldestCreatedAt: Date(unixMilliseconds: oldest))
            }
        }
    }
}
