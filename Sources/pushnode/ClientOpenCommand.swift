import Foundation
import PushClient
import PushCrypto
import PushProtocol
import PushSupport

/// `pushnode client open (--key BASE64 | --space FILE) [--sender ID] --data JSON`: opens a
/// received push from its `x-any-*` data keys (FCM data, APNs top-level keys, or a decrypted Web
/// Push record) with the payload key (`encKeyBase64`, or the space file's).
///
/// Without `--sender` the payload is any's JSON and `x-any-signature` is verified against its
/// `senderId`: prints `{"opened": true, "keyId", "payload": {…}}`. With `--sender ID` the payload is
/// the sender's own bytes (`client notify --payload-json`, any other chat server), verified
/// against that account: prints `{"opened": true, "keyId", "sender", "plaintext": "<base64>",
/// "payload": <the bytes as JSON, when they are JSON>}`. Either way `{"opened": false, "reason":
/// "unknown_key"|"no_message"}` when it cannot or need not open; a bad signature, tampered bytes or
/// malformed keys exit 2. `--data -` reads the JSON from stdin.
enum ClientOpenCommand {
    static func run(_ args: Arguments) throws {
        let key = try payloadKey(args)
        let text = try args.required("data")
        let bytes = text == "-" ? StandardInput.readAll() : Array(text.utf8)
        guard let object = JSON.object(bytes) else {
            throw CLIError("--data must be a JSON object of the x-any-* data keys")
        }
        var data: [String: String] = [:]
        for (name, value) in object {
            if let string = value as? String { data[name] = string }
        }
        let receiver = PushReceiver()
        try clientCall { _ = try receiver.keys.add(key: key.rawKey) }

        if let senderText = args.options["sender"] {
            guard let sender = try? AccountID(senderText) else { throw CLIError("--sender is not an account id") }
            switch try clientCall({ try receiver.open(data: data, signedBy: sender) }) {
            case .opened(let plaintext):
                var answer: [String: Any] = ["opened": true, "keyId": key.keyId, "sender": sender.string,
                                             "plaintext": Base64.encode(plaintext)]
                answer["payload"] = JSON.value(plaintext)
                Output.json(answer)
            case .unknownKey(let keyId): Output.json(["opened": false, "reason": "unknown_key", "keyId": keyId])
            case .noMessage: Output.json(["opened": false, "reason": "no_message"])
            }
            return
        }
        switch try clientCall({ try receiver.open(data: data) }) {
        case .opened(let payload):
            let json = JSON.value(payload.jsonBytes()) ?? NSNull()
            Output.json(["opened": true, "keyId": key.keyId, "payload": json])
        case .unknownKey(let keyId):
            Output.json(["opened": false, "reason": "unknown_key", "keyId": keyId])
        case .noMessage:
            Output.json(["opened": false, "reason": "no_message"])
        }
    }

    /// `--key BASE64` or the payload key of `--space FILE`.
    private static func payloadKey(_ args: Arguments) throws -> PayloadKey {
        if args.options["space"] != nil { return try ClientContext.spaceKeys(args).payloadKey }
        do { return try PayloadKey(base64: args.required("key")) } catch let error as CLIError { throw error } catch {
            throw CLIError("--key must be standard base64 of a 32-byte payload key")
        }
    }
}
