import Foundation
import PushProtocol

/// The rows of a `MemoryStore`: the SQL stores' tables as dictionaries, with the indexes their
/// queries use kept beside them. Every mutation that touches an index goes through a method here,
/// so a table and its index never disagree.
///
/// Times are unix milliseconds, as SQLite and PostgreSQL keep them, so every comparison (due,
/// expired, inside the duplicate window) is theirs; records are returned at that precision too.
/// A value type: `MemoryStore.restarted()` hands the rows to the next store as they are.
struct MemoryTables {
    private(set) var registrations: [String: Registration] = [:]
    /// Registration ids by account (`registrations_by_account`).
    private(set) var registrationIDs: [String: Set<String>] = [:]
    var spaces: [String: Set<String>] = [:]
    private(set) var subscriptions: [String: Set<TopicRef>] = [:]
    /// Subscribed accounts by topic (`subscriptions_by_topic`).
    private(set) var subscribers: [TopicRef: Set<String>] = [:]
    var idempotency: [IdempotencySlot: IdempotencyRecord] = [:]
    private(set) var notifications: [Int64: StoredNotification] = [:]
    /// Outbox rows by provider, then id: a claim or a purge reads one provider's rows only.
    var outbox: [Provider: [Int64: OutboxRow]] = [:]
    /// Accepted notifications by id, for their status (`notification_log`).
    var notificationLog: [String: LoggedNotification] = [:]
    /// Finished deliveries per notification id, provider and outcome (`delivery_outcomes`).
    var outcomes: [String: [Provider: [FinalOutcome: Int]]] = [:]
    private var lastNotificationSeq: Int64 = 0
    private var lastOutboxID: Int64 = 0

    // MARK: Registrations

    mutating func insert(_ registration: Registration) {
        if let previous = registrations[registration.id] { removeRegistration(previous.id) }
        registrations[registration.id] = registration
        registrationIDs[registration.account, default: []].insert(registration.id)
    }

    @discardableResult
    mutating func removeRegistration(_ id: String) -> Bool {
        guard let registration = registrations.removeValue(forKey: id) else { return false }
        registrationIDs[registration.account]?.remove(id)
        if registrationIDs[registration.account]?.isEmpty == true { registrationIDs[registration.account] = nil }
        return true
    }

    /// The account's registrations, oldest first (then by id, in byte order).
    func registrations(ofAccount account: String) -> [Registration] {
        (registrationIDs[account] ?? []).compactMap { registrations[$0] }.sorted { lhs, rhs in
            lhs.createdAt != rhs.createdAt ? lhs.createdAt < rhs.createdAt : lhs.id.utf8.lexicographicallyPrecedes(rhs.id.utf8)
        }
    }

    // MARK: Subscriptions

    mutating func subscribe(_ account: String, to topic: TopicRef) {
        subscriptions[account, default: []].insert(topic)
        subscribers[topic, default: []].insert(account)
    }

    mutating func unsubscribe(_ account: String, from topic: TopicRef) {
        guard subscriptions[account]?.remove(topic) != nil else { return }
        if subscriptions[account]?.isEmpty == true { subscriptions[account] = nil }
        subscribers[topic]?.remove(account)
        if subscribers[topic]?.isEmpty == true { subscribers[topic] = nil }
    }

    /// Every registration of every account subscribed to any of `topics`, each once; accounts in
    /// byte order, each account's registrations oldest first (the SQL stores promise no order).
    func recipients(of topics: [TopicRef]) -> [Recipient] {
        var accounts = Set<String>()
        for topic in Set(topics) { accounts.formUnion(subscribers[topic] ?? []) }
        return accounts.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.flatMap { account in
            registrations(ofAccount: account).map {
                Recipient(registrationId: $0.id, account: $0.account, deviceId: $0.deviceId, platform: $0.address.platform)
            }
        }
    }

    // MARK: Notifications and the outbox

    /// The notification `caller` had accepted under `key` at or after `since` (milliseconds).
    func accepted(caller: String, key: IdempotencyKey, since: Int64) -> String? {
        guard let record = idempotency[IdempotencySlot(caller: caller, key: key.bytes)], record.createdAt >= since else {
            return nil
        }
        return record.notificationId
    }

