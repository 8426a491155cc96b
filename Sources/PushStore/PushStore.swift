import Foundation
import PushProtocol

/// Persistence of the push node: registrations, spaces, subscriptions, notifications with their
/// idempotency records, and the durable outbox the delivery engine drains — the composition of the
/// store's roles, which the three stores (memory, SQLite, PostgreSQL) implement and the node opens
/// and closes. Each user names the narrowest role it calls: the service `RegistryStore &
/// NotificationStore` (one store, or two apart), the delivery engine `OutboxStore`, the status page
/// `OutboxStore & StoreStatus`; a test double implements only the role it stands in for.
///
/// Every method of every role blocks the calling thread and is safe to call from many threads at
/// once. A method that writes returns only after its change is committed. Accounts are account-id
/// strings and space keys base58 strings; nothing here is specific to one database.
package protocol PushStore: RegistryStore, NotificationStore, OutboxStore, StoreStatus {
    /// Finishes queued writes and closes; later calls of any role throw `StoreError.closed`.
    func close()
}

/// Registrations, spaces and subscriptions: what the service's token, space and subscription
/// operations read and write, and whom a Notify reaches.
package protocol RegistryStore: AnyObject, Sendable {
    // MARK: Registrations

    /// Inserts or replaces the registration with `registration.id`, moving it to `registration.account`
    /// when another account held it (its `createdAt` then restarts). The same device's older registration
    /// for the same platform and app (a rotated token) is removed. Returns what was stored.
    func saveRegistration(_ registration: Registration) throws -> Registration
    /// The account's registrations, oldest first.
    func registrations(ofAccount account: String) throws -> [Registration]
    /// The registration with `id`, whichever account holds it (its last outcome and delivery left out).
    func registration(id: String) throws -> Registration?
    /// Removes every registration of one device of the account; returns how many.
    @discardableResult
    func deleteRegistrations(ofAccount account: String, deviceId: String) throws -> Int
    /// Removes the account's registrations of `token` on `platform` (any app or environment).
    @discardableResult
    func deleteRegistrations(ofAccount account: String, platform: Platform, token: String) throws -> Int

    // MARK: Spaces

    func addSpace(_ spaceKey: String, account: String, at date: Date) throws
    /// Removes the space and the account's subscriptions in it.
    func removeSpace(_ spaceKey: String, account: String) throws
    /// The space keys the account registered.
    func spaces(ofAccount account: String) throws -> Set<String>

    // MARK: Subscriptions

    /// Replaces the account's whole set; returns the count after. Throws
    /// `StoreError.subscriptionLimitExceeded` (and changes nothing) past `limit`.
    func replaceSubscriptions(ofAccount account: String, with topics: [TopicRef], limit: Int) throws -> Int
    /// Adds topics; returns the count after. Throws `StoreError.subscriptionLimitExceeded` past `limit`.
    func addSubscriptions(ofAccount account: String, _ topics: [TopicRef], limit: Int) throws -> Int
    /// Removes topics; returns the count after.
    func removeSubscriptions(ofAccount account: String, _ topics: [TopicRef]) throws -> Int
    /// The account's topics in `(spaceKey, topic)` byte order.
    func subscriptions(ofAccount account: String) throws -> [TopicRef]
    /// Every registration of every account subscribed to any of `topics`, each once.
    func recipients(of topics: [TopicRef]) throws -> [Recipient]

}

