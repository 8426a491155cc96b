import Foundation
import PushCrypto
import PushSupport

/// The `(keyid, nonce)` replay window in the shared database, so a signed request replayed to
/// another node is refused too. The pair is written (committed) before the request is answered.
///
/// Pairs are kept as the same 16-byte digest `MemoryReplayCache` uses. Expired rows are deleted in
/// bounded batches, at most once per `purgeInterval`, by whichever request comes along (on a
/// background queue). When the database cannot be reached the answer is `.unavailable` (never
/// `.replayed`): the request is not accepted, and the door says the node's storage failed;
/// `failures` counts those.
package final class PostgresReplayCache: ReplayCache {
    private struct State {
        var lastPurge = 0.0
        var purging = false
        var failures = 0
    }

    private let pool: PGPool
    private let purgeInterval: Double
    private let state = Protected(State())

    /// Connects lazily; apply the migrations first (`PostgresStore` or `PostgresSchema.prepare`).
    package init(url: String, poolSize: Int = 4, purgeInterval: Double = 60) {
        pool = .postgres(conninfo: url, size: poolSize)
        self.purgeInterval = purgeInterval
    }

    package func record(keyID: String, nonce: String, expiresAt: Double, now: Double) -> ReplayCheck {
        let digest = Array(SHA256.hash(Array(keyID.utf8) + [0] + Array(nonce.utf8)).prefix(16))
        do {
            let inserted = try PGRetry.run(pool) { db in
                try db.query("""
                    INSERT INTO replay_nonces (digest, expires_at) VALUES ($1, $2)
                    ON CONFLICT (digest) DO UPDATE SET expires_at = EXCLUDED.expires_at
                        WHERE replay_nonces.expires_at < $3
                    RETURNING 1
                    """, [.bytes(digest), .text(String(expiresAt)), .text(String(now))]).rowCount == 1
            }
            purgeIfDue(now: now)
            return inserted ? .fresh : .replayed
        } catch {
            state.withLock { $0.failures += 1 }
            return .unavailable
        }
    }

    /// Checks answered `.unavailable` because the database failed.
    package var failures: Int { state.withLock { $0.failures } }

    /// Deletes one batch of pairs expired before `now`; returns how many.
    @discardableResult
    package func purgeExpired(now: Double) throws -> Int {
        try PGRetry.run(pool) { db in
            try db.run("""
                DELETE FROM replay_nonces WHERE digest = ANY(ARRAY(
                    SELECT digest FROM replay_nonces WHERE expires_at < $1 LIMIT \(StoreRetention.purgeBatch)))
                """, [.text(String(now))])
        }
    }

    package func close() { pool.close() }

    private func purgeIfDue(now: Double) {
        let due = state.withLock { state -> Bool in
            guard !state.purging, now - state.lastPurge >= purgeInterval else { return false }
            state.purging = true
            state.lastPurge = now
            return true
        }
        guard due else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            _ = try? purgeExpired(now: now)
            state.withLock { $0.purging = false }
        }
    }
}
