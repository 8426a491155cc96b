import Foundation
import PushProtocol
@testable import PushStore

/// A store failure whose text holds something that must never reach a client.
struct LeakyStoreError: Error, CustomStringConvertible {
    static let secret = "SECRET-tok-4f1c9e"
    var description: String { "disk full writing /var/lib/pushnode (\(Self.secret))" }
}

/// A store whose every call fails with `LeakyStoreError`.
final class FailingStore: PushStore {
    private func fail() throws -> Never { throw LeakyStoreError() }

    func saveRegistration(_ registration: Registration) throws -> Registration { try fail() }
    func registrations(ofAccount account: String) throws -> [Registration] { try fail() }
    func deleteRegistrations(ofAccount account: String, deviceId: String) throws -> Int { try fail() }
    func deleteRegistrations(ofAccount account: String, platform: Platform, token: String) throws -> Int { try fail() }
    func addSpace(_ spaceKey: String, account: String, at date: Date) throws { try fail() }
    func removeSpace(_ spaceKey: String, account: String) throws { try fail() }
    func spaces(ofAccount account: String) throws -> Set<String> { try fail() }
    func replaceSubscriptions(ofAccount account: String, with topics: [TopicRef], limit: Int) throws -> Int { try fail() }
    func addSubscriptions(ofAccount account: String, _ topics: [TopicRef], limit: Int) throws -> Int { try fail() }
    func removeSubscriptions(ofAccount account: String, _ topics: [TopicRef]) throws -> Int { try fail() }
    func subscriptions(ofAccount account: String) throws -> [TopicRef] { try fail() }
    func recipients(of topics: [TopicRef]) throws -> [Recipient] { try fail() }
    func acceptedNotification(caller: String, key: IdempotencyKey, since: Date) throws -> String? { try fail() }
    func enqueue(_ notification: NotificationRecord, deliveries: [Delivery], caller: String, key: IdempotencyKey,
                 duplicateSince: Date) throws -> EnqueueOutcome { try fail() }
    func claimDue(provider: Provider, limit: Int, now: Date) throws -> OutboxClaim { try fail() }
    func complete(_ entryIDs: [Int64]) throws { try fail() }
    func reschedule(_ entryID: Int64, at date: Date) throws { try fail() }
    func renewClaims(_ entryIDs: [Int64], now: Date) throws -> Set<Int64> { try fail() }
    func onEnqueue(_ handler: @escaping @Sendable () -> Void) {}
    func pruneRegistration(_ registrationId: String, notUpdatedAfter: Date) throws -> Bool { try fail() }
    func outboxStatistics() throws -> [Provider: OutboxStatistics] { try fail() }
    func purgeExpired(now: Date) throws -> PurgeCounts { try fail() }
    func statistics() -> StoreStatistics { StoreStatistics() }
    func close() {}
}
