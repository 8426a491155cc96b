import Foundation
import PushCrypto

/// `pushnode payload seal|open --key BASE64`: the any-compatible payload sealing
/// (`nonce(12) ‖ AES-256-GCM ciphertext ‖ tag(16)`, standard base64), for support work.
enum PayloadCommand {
    /// Plaintext bytes on stdin → sealed standard base64 and a newline on stdout.
    static func seal(_ args: Arguments) throws {
        let key = try payloadKey(args)
        let sealed = try key.seal(StandardInput.readAll())
        FileHandle.standardOutput.write(Data((sealed.base64 + "\n").utf8))
    }

    /// Sealed standard base64 on stdin (surrounding whitespace ignored) → the plaintext bytes
    /// on stdout, exactly. A payload that does not open writes nothing to stdout.
    static func open(_ args: Arguments) throws {
        let key = try payloadKey(args)
        let text = StandardInput.readTrimmedText()
        guard let bytes = try? Base64.decode(text) else {
            throw CLIError("payload does not open: stdin is not standard base64")
        }
        guard let sealed = try? SealedPayload(bytes: bytes) else {
            throw CLIError("payload does not open: \(bytes.count) bytes is shorter than nonce and tag (\(SealedPayload.overhead))")
        }
        guard let plaintext = try? key.open(sealed) else {
            throw CLIError("payload does not open: wrong key or altered bytes (AES-GCM tag mismatch)")
        }
        FileHandle.standardOutput.write(Data(plaintext))
    }

    private static func payloadKey(_ args: Arguments) throws -> PayloadKey {
        let text = try args.required("key")
        guard let key = try? PayloadKey(base64: text) else {
            throw CLIError("--key must be standard base64 of a 32-byte key")
        }
        return key
    }
}
