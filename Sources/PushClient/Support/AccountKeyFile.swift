import Foundation
import PushCrypto
import PushSupport

/// The account key kept on disk: the 32-byte Ed25519 seed as lowercase hex and a newline, in a
/// file only its owner can read (0600) — the form `pushnode keys account --out` writes.
///
/// Loading refuses a file that others can read or write (`OwnerOnlyFile`): whoever reads the seed
/// speaks for the account. Creating never
/// replaces a file (`O_EXCL`): an existing file may hold the only copy of another account's key.
public enum AccountKeyFile {
    /// Reads the seed at `path`.
    /// - Throws: `PushClientError` `client.key_file` when the file is missing, unreadable, open to
    ///   others, or does not hold 64 hex digits.
    public static func load(_ path: String) throws(PushClientError) -> AccountKey {
        guard let text = String(validating: try OwnerOnlyFile.read(path), as: UTF8.self) else {
            throw failure("\(path) cannot be read")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count == 64, var seed = try? Hex.decode(trimmed) else {
            throw failure("\(path) does not hold a 32-byte hex seed")
        }
        defer { ConstantTime.wipe(&seed) }
        guard let key = try? AccountKey(seed: seed) else { throw failure("\(path) does not hold a 32-byte hex seed") }
        return key
    }

    /// Generates a key and writes it to a new file at `path` (mode 0600, `O_EXCL`).
    /// - Throws: `PushClientError` `client.key_file` when the file exists or cannot be written.
    @discardableResult
    public static func create(_ path: String) throws(PushClientError) -> AccountKey {
        let key = AccountKey.generate()
        try save(key, to: path)
        return key
    }

    /// The key at `path`, or a new one written there when no file exists.
    public static func loadOrCreate(_ path: String) throws(PushClientError) -> AccountKey {
        if FileManager.default.fileExists(atPath: path) { return try load(path) }
        do {
            return try create(path)
        } catch {
            // Another process created it between the check and the O_EXCL open: use theirs.
            if FileManager.default.fileExists(atPath: path) { return try load(path) }
            throw error
        }
    }

    /// Writes `key`'s seed to a new file at `path` (mode 0600, never replacing a file).
    public static func save(_ key: AccountKey, to path: String) throws(PushClientError) {
        var bytes = Array((Hex.encode(key.keyPair.seed) + "\n").utf8)
        defer { ConstantTime.wipe(&bytes) }
        try OwnerOnlyFile.create(path, contents: bytes)
    }

    private static func failure(_ message: String) -> PushClientError { OwnerOnlyFile.failure(message) }
}
