import Foundation
import PushProtocol
import PushSupport

extension SQLiteStore {
    /// Resolves the recipients and writes them as `RecipientChunks` with a single `INSERT … SELECT`
    /// inside the write transaction: no recipient rows cross into Swift, and a fan-out of 200 is
    /// one row. Selects exactly what `FanOut.deliveries(to:)` chooses (the Swift tests compare the
    /// two on the same data).
    package func enqueue(_ notification: NotificationRecord, fanningOut fanOut: FanOut, to topics: [TopicRef],
                        caller: String, key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult {
        let unique = Array(Set(topics))
        let platforms = Platform.allCases.filter(fanOut.enabledPlatforms.contains)
        let providers = Provider.allCases.filter { provider in platforms.contains { $0.provider == provider } }
        let fanOutSQL = Self.cachedFanOutSQL(topics: unique.count, platforms: platforms, kind: fanOut.kind)
        var values: [SQLiteValue] = [
            .integer(0), .integer(notification.createdAt.unixMilliseconds), .integer(notification.expiresAt.unixMilliseconds),
            .optionalText(fanOut.excludedAccount), .optionalText(fanOut.excludedDevice?.account),
            .optionalText(fanOut.excludedDevice?.deviceId),
        ]
        for ref in unique { values += [.text(ref.spaceKey.string), .text(ref.topic)] }
        values += platforms.map { .text($0.rawValue) }
        let parameters = values
        return try hooks.announce(write { db -> EnqueueResult in
            if let first = try Self.claimKey(key, caller: caller, notification: notification, since: duplicateSince, db: db) {
                return EnqueueResult(.duplicate(first))
            }
            guard !unique.isEmpty, !platforms.isEmpty else {
                try Self.logAccepted(notification, caller: caller, seq: nil, db: db)
                return EnqueueResult(.accepted(notification.id))
            }
            // Only a replacing Notify reads its recipients into Swift: for the devices it withdraws from.
            var superseded = 0
            if fanOut.replacesGroup != nil, let supersession = fanOut.supersession(of: try Self.recipients(of: unique, db: db)) {
                superseded = try Self.supersede(supersession, caller: caller, db: db)
            }
            // The chunks are written first, under the seq the notification will take (SQLite's own
            // choice: one past the largest), so the row is inserted once, with its count.
            let seq = try db.queryFirst("SELECT coalesce(max(seq), 0) + 1 FROM notifications") { $0.int64(0) } ?? 1
            var bound = parameters
            bound[0] = .integer(seq)
            // Counted afterwards, a key search per enabled provider: a `RETURNING` clause cost the
            // statement two ephemeral tables, and `provider IN (…)` one more.
            let written = try db.run(fanOutSQL, bound)
            let chunks = written == 0 ? [] : try providers.compactMap { provider in
                try db.queryFirst(Self.writtenChunk, [.text(provider.rawValue), .integer(seq)]) { (provider: provider.rawValue, count: $0.int(0)) }
            }
            for chunk in chunks where chunk.count > RecipientChunks.capacity {
                try Self.splitChunk(provider: chunk.provider, notification: seq, db: db)
            }
            let queued = chunks.reduce(0) { $0 + $1.count }
            if queued > 0 {
                let inserted = try Self.insertNotification(notification, caller: caller, pending: queued, db: db)
                guard inserted == seq else { throw StoreError.corruptRecord("notification seq \(inserted), chunks of \(seq)") }
            }
            try Self.logAccepted(notification, caller: caller, seq: queued > 0 ? seq : nil, db: db)
            return EnqueueResult(.accepted(notification.id), queued: queued, superseded: superseded)
        })
    }

    /// The size of the chunk `fanOutSQL` wrote for the provider ?1 and the notification ?2 (its part 0).
    static let writtenChunk = "SELECT remaining FROM recipient_chunks WHERE provider = ?1 AND notification = ?2 AND part = 0"

    private struct FanOutShape: Hashable {
        var topics: Int
        var platforms: [Platform]
        var kind: NotifyKind
    }

    /// Texts of `fanOutSQL` by shape, for up to 32 topics (at most 32 × 2⁵ platform sets × 4 kinds).
    private static let fanOutTexts = Protected([FanOutShape: String]())

    /// `fanOutSQL`, built once per shape rather than per Notify.
    static func cachedFanOutSQL(topics: Int, platforms: [Platform], kind: NotifyKind) -> String {
        guard topics <= 32 else { return fanOutSQL(topics: topics, platforms: platforms, kind: kind) }
        let shape = FanOutShape(topics: topics, platforms: platforms, kind: kind)
        if let text = fanOutTexts.withLock({ $0[shape] }) { return text }
        let text = fanOutSQL(topics: topics, platforms: platforms, kind: kind)
        fanOutTexts.withLock { $0[shape] = text }
        return text
    }

    /// Parameters: ?1 notification seq, ?2 now (ms), ?3 expiry (ms), ?4 excluded account,
    /// ?5/?6 excluded (account, deviceId), then a (spaceKey, topic) pair per topic from ?7, then the
    /// enabled platforms. Call routing: `apns_voip` gets calls only, and a device with an enabled
    /// `apns_voip` registration gets a call there only. Writes one chunk per provider, whatever its
    /// size, as part 0 (the caller splits the large ones, and reads the counts by `writtenChunk`).
    static func fanOutSQL(topics: Int, platforms: [Platform], kind: NotifyKind) -> String {
        let providerOf = Platform.allCases.map { "WHEN '\($0.rawValue)' THEN '\($0.provider.rawValue)'" }.joined(separator: " ")
        let enabled = (0..<platforms.count).map { "?\(7 + 2 * topics + $0)" }.joined(separator: ", ")
        let voip = Platform.apnsVoip.rawValue
        var routing: String
        switch kind {
        case .message, .silent, .clear:
            routing = "AND r.platform <> '\(voip)'"
        case .call:
            routing = platforms.contains(.apnsVoip) ? """
                AND (r.platform = '\(voip)' OR NOT EXISTS (SELECT 1 FROM registrations v
                     WHERE v.account = r.account AND v.device_id = r.device_id AND v.platform = '\(voip)'))
                """ : ""
        }
        // The covering index `registrations_by_account_platform` answers the rest, one search per
        // account: the unary `+` keeps SQLite from searching once per (account, enabled platform),
        // which took twice as long with five platforms enabled.
        return """
            INSERT INTO recipient_chunks (provider, notification, part, registrations, remaining, created_at, expires_at)
            SELECT provider, ?1, 0, group_concat(id, '\(RecipientChunks.separator)'), count(*), ?2, ?3
            FROM (SELECT r.id AS id, CASE r.platform \(providerOf) END AS provider
                  FROM registrations r
                  WHERE r.account IN (\(subscribedAccounts(topics: topics)))
                    AND +r.platform IN (\(enabled))
                    AND r.account IS NOT ?4
                    AND NOT (r.account IS ?5 AND r.device_id IS ?6)
                    \(routing))
            GROUP BY provider
            """
    }

    /// Topics the statement takes as a compound of one index search each; past this many, as a
    /// `VALUES` table (SQLite allows 500 terms in a compound `SELECT`).
    static let compoundTopics = 32

    /// The accounts subscribed to any of `topics` topics, a (spaceKey, topic) pair each from ?7.
    /// Up to `compoundTopics`, a `UNION ALL` of searches: a `VALUES` table joined to the index costs
    /// SQLite an ephemeral table per Notify. Never `(spaceKey, topic) IN (VALUES …)`, which made
    /// SQLite scan the whole subscriptions index (21 ms per Notify beside 200k other subscriptions).
    private static func subscribedAccounts(topics: Int) -> String {
        // Numbered throughout: a bare `?` would take the number after the largest one parsed so far.
        let pairs = (0..<topics).map { (space: "?\(7 + 2 * $0)", topic: "?\(8 + 2 * $0)") }
        guard topics > compoundTopics else {
            return pairs.map { "SELECT s.account FROM subscriptions s WHERE s.space_key = \($0.space) AND s.topic = \($0.topic)" }
                .joined(separator: " UNION ALL ")
        }
        let values = pairs.map { "(\($0.space), \($0.topic))" }.joined(separator: ", ")
        return "SELECT s.account FROM (VALUES \(values)) v JOIN subscriptions s ON s.space_key = v.column1 AND s.topic = v.column2"
    }
}
