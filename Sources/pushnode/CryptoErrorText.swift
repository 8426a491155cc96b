import PushCrypto
import PushSupport

/// A one-line, secret-free explanation of a crypto failure for the CLI's stderr.
func explain(_ error: Error) -> String {
    guard let error = error as? CryptoError else { return "\(error)" }
    switch error {
    case .invalidKeyLength(let expected, let got): return "wrong length: expected \(expected) bytes, got \(got)"
    case .invalidEncoding(let what): return "invalid encoding: \(what)"
    case .invalidChecksum: return "invalid checksum"
    case .invalidVersionByte: return "invalid version byte"
    case .invalidSignature: return "invalid signature"
    case .authenticationFailed: return "decryption failed: wrong key or corrupted message"
    case .invalidPoint: return "not a valid P-256 public key (uncompressed point on the curve)"
    case .invalidRecord(let what): return "invalid aes128gcm record: \(what)"
    case .plaintextTooLarge(let limit, let got): return "plaintext is \(got) bytes; the limit is \(limit)"
    case .invalidDerivationPath(let what): return "invalid derivation path: \(what)"
    case .invalidPEM(let what): return "invalid PEM key: \(what)"
    case .library(let what): return "OpenSSL failure: \(what)"
    }
}

/// Runs `body`, turning crypto failures into `CLIError`s with readable text.
func explainingCryptoErrors<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as CryptoError { throw CLIError(explain(error)) }
}

/// Reads a whole file as UTF-8 text (keys, service-account JSON).
func readText(_ path: String) throws -> String {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw CLIError("cannot read \(path)") }
    return text
}
