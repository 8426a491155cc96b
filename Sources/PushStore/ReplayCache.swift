/// Remembers `(keyid, nonce)` pairs for as long as a signature carrying them could still be
/// accepted, so each signed request is accepted at most once (PROTOCOL §2 `auth.replayed`).
///
/// In memory for a single node (`MemoryReplayCache`); in the shared database with several nodes
/// (`PostgresReplayCache`).
package protocol ReplayCache: Sendable {
    /// Records the pair unless it was seen before (and its earlier record has not expired).
    /// `expiresAt` is when the pair may be forgotten.
    func record(keyID: String, nonce: String, expiresAt: Double, now: Double) -> ReplayCheck
}

/// The answer of a replay check. "Could not check" is its own case: a cache that fails must never
/// pass for a replay, because a replay is the caller's fault (401) and a failing cache the node's
/// (503 `storage.unavailable`, PROTOCOL §3.2).
package enum ReplayCheck: Sendable, Equatable {
    /// Not seen within the window; now recorded.
    case fresh
    /// Seen within the window: a replay.
    case replayed
    /// The cache's storage failed; whether the pair was seen is unknown and it was not recorded.
    case unavailable
}
