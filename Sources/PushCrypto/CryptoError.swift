/// Errors of the crypto core. Each case names what was wrong, never the secret.
public enum CryptoError: Error, Equatable, Sendable {
    case invalidKeyLength(expected: Int, got: Int)
    case invalidEncoding(String)
    case invalidChecksum
    case invalidVersionByte
    case invalidSignature
    case authenticationFailed
    case invalidPoint
    case invalidRecord(String)
    case plaintextTooLarge(limit: Int, got: Int)
    case invalidDerivationPath(String)
    case invalidPEM(String)
    case library(String)
}
