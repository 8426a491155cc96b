import Foundation
import PushClient
import PushCrypto

/// `pushnode client space new --out FILE`: a random space for a chat server without any's ACL — a
/// push key (Ed25519) and a payload key (AES-256-GCM) written to a new space file (0600, never
/// replacing one; the format is `SpaceKeyFile`'s). Prints `{"spaceKey", "keyId", "path"}`, never a key.
///
/// `pushnode client space derive --space-metadata-key HEX --read-key HEX --out FILE` writes the same
/// file from any's ACL material, so every `--space FILE` command also serves an any space.
enum ClientSpaceCommand {
    static func new(_ args: Arguments) throws {
        let path = try args.required("out")
        let keys = try clientCall { try SpaceKeyFile.create(path) }
        Output.json(["spaceKey": keys.spaceKey, "keyId": keys.keyId, "path": path])
    }

    static func derive(_ args: Arguments) throws {
        let path = try args.required("out")
        let keys = PushSpaceKeys(pushKey: try ClientContext.spacePushKey(args), payloadKey: try ClientContext.payloadKey(args))
        try clientCall { try SpaceKeyFile.save(keys, to: path) }
        Output.json(["spaceKey": keys.spaceKey, "keyId": keys.keyId, "path": path])
    }
}