/// Notifications with their idempotency records and statuses: the service's Notify and outcome
/// operations.
package protocol NotificationStore: AnyObject, Sendable {
    /// In one transaction: unless `caller` had a notification accepted under `key` at or after
    /// `duplicateSince` (then `.duplicate` and nothing is written), records the key, withdraws what
    /// `superseding` names, stores the notification once and one outbox row per delivery. Without
    /// a key (a content-free wake) nothing is a duplicate and no key is recorded.
    func enqueue(_ notification: NotificationRecord, deliveries: [Delivery], superseding: Supersession?, caller: String,
                 key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult
    /// The same, with the deliveries (and, when `fanOut.replacesGroup` is set, the devices whose
    /// earlier deliveries are withdrawn) resolved by the store: every registration of every account
    /// subscribed to any of `topics` that `fanOut` admits, with its call routing. A store that is
    /// also the `RegistryStore` gets the portable form (`FanOut.enqueue`: recipients, then
    /// `enqueue`) by default; it may do it inside its write transaction instead.
    func enqueue(_ notification: NotificationRecord, fanningOut fanOut: FanOut, to topics: [TopicRef],
                 caller: String, key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult
    /// The status of the notification `id` if `caller` sent it and it is younger than the
    /// store's outcome retention (PROTOCOL §4.4), else nil: its deliveries still in the outbox by
    /// state, and the finished ones by outcome, per provider.
    func notificationStatus(id: String, caller: String) throws -> NotificationStatus?
    /// Commits one write that needs at least the fresh room a lone Notify's commit needs (PROTOCOL
    /// §3.3): what `/readyz` tries while writes fail, so that a node nobody writes to turns ready
    /// again once writes work. Throws what a Notify's commit would throw.
    func probeWrite() throws
}

/// The durable outbox the delivery engine drains: claims, their leases and outcomes, the wakeup
/// after new rows, the queue's statistics and the periodic purge.
package protocol OutboxStore: AnyObject, Sendable {
    /// Claims up to `limit` due deliveries of `provider` (oldest due first) for the store's lease time,
    /// counting an attempt on each. Rows past their expiry and rows whose registration is gone are
    /// deleted on the way and counted in the claim. A claim that is neither completed nor rescheduled
    /// before its lease ends becomes due again (a crashed sender). `apps` narrows the claim to the
    /// registrations of some apps (`AppFilter`).
    func claimDue(provider: Provider, apps: AppFilter, limit: Int, now: Date) throws -> OutboxClaim
    /// Deletes finished deliveries, counting each one's outcome for its notification's status and
    /// its registration's `lastOutcome` (and `lastDeliveryAt` = `now` when delivered).
    func complete(_ finished: [FinishedDelivery], at now: Date) throws
    /// Returns a claimed delivery to the queue, due at `date`; its registration's `lastOutcome`
    /// becomes `retrying`.
    func reschedule(_ entryID: Int64, at date: Date) throws
    /// Returns claimed deliveries to the queue untried, due at `date`: the attempt their claim
    /// counted is taken back and their registrations' `lastOutcome` is left alone (the engine's
    /// fair share had no room for them).
    func release(_ entryIDs: [Int64], until date: Date) throws
    /// Extends the claims on `entryIDs` to a full lease from `now`, for sends still in flight (call it
    /// well within the lease, e.g. every third of it). Rows no longer held by this node (completed, or
    /// claimed by another node after the lease lapsed) are left alone; returns the ids still held.
    @discardableResult
    func renewClaims(_ entryIDs: [Int64], now: Date) throws -> Set<Int64>
    /// Registers `handler` to be called after new outbox rows were committed — by this process, or
    /// (PostgreSQL) by any node on the database — so idle delivery workers wake without polling. A
    /// hint only: workers still sweep on a timer for retries that come due and lapsed leases. `close`
    /// drops the handlers.
    func onEnqueue(_ handler: @escaping @Sendable () -> Void)
    /// Deletes a dead registration unless it was registered again after `notUpdatedAfter`; its
    /// queued deliveries are dropped when claimed. Returns whether it was deleted.
    @discardableResult
    func pruneRegistration(_ registrationId: String, notUpdatedAfter: Date) throws -> Bool
    /// Queue depth and oldest entry per provider (providers with an empty queue are absent).
    func outboxStatistics() throws -> [Provider: OutboxStatistics]
    /// Deletes idempotency records older than 24 h before `now`, queued deliveries past their ttl
    /// (with their notification once it has no delivery left, each counted `expired`), and
    /// notification statuses older than the outcome retention. Works in bounded batches: call it
    /// periodically (e.g. every minute), or again while it returns non-zero counts.
    @discardableResult
    func purgeExpired(now: Date) throws -> PurgeCounts
}

/// What the status page and `/metrics` read besides the outbox: registrations per platform (and per
/// app, at start) and the store's commit counts.
package protocol StoreStatus: AnyObject, Sendable {
    /// How many registrations each platform has, over every account (platforms with none are
    /// absent); for the status page.
    func registrationCounts() throws -> [Platform: Int]
    /// How many registrations each stored `appId` has, over every account (an empty id as
    /// stored); for the start's warning about apps the config no longer has (PROTOCOL §10).
    func registrationCountsByApp() throws -> [String: Int]
    /// Commit counts and latency, for `/metrics`.
    func statistics() -> StoreStatistics
}

extension OutboxStore {
    /// Claims due deliveries of every app (`claimDue(provider:apps:limit:now:)` with `.all`).
    package func claimDue(provider: Provider, limit: Int, now: Date) throws -> OutboxClaim {
        try claimDue(provider: provider, apps: .all, limit: limit, now: now)
    }
}
