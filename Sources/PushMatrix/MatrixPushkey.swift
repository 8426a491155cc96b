import PushCrypto
import PushProtocol

/// The per-platform form of a pushkey (Spec/matrix.md "Pushkeys"): what the provider is given,
/// or nil when the pushkey cannot be one of its platform's (the homeserver is told to drop it).
package enum MatrixPushkey {
    /// The longest pushkey the door takes (the Push Gateway API's own limit is 512 bytes; a
    /// UnifiedPush endpoint URL may be longer).
    package static let maxLength = 2048

    /// - `android`: an FCM registration token, as it is (letters, digits, `-`, `_`, `:`, `.`).
    /// - `apns`: standard base64 of the device token, as the Matrix iOS apps register it (sygnal's
    ///   default); the provider gets lowercase hex of 32–100 bytes.
    /// - `webpush`: a UnifiedPush endpoint URL, as it is (the endpoint rules are the service's).
    package static func providerToken(_ pushkey: String, platform: Platform) -> String? {
        guard !pushkey.isEmpty, pushkey.utf8.count <= maxLength else { return nil }
        switch platform {
        case .android:
            let allowed = pushkey.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
                    || byte == UInt8(ascii: ".")
            }
            return allowed ? pushkey : nil
        case .apns:
            guard let bytes = try? Base64.decode(pushkey), (32...100).contains(bytes.count) else { return nil }
            return Hex.encode(bytes)
        case .webpush:
            return pushkey.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) ? pushkey : nil
        default:
            return nil
        }
    }

    /// The registration id the door keeps a pushkey's device under: lowercase hex of the first 16
    /// bytes of SHA-256(`"pushnode-matrix-v1" 0x00 app 0x00 platform 0x00 environment 0x00 pushkey`).
    /// The prefix keeps it apart from every id the API derives (PROTOCOL §3).
    package static func registrationId(pushkey: String, route: MatrixAppRoute) -> String {
        var input = Array("pushnode-matrix-v1".utf8)
        for part in [route.app, route.platform.rawValue, route.environment, pushkey] {
            input.append(0)
            input += Array(part.utf8)
        }
        return Hex.encode(SHA256.hash(input).prefix(16))
    }
}
