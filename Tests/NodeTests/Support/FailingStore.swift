import Foundation
import PushProtocol
@testable import PushStore

/// A store failure whose text holds something that must never reach a client.
struct LeakyStoreError: Error, CustomStringConvertible {
    static let secret = "SECRET-tok-4f1c9e"
    var description: String { "disk full writing /var/lib/pushnode (\(Self.secret))" }
}

/// The service's store (its registry and notification roles) whose every call fails with
/// `LeakyStoreError`.
final class FailingStore: RegistryStore, NotificationStore {
    private func fail() throws -> Never { throw LeakyStoreError() }

    func saveRegistration(_ registration: Registration) throws -> Registration { try fail() }
    func registrations(ofAccount account: String) throws -> [Registration] { try fail() }
    func registration(id: String) throws -> Registration? { try fail() }
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
    func enqueue(_ notification: NotificationRecord, deliveries: [Delivery], superseding: Supersession?, caller: String,
                 key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult { try fail() }
    func notificationStatus(id: String, caller: String) throws -> NotificationStatus? { try fail() }
    func probeWrite() throws { try fail() }
}

/// The service's store over a `MemoryStore` (its registry and notification roles) that fails every call with `LeakyStoreError` while `failing` is set (a database
/// that goes away and comes back), and every write while `writesFail` is set (a full disk: reads
/// go on working). `probes` counts `probeWrite` calls.
final class SwitchableStore: RegistryStore, NotificationStore {
    let failing = Box(false)
    let writesFail = Box(false)
    let probes = Box(0)
    private let base = MemoryStore()

    private func pass<T>(_ body: () throws -> T) throws -> T {
        if failing.current { throw LeakyStoreError() }
        return try body()
    }

    private func write<T>(_ body: () throws -> T) throws -> T {
        if writesFail.current { throw LeakyStoreError() }
        return try pass(body)
    }

    func saveRegistration(_ registration: Registration) throws -> Registration { try write { try base.saveRegistration(registration) } }
    func registrations(ofAccount account: String) throws -> [Registration] { try pass { try base.registrations(ofAccount: account) } }
    func registration(id: String) throws -> Registration? { try pass { try base.registration(id: id) } }
    func deleteRegistrations(ofAccount account: String, deviceId: String) throws -> Int {
        try write { try base.deleteRegistrations(ofAccount: account, deviceId: deviceId) }
    }
    func deleteRegistrations(ofAccount account: String, platform: Platform, token: String) throws -> Int {
        try write { try base.deleteRegistrations(ofAccount: account, platform: platform, token: token) }
    }
    func addSpace(_ spaceKey: String, account: String, at date: Date) throws { try write { try base.addSpace(spaceKey, account: account, at: date) } }
    func removeSpace(_ spaceKey: String, account: String) throws { try write { try base.removeSpace(spaceKey, account: account) } }
    func spaces(ofAccount account: String) throws -> Set<String> { try pass { try base.spaces(ofAccount: account) } }
    func replaceSubscriptions(ofAccount account: String, with topics: [TopicRef], limit: Int) throws -> Int {
        try write { try base.replaceSubscriptions(ofAccount: account, with: topics, limit: limit) }
    }
    func addSubscriptions(ofAccount account: String, _ topics: [TopicRef], limit: Int) throws -> Int {
        try write { try base.addSubscriptions(ofAccount: account, topics, limit: limit) }
    }
    func removeSubscriptions(ofAccount account: String, _ topics: [TopicRef]) throws -> Int {
        try write { try base.removeSubscriptions(ofAccount: account, topics) }
    }
    func subscriptions(ofAccount account: String) throws -> [TopicRef] { try pass { try base.subscriptions(ofAccount: account) } }
    func recipients(of topics: [TopicRef]) throws -> [Recipient] { try pass { try base.recipients(of: topics) } }
    func enqueue(_ notification: NotificationRecord, deliveries: [Delivery], superseding: Supersession?, caller: String,
                 key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult {
        try write {
            try base.enqueue(notification, deliveries: deliveries, superseding: superseding, caller: caller, key: key,
                             duplicateSince: duplicateSince)
        }
    }
    func notificationStatus(id: String, caller: String) throws -> NotificationStatus? {
        try pass { try base.notificationStatus(id: id, caller: caller) }
    }
    func probeWrite() throws {
        probes.mutate { $0 += 1 }
        try write { try base.probeWrite() }
    }
}

