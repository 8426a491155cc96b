import Foundation
import PushAnySync
import PushCrypto
import PushNode

/// `pushnode keys …`: account keys, space key derivation, and Ed25519 sign/verify for
/// support work and interop checks. Secrets go to stdout only when asked for there.
enum KeysCommand {
    /// `keys account [--out FILE]`: a fresh account key. Without `--out`: `{"accountId", "seed"}`.
    /// With `--out`: the hex seed and a newline go to FILE (mode 0600) and stdout gets only
    /// `{"accountId"}`, so the secret never passes through a terminal or a log. An existing
    /// FILE is never overwritten: it may hold the only copy of another account's key.
    static func account(_ args: Arguments) throws {
        let key = AccountKey.generate()
        let seedHex = Hex.encode(key.keyPair.seed)
        if let path = args.options["out"] {
            guard !FileManager.default.fileExists(atPath: path) else {
                throw CLIError("\(path) already exists; not overwriting a key file")
            }
            try Output.writeSecret(seedHex + "\n", to: path)
            Output.json(["accountId": key.accountID.string])
        } else {
            Output.json(["accountId": key.accountID.string, "seed": seedHex])
        }
    }

    /// `keys peer [--config FILE]`: the any-sync door's peer id `{"peerId"}` (the key at
    /// `anysync.peerKeyPath`, or the one in dataDir, generated there when absent).
    static func peer(_ args: Arguments) throws {
        let config = try loadConfig(args).config
        let key: Ed25519.KeyPair
        do { key = try AnySyncPeerKey.loadOrCreate(config: config) } catch { throw CLIError("\(error)") }
        Output.json(["peerId": PeerID.string(publicKey: key.publicKey)])
    }

    /// `keys derive --metadata-key HEX --read-key HEX`: the space push key and payload key.
    static func derive(_ args: Arguments) throws {
        let metadataKey = try hex(args, "metadata-key")
        let readKey = try hex(args, "read-key")
        let pushKey: SpacePushKey
        do {
            pushKey = try SpaceKeys.pushKey(firstMetadataKey: metadataKey)
        } catch CryptoError.invalidKeyLength(_, let got) {
            throw CLIError("--metadata-key must be 32 bytes (seed) or 64 bytes (seed ‖ public key), got \(got)")
        } catch {
            throw CLIError("--metadata-key: the public half does not match the seed")
        }
        guard let payloadKey = try? SpaceKeys.payloadKey(readKey: readKey) else {
            throw CLIError("--read-key must be 32 bytes, got \(readKey.count)")
        }
        Output.json([
            "spaceKey": pushKey.spaceKey,
            "spacePublicKey": Hex.encode(pushKey.publicKey),
            "encKeyBase64": payloadKey.base64,
            "encKeyId": payloadKey.keyId,
        ])
    }

    /// `keys sign --seed HEX | --seed-file FILE`: signs stdin's bytes with that Ed25519 seed;
    /// prints `{"accountId", "publicKey", "signature"}` (hex public key, base64 signature).
    static func sign(_ args: Arguments) throws {
        let seed: [UInt8]
        if let path = args.options["seed-file"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw CLIError("cannot read \(path)") }
            seed = try decodeHex(text.trimmingCharacters(in: .whitespacesAndNewlines), name: "seed-file")
        } else {
            seed = try hex(args, "seed")
        }
        guard let key = try? AccountKey(seed: seed) else { throw CLIError("the seed must be 32 bytes, got \(seed.count)") }
        let signature = key.sign(StandardInput.readAll())
        Output.json([
            "accountId": key.accountID.string,
            "publicKey": Hex.encode(key.keyPair.publicKey),
            "signature": Base64.encode(signature),
        ])
    }

    /// `keys verify (--public-key HEX | --account-id A… | --space-key BASE58) --signature BASE64`:
    /// verifies an Ed25519 signature over stdin's bytes. Valid: `{"valid": true}`, exit 0.
    /// Invalid: a message on stderr, nothing on stdout, exit 2.
    static func verify(_ args: Arguments) throws {
        let given = ["public-key", "account-id", "space-key"].filter { args.options[$0] != nil }
        guard given.count == 1 else { throw CLIError("give exactly one of --public-key, --account-id, --space-key") }
        let publicKey: [UInt8]
        switch given[0] {
        case "public-key":
            publicKey = try hex(args, "public-key")
            guard publicKey.count == 32 else { throw CLIError("--public-key must be 32 bytes, got \(publicKey.count)") }
        case "account-id":
            do { publicKey = try AccountID(args.required("account-id")).publicKey } catch {
                throw CLIError("--account-id is not a valid account id (base58, version byte 0x5b, CRC16)")
            }
        default:
            do { publicKey = try SpacePushKey.decode(spaceKey: args.required("space-key")) } catch {
                throw CLIError("--space-key is not base58 of 32 bytes")
            }
        }
        let signatureText = try args.required("signature")
        guard let signature = try? Base64.decode(signatureText), signature.count == 64 else {
            throw CLIError("--signature must be standard base64 of 64 bytes")
        }
        guard Ed25519.verify(signature: signature, message: StandardInput.readAll(), publicKey: publicKey) else {
            throw CLIError("signature does not verify")
        }
        Output.json(["valid": true])
    }

    private static func hex(_ args: Arguments, _ name: String) throws -> [UInt8] {
        try decodeHex(args.required(name), name: name)
    }

    private static func decodeHex(_ text: String, name: String) throws -> [UInt8] {
        guard let bytes = try? Hex.decode(text) else { throw CLIError("--\(name) is not hex") }
        return bytes
    }
}
