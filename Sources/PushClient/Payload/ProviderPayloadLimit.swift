/// The largest sealed payload that every delivery provider still carries once the node has wrapped
/// it, so the sender budgets to `min(capabilities.maxPayloadBytes, ProviderPayloadLimit.everyProvider)`.
///
/// The node's default `limits.maxPayloadBytes` (2816) bounds what it *accepts*, not what reaches a
/// device: the node base64-encodes the sealed payload into the `x-any-*` data keys (PROTOCOL §5),
/// and those keys plus the provider's own envelope must fit the provider's limit. Measured with the
/// node's gateway request builders and a 64-character `groupId`:
///
/// | provider | limit | largest sealed payload that fits |
/// | --- | --- | --- |
/// | APNs alert (`aps` + data keys at the top level) | 4096-byte JSON | 2685 |
/// | Web Push (one RFC 8291 record of the data-key JSON) | 3993 bytes of plaintext | 2718 |
/// | FCM data message | 4096 bytes of data | more than both |
///
/// A payload at 2685 therefore reaches every provider; one between 2686 and 2816 is accepted by the
/// node and then refused by APNs (and above 2718 by Web Push). `ProviderBoundMeasurementTests`
/// re-measures with the builders (2688 and 2721 with a 32-hex `x-any-id` and the default alert:
/// the base64 quantum above); a longer configured `notifications.defaultAlert` lowers the APNs
/// bound further — set `PushSender.Configuration.providerPayloadLimit` to match.
public enum ProviderPayloadLimit {
    /// 2685 bytes: the APNs alert bound, the tightest of the providers.
    public static let everyProvider = 2685
}
