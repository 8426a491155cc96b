import Foundation
import PushProtocol
import PushStore

/// The notification role of a `SQLiteStore` with `enqueue(_:fanningOut:…)` in its portable form
/// (`FanOut.enqueue`: recipients read into Swift, deliveries chosen there, then one row insert
/// each): the Notify write path before the in-SQLite fan-out, for a before/after figure in one run.
final class PortableStore: NotificationStore {
    let base: SQLiteStore

    init(_ base: SQLiteStore) { self.base = base }

    func enqueue(_ notification: NotificationRecord, deliveries: [Delivery], superseding: Supersession?, caller: String,
                 key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult {
        try base.enqueue(notification, deliveries: deliveries, superseding: superseding, caller: caller, key: key,
                         duplicateSince: duplicateSince)
    }
    func enqueue(_ notification: NotificationRecord, fanningOut fanOut: FanOut, to topics: [TopicRef],
                 caller: String, key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult {
        try fanOut.enqueue(notification, to: topics, recipientsFrom: base, into: self, caller: caller, key: key,
                           duplicateSince: duplicateSince)
    }
    func notificationStatus(id: String, caller: String) throws -> NotificationStatus? {
        try base.notificationStatus(id: id, caller: caller)
    }
    func probeWrite() throws { try base.probeWrite() }
}
