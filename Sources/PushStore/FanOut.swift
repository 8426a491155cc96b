import Foundation
import PushProtocol

/// Which registrations of a Notify's subscribers receive it (PROTOCOL §4): the recipients the
/// service admits, then call routing per device (`DeliveryRouting`).
package struct FanOut: Sendable, Equatable {
    package var kind: NotifyKind
    /// Platforms with credentials; registrations on others get nothing.
    package var enabledPlatforms: Set<Platform>
    /// Every registration of this account is skipped (`/v1/notify`: the caller).
    package var excludedAccount: String?
    /// This one device is skipped (`/v1/notify/silent`: the sending device of the caller).
    package var excludedDevice: (account: String, deviceId: String)?
    /// `replaces`: the caller's undelivered pushes of this group to the devices reached are withdrawn.
    package var replacesGroup: String?

    package init(kind: NotifyKind, enabledPlatforms: Set<Platform>, excludedAccount: String? = nil,
                excludedDevice: (account: String, deviceId: String)? = nil, replacesGroup: String? = nil) {
        self.kind = kind
        self.enabledPlatforms = enabledPlatforms
        self.excludedAccount = excludedAccount
        self.excludedDevice = excludedDevice
        self.replacesGroup = replacesGroup
    }

    package static func == (lhs: FanOut, rhs: FanOut) -> Bool {
        lhs.kind == rhs.kind && lhs.enabledPlatforms == rhs.enabledPlatforms && lhs.excludedAccount == rhs.excludedAccount
            && lhs.excludedDevice?.account == rhs.excludedDevice?.account
            && lhs.excludedDevice?.deviceId == rhs.excludedDevice?.deviceId && lhs.replacesGroup == rhs.replacesGroup
    }

    /// Whether a subscriber's registration is a recipient at all (before call routing).
    package func admits(_ recipient: Recipient) -> Bool {
        guard enabledPlatforms.contains(recipient.platform), recipient.account != excludedAccount else { return false }
        if let excludedDevice, recipient.account == excludedDevice.account, recipient.deviceId == excludedDevice.deviceId {
            return false
        }
        return true
    }

    /// The deliveries to `recipients` (every registration of every subscriber of the topics).
    package func deliveries(to recipients: [Recipient]) -> [Delivery] {
        DeliveryRouting.deliveries(of: kind, to: recipients.filter(admits))
    }

    /// What the Notify withdraws (`replaces`): the caller's earlier pushes of the group to every
    /// device the Notify reaches — each device with an admitted registration, before call
    /// routing, so a clear sent to a phone's alert token also withdraws the ring queued for its
    /// VoIP token.
    package func supersession(of recipients: [Recipient]) -> Supersession? {
        guard let replacesGroup else { return nil }
        let devices = recipients.filter(admits).map { DeviceRef(account: $0.account, deviceId: $0.deviceId) }
        return Supersession(groupId: replacesGroup, devices: Set(devices))
    }
}

extension FanOut {
    /// The portable form of `NotificationStore.enqueue(_:fanningOut:to:…)`: recipients read first
    /// from `registry`, deliveries chosen in Swift, then one `enqueue` transaction of `notifications`.
    package func enqueue(_ notification: NotificationRecord, to topics: [TopicRef], recipientsFrom registry: some RegistryStore,
                         into notifications: some NotificationStore, caller: String, key: IdempotencyKey?,
                         duplicateSince: Date) throws -> EnqueueResult {
        let recipients = topics.isEmpty ? [] : try registry.recipients(of: topics)
        return try notifications.enqueue(notification, deliveries: deliveries(to: recipients), superseding: supersession(of: recipients),
                                         caller: caller, key: key, duplicateSince: duplicateSince)
    }
}

extension NotificationStore where Self: RegistryStore {
    /// The portable fan-out (`FanOut.enqueue`) of a store that holds its own registry. Stores that
    /// can resolve recipients inside their write transaction (SQLite) override it.
    package func enqueue(_ notification: NotificationRecord, fanningOut fanOut: FanOut, to topics: [TopicRef],
                        caller: String, key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult {
        try fanOut.enqueue(notification, to: topics, recipientsFrom: self, into: self, caller: caller, key: key,
                           duplicateSince: duplicateSince)
    }
}

extension NotificationStore {
    /// `enqueue` of fixed deliveries with a key and nothing to supersede (benchmarks and tests).
    package func enqueue(_ notification: NotificationRecord, deliveries: [Delivery], caller: String, key: IdempotencyKey,
                         duplicateSince: Date) throws -> EnqueueOutcome {
        try enqueue(notification, deliveries: deliveries, superseding: nil, caller: caller, key: key,
                    duplicateSince: duplicateSince).outcome
    }
}
