/// The data keys of a push (PROTOCOL §5): the names the node writes into every provider's
/// request (`DataKeys.pairs` in PushDelivery) and a receiving device reads (`PushReceiver`).
public enum DataKey {
    public static let type = "x-any-type"
    public static let id = "x-any-id"
    public static let groupId = "x-any-group-id"
    public static let payload = "x-any-payload"
    public static let signature = "x-any-signature"
    public static let keyId = "x-any-key-id"
}
