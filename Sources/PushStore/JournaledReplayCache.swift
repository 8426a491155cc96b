import Foundation

/// The single-node `ReplayCache` whose window survives a restart (PROTOCOL §2): the pairs are held
/// in a `MemoryReplayCache` and each fresh one is appended to a `ReplayJournal` in the node's data
/// directory, which the next start reads back. The SQLite store's companion; PostgreSQL keeps its
/// window in the database (`PostgresReplayCache`).
package final class JournaledReplayCache: ReplayCache {
    package let memory: MemoryReplayCache
    private let journal: ReplayJournal
    /// Held across the check, the append and the insert, so that two copies of one request
    /// cannot both be fresh; an append is one short `write(2)`. A plain `NSLock` because the
    /// journal does I/O under it, which `Protected` rules out.
    private let lock = NSLock()

    /// - Parameter window: the longest a pair is kept: twice `auth.clockSkew`.
    package init(directory: String, window: Double, memory: MemoryReplayCache = MemoryReplayCache(),
                 now: Double = Date().timeIntervalSince1970) throws {
        self.memory = memory
        self.journal = try ReplayJournal(directory: directory, rotation: window + 1, now: now)
        for entry in journal.restored { _ = memory.record(entry.key, expiresAt: entry.expiresAt, now: now) }
    }

    package func record(keyID: String, nonce: String, expiresAt: Double, now: Double) -> ReplayCheck {
        let key = MemoryReplayCache.key(keyID: keyID, nonce: nonce)
        lock.lock()
        defer { lock.unlock() }
        let check = memory.record(key, expiresAt: expiresAt, now: now)
        guard check == .fresh else { return check }
        return journal.append(.init(key: key, expiresAt: expiresAt), now: now) ? .fresh : .unavailable
    }
}

extension ReplayJournal: @unchecked Sendable {}  // only used under JournaledReplayCache's lock
