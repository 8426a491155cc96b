import Foundation
import PushClient
import PushCrypto
import PushSupport

/// `pushnode client open --key BASE64 --data JSON`: opens a received push from its `x-any-*`
/// data keys (FCM data, APNs top-level keys, or a decrypted Web Push record) with the payload key
/// (`encKeyBase64`), verifying `x-any-signature` against the payload's `senderId`.
///
/// Prints `{"opened": true, "keyId", "payload": {…}}`, or `{"opened": false, "reason":
/// "unknown_key"|"no_message"}`; a bad signature, tampered bytes or malformed keys exit 2.
/// `--data -` reads the JSON from stdin.
enum ClientOpenCommand {
    static func run(_ args: Arguments) throws {
        let key: PayloadKey
        do { key = try PayloadKey(base64: args.required("key")) } catch let error as CLIError { throw error } catch {
            throw CLIError("--key must be standard base64 of a 32-byte payload key")
        }
        let text = try args.required("data")
        let bytes = text == "-" ? StandardInput.readAll() : Array(text.utf8)
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw CLIError("--data must be a JSON object of the x-any-* data keys")
        }
        var data: [String: String] = [:]
        for (name, value) in object {
            if let string = value as? String { data[name] = string }
        }
        let receiver = PushReceiver()
        try clientCall { _ = try receiver.keys.add(key: key.rawKey) }
        switch try clientCall({ try receiver.open(data: data) }) {
        case .opened(let payload):
            let json = try JSONSerialization.jsonObject(with: Data(payload.jsonBytes()))
            Output.json(["opened": true, "keyId": key.keyId, "payload": json])
        case .unknownKey(let keyId):
            Output.json(["opened": false, "reason": "unknown_key", "keyId": keyId])
        case .noMessage:
            Output.json(["opened": false, "reason": "no_message"])
        }
    }
}
