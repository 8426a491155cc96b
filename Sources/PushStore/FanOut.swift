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

    package init(kind: NotifyKind, enabledPlatforms: Set<Platform>, excludedAccount: String? = nil,
                excludedDevice: (account: String, deviceId: String)? = nil) {
        self.kind = kind
        self.enabledPlatforms = enabledPlatforms
        self.excludedAccount = excludedAccount
        self.excludedDevice = excludedDevice
    }

    package static func == (lhs: FanOut, rhs: FanOut) -> Bool {
        lhs.kind == rhs.kind && lhs.enabledPlatforms == rhs.enabledPlatforms && lhs.excludedAccount == rhs.excludedAccount
            && lhs.excludedDevice?.account == rhs.excludedDevice?.account
            && lhs.excludedDevice?.deviceId == rhs.excludedDevice?.deviceId
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
}

extension PushStore {
    /// The portable form of `enqueue(_:fanningOut:to:…)`: recipients read first, deliveries
    /// chosen in Swift, then one `enqueue` transaction. Stores that can resolve recipients inside
    /// their write transaction (SQLite) override it.
    package func enqueue(_ notification: NotificationRecord, fanningOut fanOut: FanOut, to topics: [TopicRef],
                        caller: String, key: IdempotencyKey, duplicateSince: Date) throws -> (EnqueueOutcome, deliveries: Int) {
        let deliveries = topics.isEmpty ? [] : fanOut.deliveries(to: try recipients(of: topics))
        let outcome = try enqueue(notification, deliveries: deliveries, caller: caller, key: key, duplicateSince: duplicateSince)
        if case .duplicate = outcome { return (outcome, 0) }
        return (outcome, deliveries.count)
    }
}
