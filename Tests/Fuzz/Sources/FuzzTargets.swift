/// Every fuzz target by name: one per parser that takes bytes from outside the node
/// (Tests/Fuzz/README.md lists them with what each covers). `make fuzz` runs them all.
enum FuzzTargets {
    typealias Target = @Sendable ([UInt8]) -> Void

    nonisolated(unsafe) static var selected: Target?

    static let all: [String: Target] = [
        "structured-field": HTTPTargets.structuredField,
        "http-signature": HTTPTargets.signature,
        "content-digest": HTTPTargets.contentDigest,
        "json-body": JSONBodyTarget.run,
        "wire-decoder": WireDecoderTarget.run,
        "base58": CryptoTargets.base58,
        "account-id": CryptoTargets.accountID,
        "ece-rfc8188": CryptoTargets.ece,
        "webpush-rfc8291": CryptoTargets.webPush,
        "config-yaml": ConfigTarget.run,
        "anysync-handshake": AnySyncTargets.handshake,
        "anysync-certificate": AnySyncTargets.certificate,
        "anysync-yamux": AnySyncSessionTarget.run,
        "anysync-drpc": AnySyncTargets.drpc,
        "anysync-protobuf": AnySyncTargets.protobuf,
        "anysync-rpc": AnySyncRPCTarget.run,
    ]
}
