/// A space as the reconcile loop needs it: its push key (to sign topics) and its default mode.
public struct SpaceNotifySettings: Sendable {
    public var signer: any TopicSigner
    /// The space default (`nil`: unset, meaning `all`).
    public var mode: NotifyMode?

    public init(signer: any TopicSigner, mode: NotifyMode? = nil) {
        self.signer = signer
        self.mode = mode
    }

    public var spaceKey: String { signer.spaceKey }
}

/// Where the reconcile loop reads the account's notify settings: the app or chat server binds it
/// to its own storage (spaces with their keys, each space's chats with their overrides).
public protocol NotifySettingsSource: Sendable {
    /// Every space of the account. A throw aborts the pass (nothing is changed on the node).
    func spaces() async throws -> [SpaceNotifySettings]
    /// The chats of one space with their overrides. A throw means "cannot enumerate now": the
    /// last-known-good listing is used, or the space is left as the node holds it.
    func chats(inSpace spaceKey: String) async throws -> [ChatNotifySetting]
}