    /// Records the key (replacing a record older than the window, which may linger until a purge),
    /// then stores the notification once and a due row per delivery, unless there are none.
    mutating func accept(_ notification: NotificationRecord, deliveries: [Delivery], caller: String, key: IdempotencyKey?) {
        let created = notification.createdAt.unixMilliseconds
        let expires = notification.expiresAt.unixMilliseconds
        if let key {
            idempotency[IdempotencySlot(caller: caller, key: key.bytes)] =
                IdempotencyRecord(notificationId: notification.id, createdAt: created)
        }
        notificationLog[notification.id] = LoggedNotification(caller: caller, createdAt: created)
        guard !deliveries.isEmpty else { return }
        var record = notification
        record.createdAt = Date(unixMilliseconds: created)
        record.expiresAt = Date(unixMilliseconds: expires)
        lastNotificationSeq += 1
        let seq = lastNotificationSeq
        notifications[seq] = StoredNotification(record: record, caller: caller, pending: deliveries.count)
        for delivery in deliveries {
            lastOutboxID += 1
            outbox[delivery.provider, default: [:]][lastOutboxID] = OutboxRow(
                id: lastOutboxID, notification: seq, registrationId: delivery.registrationId,
                nextAttemptAt: created, createdAt: created, expiresAt: expires)
        }
    }

    /// Withdraws the caller's rows of the group to the supersession's devices (claimed ones too);
    /// returns how many went. Rows whose registration is gone are left to the claim.
    mutating func supersede(_ supersession: Supersession, caller: String) -> Int {
        let seqs = Set(notifications.filter { $0.value.caller == caller && $0.value.record.groupId == supersession.groupId }.keys)
        guard !seqs.isEmpty else { return 0 }
        let withdrawn = outbox.values.flatMap(\.values).filter { row in
            guard seqs.contains(row.notification), let registration = registrations[row.registrationId] else { return false }
            return supersession.devices.contains(DeviceRef(account: registration.account, deviceId: registration.deviceId))
        }
        for row in withdrawn { deleteEntry(row.id, outcome: .superseded, at: 0) }
        return withdrawn.count
    }

    /// The outbox row `id`, with its provider.
    func row(_ id: Int64) -> (provider: Provider, row: OutboxRow)? {
        for (provider, rows) in outbox {
            if let row = rows[id] { return (provider, row) }
        }
        return nil
    }

    /// Deletes one outbox row, counts its `outcome` and records it on the registration (unless
    /// superseded), as the SQL stores do; with its last row its notification goes too (then true).
    @discardableResult
    mutating func deleteEntry(_ id: Int64, outcome: FinalOutcome, at nowMs: Int64) -> Bool {
        guard let (provider, row) = row(id) else { return false }
        outbox[provider]?[id] = nil
        if outbox[provider]?.isEmpty == true { outbox[provider] = nil }
        guard var notification = notifications[row.notification] else { return false }
        outcomes[notification.record.id, default: [:]][provider, default: [:]][outcome, default: 0] += 1
        if outcome != .superseded { recordLastOutcome(outcome.rawValue, of: row.registrationId) }
        if outcome == .delivered { registrations[row.registrationId]?.lastDeliveryAt = Date(unixMilliseconds: nowMs) }
        notification.pending -= 1
        if notification.pending <= 0 {
            notifications[row.notification] = nil
            return true
        }
        notifications[row.notification] = notification
        return false
    }

    mutating func recordLastOutcome(_ outcome: String, of registrationId: String) {
        registrations[registrationId]?.lastOutcome = outcome
    }

    /// The status of a notification `caller` sent (nil for another caller's or an unknown id).
    func status(of id: String, caller: String) -> NotificationStatus? {
        guard let logged = notificationLog[id], logged.caller == caller else { return nil }
        var status = NotificationStatus(id: id, createdAt: Date(unixMilliseconds: logged.createdAt))
        for (provider, counts) in outcomes[id] ?? [:] {
            for (outcome, count) in counts { status.providers[provider, default: .init()].add(outcome, count) }
        }
        let seqs = Set(notifications.filter { $0.value.record.id == id }.keys)
        for (provider, rows) in outbox {
            for row in rows.values where seqs.contains(row.notification) {
                status.providers[provider, default: .init()].addPending(
                    claimed: row.claimed, attempts: row.attempts, due: Date(unixMilliseconds: row.nextAttemptAt))
            }
        }
        return status
    }

    /// Every claim released: due at once, stamped with its queueing time (in the past whatever the
    /// clock says, and keeping queue order), as the SQL stores do at open.
    mutating func releaseClaims() {
        for provider in Array(outbox.keys) {
            for (id, row) in outbox[provider]! where row.claimed {
                outbox[provider]![id]!.claimed = false
                outbox[provider]![id]!.nextAttemptAt = row.createdAt
            }
        }
    }
}
