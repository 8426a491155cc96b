import Foundation
import PushProtocol
import PushStore

/// Forwards to a `SQLiteStore` but leaves `enqueue(_:fanningOut:…)` to the protocol's portable
/// default (recipients read into Swift, deliveries chosen there, then one row insert each): the
/// Notify write path before the in-SQLite fan-out, for a before/after figure in one run.
final class PortableStore: PushStore {
    let base: SQLiteStore

    init(_ base: SQLiteStore) { self.base = base }

    func saveRegistration(_ registration: Registration) throws -> Registration { try base.saveRegistration(registration) }
    func registrations(ofAccount account: String) throws -> [Registration] { try base.registrations(ofAccount: account) }
    func deleteRegistrations(ofAccount account: String, deviceId: String) throws -> Int {
        try base.deleteRegistrations(ofAccount: account, deviceId: deviceId)
    }
    func deleteRegistrations(ofAccount account: String, platform: Platform, token: String) throws -> Int {
        try base.deleteRegistrations(ofAccount: account, platform: platform, token: token)
    }
    func addSpace(_ spaceKey: String, account: String, at date: Date) throws { try base.addSpace(spaceKey, account: account, at: date) }
    func removeSpace(_ spaceKey: String, account: String) throws { try base.removeSpace(spaceKey, account: account) }
    func spaces(ofAccount account: String) throws -> Set<String> { try base.spaces(ofAccount: account) }
    func replaceSubscriptions(ofAccount account: String, with topics: [TopicRef], limit: Int) throws -> Int {
        try base.replaceSubscriptions(ofAccount: account, with: topics, limit: limit)
    }
    func addSubscriptions(ofAccount account: String, _ topics: [TopicRef], limit: Int) throws -> Int {
        try base.addSubscriptions(ofAccount: account, topics, limit: limit)
    }
    func removeSubscriptions(ofAccount account: String, _ topics: [TopicRef]) throws -> Int {
        try base.removeSubscriptions(ofAccount: account, topics)
    }
    func subscriptions(ofAccount account: String) throws -> [TopicRef] { try base.subscriptions(ofAccount: account) }
    func recipients(of topics: [TopicRef]) throws -> [Recipient] { try base.recipients(of: topics) }
    func acceptedNotification(caller: String, key: IdempotencyKey, since: Date) throws -> String? {
        try base.acceptedNotification(caller: caller, key: key, since: since)
    }
    func enqueue(_ notification: NotificationRecord, deliveries: [Delivery], superseding: Supersession?, caller: String,
                 key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult {
        try base.enqueue(notification, deliveries: deliveries, superseding: superseding, caller: caller, key: key,
                         duplicateSince: duplicateSince)
    }
    func claimDue(provider: Provider, limit: Int, now: Date) throws -> OutboxClaim { try base.claimDue(provider: provider, limit: limit, now: now) }
    func complete(_ finished: [FinishedDelivery], at now: Date) throws { try base.complete(finished, at: now) }
    func notificationStatus(id: String, caller: String) throws -> NotificationStatus? {
        try base.notificationStatus(id: id, caller: caller)
    }
    func reschedule(_ entryID: Int64, at date: Date) throws { try base.reschedule(entryID, at: date) }
    func renewClaims(_ entryIDs: [Int64], now: Date) throws -> Set<Int64> { try base.renewClaims(entryIDs, now: now) }
    func onEnqueue(_ handler: @escaping @Sendable () -> Void) { base.onEnqueue(handler) }
    func pruneRegistration(_ registrationId: String, notUpdatedAfter: Date) throws -> Bool {
        try base.pruneRegistration(registrationId, notUpdatedAfter: notUpdatedAfter)
    }
    func outboxStatistics() throws -> [Provider: OutboxStatistics] { try base.outboxStatistics() }
    func registrationCounts() throws -> [Platform: Int] { try base.registrationCounts() }
    func purgeExpired(now: Date) throws -> PurgeCounts { try base.purgeExpired(now: now) }
    func probeWrite() throws { try base.probeWrite() }
    func statistics() -> StoreStatistics { base.statistics() }
    func close() { base.close() }
}
