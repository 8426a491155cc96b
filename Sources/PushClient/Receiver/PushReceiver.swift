import Foundation
import PushProtocol
import PushCrypto

/// Opens a push on the receiving device from its `x-any-*` data keys (FCM `data`, APNs top-level
/// keys, or the JSON object inside a decrypted Web Push record), PROTOCOL §5.
public final class PushReceiver: Sendable {
    /// The data keys of a push.
    public typealias DataKey = PushProtocol.DataKey

    public enum Opened: Sendable, Equatable {
        /// Decrypted and signed by the `senderId` inside it.
        case opened(PushPayload)
        /// No cached key for this `keyId` (fresh install, or a rotation not cached yet): show a
        /// generic "New message"; the content syncs when the app opens.
        case unknownKey(keyId: String)
        /// The push carries no message (a silent wake-up, e.g. after a read elsewhere).
        case noMessage
    }

    /// What `open(data:signedBy:)` finds: the payload bytes exactly as the sender sealed them.
    public enum OpenedBytes: Sendable, Equatable {
        /// Signed by the expected sender over the sealed bytes, and decrypted.
        case opened([UInt8])
        /// No cached key for this `keyId`.
        case unknownKey(keyId: String)
        /// The push carries no payload: a content-free wake (fetch what is new) or a silent one.
        case noMessage
    }

    public let keys: PayloadKeyCache

    public init(keys: PayloadKeyCache = PayloadKeyCache()) { self.keys = keys }

    /// Decrypts and verifies an any push, whose payload JSON names its sender (`senderId`).
    ///
    /// Throws `PushClientError` with `receiver.missing_field` (payload without key id or
    /// signature), `receiver.bad_base64`, `receiver.does_not_open` (wrong key or tampered bytes),
    /// `receiver.bad_payload` (not the payload JSON, or `senderId` not an account id), or
    /// `receiver.bad_signature` (not signed by `senderId` over the sealed bytes).
    public func open(data: [String: String]) throws(PushClientError) -> Opened {
        let sealed: Sealed
        switch try Self.sealed(in: data, keys: keys) {
        case .found(let found): sealed = found
        case .unknownKey(let keyId): return .unknownKey(keyId: keyId)
        case .noMessage: return .noMessage
        }
        let payload: PushPayload
        do {
            payload = try JSON.decode(PushPayload.self, from: try sealed.decrypt())
        } catch let error as PushClientError {
            throw error
        } catch {
            throw PushClientError(code: .badPayload, message: "the payload is not the expected JSON")
        }
        guard let sender = try? AccountID(payload.senderId) else {
            throw PushClientError(code: .badPayload, message: "senderId is not an account id")
        }
        try sealed.verify(by: sender)
        return .opened(payload)
    }

    /// Verifies and decrypts a push whose payload is its sender's own bytes
    /// (`PushSender.send(_:in:)`, `pushnode client notify --payload-json`, any other chat server):
    /// such a payload names no sender, so the receiver says whose account key must have signed it
    /// — for an app, its chat server's account id. The signature is checked before decrypting.
    ///
    /// Throws `PushClientError` with `receiver.missing_field`, `receiver.bad_base64`,
    /// `receiver.bad_signature` (not `sender`'s signature over the sealed bytes) or
    /// `receiver.does_not_open` (wrong key or tampered bytes).
    public func open(data: [String: String], signedBy sender: AccountID) throws(PushClientError) -> OpenedBytes {
        switch try Self.sealed(in: data, keys: keys) {
        case .found(let sealed):
            try sealed.verify(by: sender)
            return .opened(try sealed.decrypt())
        case .unknownKey(let keyId): return .unknownKey(keyId: keyId)
        case .noMessage: return .noMessage
        }
    }

    /// The sealed payload of a push, its signature and the key that opens it.
    private struct Sealed {
        let bytes: [UInt8]
        let signature: [UInt8]
        let key: [UInt8]

        /// `nonce(12) ‖ ciphertext ‖ tag(16)` under `key` → the plaintext.
        func decrypt() throws(PushClientError) -> [UInt8] {
            let nonceSize = AESGCM.nonceSize
            guard bytes.count >= nonceSize + AESGCM.tagSize,
                  let plaintext = try? AESGCM.open(Array(bytes[nonceSize...]), key: key, nonce: Array(bytes[..<nonceSize]))
            else {
                throw PushClientError(code: .doesNotOpen, message: "the payload does not open with this key")
            }
            return plaintext
        }

        /// `x-any-signature` must be `sender`'s Ed25519 signature over the sealed bytes.
        func verify(by sender: AccountID) throws(PushClientError) {
            guard sender.verify(signature: signature, message: bytes) else {
                throw PushClientError(code: .badSignature, message: "x-any-signature is not the sender's")
            }
        }
    }

    private enum Lookup {
        case found(Sealed)
        case unknownKey(String)
        case noMessage
    }

    /// Reads the `x-any-*` keys of a push: the one place both `open` forms decode them.
    private static func sealed(in data: [String: String], keys: PayloadKeyCache) throws(PushClientError) -> Lookup {
        guard let payloadText = data[DataKey.payload] else { return .noMessage }
        guard let keyId = data[DataKey.keyId] else { throw missing(DataKey.keyId) }
        guard let signatureText = data[DataKey.signature] else { throw missing(DataKey.signature) }
        guard let sealed = try? Base64.decode(payloadText) else { throw badBase64(DataKey.payload) }
        guard let signature = try? Base64.decode(signatureText) else { throw badBase64(DataKey.signature) }
        guard let key = keys.key(for: keyId) else { return .unknownKey(keyId) }
        return .found(Sealed(bytes: sealed, signature: signature, key: key))
    }

    private static func missing(_ key: String) -> PushClientError {
        PushClientError(code: .missingField, message: "\(key) is missing")
    }

    private static func badBase64(_ key: String) -> PushClientError {
        PushClientError(code: .badBase64, message: "\(key) is not standard base64")
    }
}
