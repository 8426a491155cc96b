import Foundation
import PushProtocol

/// One result row of either SQL store, read by column index: what lets SQLite and PostgreSQL map
/// their rows in one place where the two dialects agree (the columns are named alike on both).
package protocol StoreRow {
    func isNull(_ column: Int32) -> Bool
    func text(_ column: Int32) -> String
    func int64(_ column: Int32) -> Int64
    func bytes(_ column: Int32) throws -> [UInt8]
    /// A boolean expression's value (SQLite answers 0 or 1, PostgreSQL `t` or `f`).
    func bool(_ column: Int32) -> Bool
}

extension StoreRow {
    func int(_ column: Int32) -> Int { Int(int64(column)) }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }
    func optionalBytes(_ column: Int32) throws -> [UInt8]? { isNull(column) ? nil : try bytes(column) }
    /// A time column (unix milliseconds).
    func date(_ column: Int32) -> Date { Date(unixMilliseconds: int64(column)) }
}

/// The column lists the SQL stores read and write alike.
enum StoreColumns {
    /// A registration's columns, in `Registration(row:offset:)` order.
    static let registration = "id, account, device_id, platform, token, p256dh, auth, app_id, environment, created_at, updated_at"
    /// The same with its last outcome and delivery, in `Registration(row:withOutcome: true)` order.
    static let registrationWithOutcome = registration + ", last_delivery_at, last_outcome"

    /// What a claim reads per due outbox row of one provider (`ClaimRow(row:nowMs:)`), oldest due
    /// first: the row, its notification, and its registration if it still exists. Each dialect
    /// appends its WHERE (provider, due by), ORDER BY and LIMIT.
    static let claim = """
        SELECT o.id, o.attempts, o.created_at, o.expires_at,
               n.id, n.kind, n.key_id, n.payload, n.signature, n.group_id, n.created_at, n.expires_at,
               r.id IS NOT NULL, \(registration.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
        FROM outbox o
        JOIN notifications n ON n.seq = o.notification
        LEFT JOIN registrations r ON r.id = o.registration
        """
}

extension Registration {
    /// Reads a registration from columns `offset…offset+10` in `StoreColumns.registration` order, and
    /// with `withOutcome` its last delivery and outcome from the two after.
    init(row: some StoreRow, offset: Int32 = 0, withOutcome: Bool = false) throws {
        let platformName = row.text(offset + 3)
        guard let platform = Platform(rawValue: platformName) else {
            throw StoreError.corruptRecord("unknown platform \(platformName)")
        }
        let address = DeliveryAddress(platform: platform, token: row.text(offset + 4), p256dh: try row.optionalBytes(offset + 5),
                                      auth: try row.optionalBytes(offset + 6), appId: row.text(offset + 7),
                                      environment: row.text(offset + 8))
        self.init(id: row.text(offset), account: row.text(offset + 1), deviceId: row.text(offset + 2), address: address,
                  createdAt: row.date(offset + 9), updatedAt: row.date(offset + 10))
        if withOutcome {
            lastDeliveryAt = row.optionalInt64(offset + 11).map { Date(unixMilliseconds: $0) }
            lastOutcome = row.optionalText(offset + 12)
        }
    }
}

/// One row of `StoreColumns.claim`: a live delivery to hand out, or a row to drop because its ttl
/// passed or its registration is gone.
enum ClaimRow {
    case live(OutboxEntry)
    case expired(Int64)
    case orphaned(Int64)

    var id: Int64 {
        switch self {
        case .live(let entry): entry.id
        case .expired(let id), .orphaned(let id): id
        }
    }

    init(row: some StoreRow, nowMs: Int64) throws {
        let id = row.int64(0)
        let expiresAt = row.int64(3)
        if expiresAt <= nowMs {
            self = .expired(id)
            return
        }
        if !row.bool(12) {
            self = .orphaned(id)
            return
        }
        guard let kind = NotifyKind(rawValue: row.text(5)) else {
            throw StoreError.corruptRecord("unknown kind \(row.text(5))")
        }
        let notification = NotificationRecord(
            id: row.text(4), kind: kind, keyId: row.optionalText(6), payload: try row.optionalBytes(7),
            signature: try row.optionalBytes(8), groupId: row.optionalText(9), createdAt: row.date(10), expiresAt: row.date(11))
        self = .live(OutboxEntry(id: id, attempts: row.int(1) + 1, createdAt: row.date(2), expiresAt: row.date(3),
                                 notification: notification, registration: try Registration(row: row, offset: 13)))
    }
}
