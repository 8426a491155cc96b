import Foundation
import PushCrypto

/// Opens a push on the receiving device from its `x-any-*` data keys (FCM `data`, APNs top-level
/// keys, or the JSON object inside a decrypted Web Push record), PROTOCOL §5.
public final class PushReceiver: Sendable {
    /// The data keys of a push.
    public enum DataKey {
        public static let type = "x-any-type"
        public static let groupId = "x-any-group-id"
        public static let payload = "x-any-payload"
        public static let signature = "x-any-signature"
        public static let keyId = "x-any-key-id"
        public static let id = "x-any-id"
    }

    public enum Opened: Sendable, Equatable {
        /// Decrypted and signed by the `senderId` inside it.
        case opened(PushPayload)
        /// No cached key for this `keyId` (fresh install, or a rotation not cached yet): show a
        /// generic "New message"; the content syncs when the app opens.
        case unknownKey(keyId: String)
        /// The push carries no message (a silent wake-up, e.g. after a read elsewhere).
        case noMessage
    }

    public let keys: PayloadKeyCache

    public init(keys: PayloadKeyCache = PayloadKeyCache()) { self.keys = keys }

    /// Decrypts and verifies a push.
    ///
    /// Throws `PushClientError` with `receiver.missing_field` (payload without key id or
    /// signature), `receiver.bad_base64`, `receiver.does_not_open` (wrong key or tampered bytes),
    /// `receiver.bad_payload` (not the payload JSON, or `senderId` not an account id), or
    /// `receiver.bad_signature` (not signed by `senderId` over the sealed bytes).
    public func open(data: [String: String]) throws(PushClientError) -> Opened {
        guard let payloadText = data[DataKey.payload] else { return .noMessage }
        guard let keyId = data[DataKey.keyId] else { throw missing(DataKey.keyId) }
        guard let signatureText = data[DataKey.signature] else { throw missing(DataKey.signature) }
        guard let sealed = try? Base64.decode(payloadText) else { throw badBase64(DataKey.payload) }
        guard let signature = try? Base64.decode(signatureText) else { throw badBase64(DataKey.signature) }
        guard let key = keys.key(for: keyId) else { return .unknownKey(keyId: keyId) }

        let payload = try Self.decrypt(sealed, key: key)
        guard let sender = try? AccountID(payload.senderId) else {
            throw PushClientError(code: .badPayload, message: "senderId is not an account id")
        }
        guard sender.verify(signature: signature, message: sealed) else {
            throw PushClientError(code: .badSignature, message: "x-any-signature is not the sender's")
        }
        return .opened(payload)
    }

    /// `nonce(12) ‖ ciphertext ‖ tag(16)` under `key` → the payload JSON, decoded.
    static func decrypt(_ sealed: [UInt8], key: [UInt8]) throws(PushClientError) -> PushPayload {
        let nonceSize = AESGCM.nonceSize
        guard sealed.count >= nonceSize + AESGCM.tagSize,
              let plaintext = try? AESGCM.open(Array(sealed[nonceSize...]), key: key, nonce: Array(sealed[..<nonceSize]))
        else {
            throw PushClientError(code: .doesNotOpen, message: "the payload does not open with this key")
        }
        do {
            return try JSONDecoder().decode(PushPayload.self, from: Data(plaintext))
        } catch {
            throw PushClientError(code: .badPayload, message: "the payload is not the expected JSON")
        }
    }

    private func missing(_ key: String) -> PushClientError {
        PushClientError(code: .missingField, message: "\(key) is missing")
    }

    private func badBase64(_ key: String) -> PushClientError {
        PushClientError(code: .badBase64, message: "\(key) is not standard base64")
    }
}
