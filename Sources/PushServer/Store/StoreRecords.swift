import Foundation
import PushProtocol

/// A device token registration as stored.
public struct Registration: Sendable, Equatable {
    public var id: String
    public var account: String
    public var deviceId: String
    public var platform: Platform
    /// The FCM/APNs token or Web Push endpoint. A secret: never log it in full.
    public var token: String
    public var p256dh: [UInt8]?
    public var auth: [UInt8]?
    public var appId: String
    public var environment: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: String, account: String, deviceId: String, platform: Platform, token: String,
                p256dh: [UInt8]? = nil, auth: [UInt8]? = nil, appId: String, environment: String,
                createdAt: Date, updatedAt: Date) {
        self.id = id
        self.account = account
        self.deviceId = deviceId
        self.platform = platform
        self.token = token
        self.p256dh = p256dh
        self.auth = auth
        self.appId = appId
        self.environment = environment
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What recipient resolution and call routing need of a registration (no token, no keys).
public struct Recipient: Sendable, Hashable {
    public var registrationId: String
    public var account: String
    public var deviceId: String
    public var platform: Platform

    public init(registrationId: String, account: String, deviceId: String, platform: Platform) {
        self.registrationId = registrationId
        self.account = account
        self.deviceId = deviceId
        self.platform = platform
    }
}

/// A notification as stored once for all its deliveries.
public struct NotificationRecord: Sendable, Equatable {
    /// The public id (`x-any-id`, the Notify answer's `id`).
    public var id: String
    public var kind: NotifyKind
    public var keyId: String?
    public var payload: [UInt8]?
    public var signature: [UInt8]?
    public var groupId: String?
    public var createdAt: Date
    /// `createdAt + ttl`: no delivery is attempted after it.
    public var expiresAt: Date

    public init(id: String, kind: NotifyKind, keyId: String? = nil, payload: [UInt8]? = nil, signature: [UInt8]? = nil,
                groupId: String? = nil, createdAt: Date, expiresAt: Date) {
        self.id = id
        self.kind = kind
        self.keyId = keyId
        self.payload = payload
        self.signature = signature
        self.groupId = groupId
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// One delivery to queue: a registration through its provider.
public struct Delivery: Sendable, Hashable {
    public var registrationId: String
    public var provider: Provider

    public init(registrationId: String, provider: Provider) {
        self.registrationId = registrationId
        self.provider = provider
    }
}

/// The answer of `PushStore.enqueue`.
public enum EnqueueOutcome: Sendable, Equatable {
    /// Stored; the notification's id.
    case accepted(String)
    /// Already accepted within the window: the first notification's id; nothing was written.
    case duplicate(String)
}
