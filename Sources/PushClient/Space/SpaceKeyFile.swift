import Foundation
import PushCrypto
import PushProtocol
import PushSupport

/// A space's two keys on disk, for chat servers without any's ACL (`pushnode client space new`):
/// a small JSON object in a file only its owner can read (0600), written once and never replaced.
///
/// ```json
/// {"format": "pushnode-space-v1",
///  "spaceKey": "<base58 of the push public key>",
///  "pushKeySeed": "<64 lowercase hex: the push key's Ed25519 seed>",
///  "payloadKey": "<standard base64 of the 32-byte AES-256 payload key>",
///  "keyId": "<64 lowercase hex: SHA-256 of the payload key>"}
/// ```
///
/// `pushKeySeed` and `payloadKey` are the keys; `spaceKey` and `keyId` follow from them and are
/// written for people and other tools (a loader checks them when present, so a hand-edited file
/// whose parts no longer belong together is refused). Unknown members are ignored. docs/senders.md
/// shows the same format read from Python.
public enum SpaceKeyFile {
    /// The value of `format`.
    public static let format = "pushnode-space-v1"

    private struct Contents: Codable {
        var format: String
        var spaceKey: String?
        var pushKeySeed: String
        var payloadKey: String
        var keyId: String?
    }

    /// The space at `path`.
    /// - Throws: `PushClientError` `client.key_file` when the file is missing, open to others
    ///   (`OwnerOnlyFile`), not this format, or its parts do not belong together.
    public static func load(_ path: String) throws(PushClientError) -> PushSpaceKeys {
        let bytes = try OwnerOnlyFile.read(path)
        guard let contents = try? JSON.decode(Contents.self, from: bytes), contents.format == format else {
            throw OwnerOnlyFile.failure("\(path) is not a space file (\(format))")
        }
        guard var seed = try? Hex.decode(contents.pushKeySeed), var payloadKey = try? Base64.decode(contents.payloadKey) else {
            throw OwnerOnlyFile.failure("\(path): pushKeySeed must be hex and payloadKey standard base64")
        }
        defer {
            ConstantTime.wipe(&seed)
            ConstantTime.wipe(&payloadKey)
        }
        let keys: PushSpaceKeys
        do { keys = try PushSpaceKeys(pushKeySeed: seed, payloadKey: payloadKey) } catch {
            throw OwnerOnlyFile.failure("\(path): \(error.message)")
        }
        if let spaceKey = contents.spaceKey, spaceKey != keys.spaceKey {
            throw OwnerOnlyFile.failure("\(path): spaceKey is not the public key of pushKeySeed")
        }
        if let keyId = contents.keyId, keyId.lowercased() != keys.keyId {
            throw OwnerOnlyFile.failure("\(path): keyId is not the SHA-256 of payloadKey")
        }
        return keys
    }

    /// A fresh random space (`PushSpaceKeys.generate()`) written to a new file at `path`.
    /// - Throws: `PushClientError` `client.key_file` when the file exists or cannot be written.
    @discardableResult
    public static func create(_ path: String) throws(PushClientError) -> PushSpaceKeys {
        let keys = PushSpaceKeys.generate()
        try save(keys, to: path)
        return keys
    }

    /// Writes `keys` to a new file at `path` (mode 0600, `O_EXCL`: never replacing a file, which
    /// may hold the only copy of another space's keys).
    public static func save(_ keys: PushSpaceKeys, to path: String) throws(PushClientError) {
        let contents = Contents(format: format, spaceKey: keys.spaceKey, pushKeySeed: Hex.encode(keys.pushKey.keyPair.seed),
                                payloadKey: keys.payloadKey.base64, keyId: keys.keyId)
        var bytes = ((try? JSON.pretty(contents)) ?? []) + Array("\n".utf8)
        defer { ConstantTime.wipe(&bytes) }
        try OwnerOnlyFile.create(path, contents: bytes)
    }
}
