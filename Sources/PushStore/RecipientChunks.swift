import PushProtocol

/// The unclaimed part of a notification's fan-out, as the durable stores keep it.
///
/// A Notify's recipients are resolved when it is accepted (`200` = durably queued, and the
/// recipient set is fixed then), but they are not written as one outbox row each: the accepting
/// transaction stores them as a few `recipient_chunks` rows, each holding up to `capacity`
/// registration ids of one provider, comma-separated. A claim expands a chunk's first ids into
/// ordinary outbox rows (`expand`, in the claiming transaction) and keeps or deletes the rest, so
/// at fan-out 200 a Notify writes one row instead of 200, and every later rule (leases, retries,
/// expiry, orphans, outcomes) sees outbox rows only. Expanded rows are due at the notification's
/// creation, so fresh deliveries and retries keep their oldest-due-first order.
///
/// A chunk row is keyed by (provider, notification, part): one B-tree serves a claim (a provider's
/// chunks, oldest notification first) and the lookups by notification (withdrawal, the status),
/// which search it once per provider (`everyProvider`).
///
/// This type is the one home of the chunk text's format and of how ids are split into chunks;
/// the stores' SQL builds the same text with `group_concat`/`string_agg` over `capacity`-row groups.
package enum RecipientChunks {
    /// Most registration ids one chunk row holds: ~8.4 KB of text at 32-character ids, so a
    /// claim rewrites at most that much of a chunk it takes part of.
    package static let capacity = 256

    /// The separator between ids; registration ids never contain it (PROTOCOL: 32 lowercase hex).
    package static let separator: Character = ","

    /// One chunk to store: ids of one provider, at most `capacity` of them.
    package struct Chunk: Sendable, Equatable {
        package var provider: Provider
        /// Its place among the notification's chunks of `provider`, from 0.
        package var part: Int
        package var registrations: String
        package var count: Int
    }

    /// `deliveries` as chunks: grouped by provider (in `Provider.allCases` order), `capacity` ids each.
    package static func chunks(of deliveries: [Delivery]) -> [Chunk] {
        var byProvider: [Provider: [String]] = [:]
        for delivery in deliveries { byProvider[delivery.provider, default: []].append(delivery.registrationId) }
        var chunks: [Chunk] = []
        for provider in Provider.allCases {
            guard let ids = byProvider[provider] else { continue }
            var start = 0
            while start < ids.count {
                let end = min(start + capacity, ids.count)
                chunks.append(Chunk(provider: provider, part: start / capacity,
                                    registrations: ids[start..<end].joined(separator: String(separator)), count: end - start))
                start = end
            }
        }
        return chunks
    }

    /// The SQL condition naming every provider, `provider IN ('apns', …)` (the same in both dialects):
    /// with it, a condition on the notification alone searches the chunks' key once per provider
    /// instead of scanning the table.
    package static let everyProvider = "provider IN (" + Provider.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"

    /// Splits a stored chunk text: its first `room` ids, and the text of the rest ("" when none is left).
    package static func take(_ room: Int, from registrations: String) -> (taken: [String], rest: String) {
        guard room > 0, !registrations.isEmpty else { return ([], registrations) }
        var taken: [String] = []
        taken.reserveCapacity(min(room, capacity))
        var index = registrations.startIndex
        while index < registrations.endIndex, taken.count < room {
            let end = registrations[index...].firstIndex(of: separator) ?? registrations.endIndex
            taken.append(String(registrations[index..<end]))
            index = end < registrations.endIndex ? registrations.index(after: end) : end
        }
        return (taken, String(registrations[index...]))
    }
}
