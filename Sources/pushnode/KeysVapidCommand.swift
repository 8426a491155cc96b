import Foundation
import PushCrypto

/// `pushnode keys vapid [--out FILE]`: a new VAPID (P-256) key pair.
///
/// With `--out`, the private key is written to FILE as PKCS#8 PEM (mode 0600) and only
/// `{"publicKey"}` is printed; an existing FILE is never overwritten, because every
/// browser subscription is bound to the key it was made with. Without `--out`, stdout gets
/// `{"publicKey", "privateKey", "privateKeyPem"}` (`privateKey` is the raw base64url scalar
/// web-push libraries take) — for piping into a secret store.
func keysVapid(_ args: Arguments) throws {
    let key = try VAPID.Key.generate()
    if let path = args.options["out"] {
        guard !path.isEmpty else { throw CLIError("--out needs a file name") }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CLIError("\(path) exists; refusing to overwrite a VAPID key (subscriptions are bound to it)")
        }
        try Output.writeSecret(try key.privateKey.pemRepresentation, to: path)
        Output.json(["publicKey": key.publicKeyBase64URL])
    } else {
        Output.json([
            "publicKey": key.publicKeyBase64URL,
            "privateKey": try key.privateKey.base64URLRepresentation,
            "privateKeyPem": try key.privateKey.pemRepresentation,
        ])
    }
}
