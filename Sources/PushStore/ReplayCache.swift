/// Remembers `(keyid, nonce)` pairs for as long as a signature carrying them could still be
/// accepted, so each signed request is accepted at most once (PROTOCOL §2 `auth.replayed`).
///
/// In memory for a single node now; a database-backed implementation shared by several nodes
/// can stand behind the same protocol.
package protocol ReplayCache: Sendable {
    /// Records the pair and returns true when it was not seen before (or its earlier record has
    /// expired); returns false for a replay. `expiresAt` is when the pair may be forgotten.
    func insertIfAbsent(keyID: String, nonce: String, expiresAt: Double, now: Double) -> Bool
}
