import Foundation
import PushProtocol

extension SQLiteStore {
    /// Withdraws what `supersession` names (the caller's earlier deliveries of the group to its
    /// devices, claimed ones too) inside the caller's transaction; returns how many rows went.
    /// Rows whose registration is gone are left to `claimDue`, which drops them anyway.
    static func supersede(_ supersession: Supersession, caller: String, db: SQLiteConnection) throws -> Int {
        guard !supersession.devices.isEmpty else { return 0 }
        // Unclaimed deliveries of the group become outbox rows first, so one rule withdraws all.
        try expandChunks(where: groupChunks, [.text(caller), .text(supersession.groupId)], upTo: .max, nowMs: .max, db: db)
        let rows = try db.query("""
            SELECT o.id, r.account, r.device_id
            FROM notifications n
            JOIN outbox o ON o.notification = n.seq
            JOIN registrations r ON r.id = o.registration
            WHERE n.caller = ? AND n.group_id = ?
            """, [.text(caller), .text(supersession.groupId)]) { row in
            (id: row.int64(0), device: DeviceRef(account: row.text(1), deviceId: row.text(2)))
        }
        var withdrawn = 0
        for row in rows where supersession.devices.contains(row.device) {
            try deleteEntry(row.id, outcome: .superseded, at: 0, db: db)
            withdrawn += 1
        }
        return withdrawn
    }

    /// The chunks of the caller's (?1) notifications of a group (?2), for `expandChunks`.
    static let groupChunks = "\(RecipientChunks.everyProvider) AND notification IN (SELECT seq FROM notifications WHERE caller = ? AND group_id = ?)"

    /// Records `key` for `caller` unless it was accepted at or after `since`: nil when recorded (or
    /// there is no key), else the first notification's id. One statement when the key is new; a
    /// record older than the window (still there until the next purge) is replaced.
    static func claimKey(_ key: IdempotencyKey?, caller: String, notification: NotificationRecord, since: Date,
                         db: SQLiteConnection) throws -> String? {
        guard let key else { return nil }
        let recorded = try db.run("""
            INSERT INTO idempotency (caller, key, notification_id, created_at) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (caller, key) DO UPDATE SET notification_id = excluded.notification_id, created_at = excluded.created_at
            WHERE idempotency.created_at < ?5
            """, [.text(caller), .blob(key.bytes), .text(notification.id), .integer(notification.createdAt.unixMilliseconds),
                  .integer(since.unixMilliseconds)])
        if recorded > 0 { return nil }
        return try accepted(caller: caller, key: key, since: since, db: db)
    }

    /// Logs an accepted notification for its status query (PROTOCOL §4.4), deliveries or not, with
    /// the `seq` of its stored row when it queued deliveries (what the status reads them by).
    static func logAccepted(_ notification: NotificationRecord, caller: String, seq: Int64?, db: SQLiteConnection) throws {
        try db.run("INSERT OR REPLACE INTO notification_log (id, caller, created_at, seq) VALUES (?, ?, ?, ?)",
                   [.text(notification.id), .text(caller), .integer(notification.createdAt.unixMilliseconds), seq.map { .integer($0) } ?? .null])
    }

    /// Inserts the notification with `pending` rows to come; returns its seq.
    static func insertNotification(_ notification: NotificationRecord, caller: String, pending: Int,
                                   db: SQLiteConnection) throws -> Int64 {
        try db.run("""
            INSERT INTO notifications (id, kind, key_id, payload, signature, group_id, created_at, expires_at, pending, caller)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(notification.id), .text(notification.kind.rawValue), .optionalText(notification.keyId),
                  .optionalBlob(notification.payload), .optionalBlob(notification.signature),
                  .optionalText(notification.groupId), .integer(notification.createdAt.unixMilliseconds),
                  .integer(notification.expiresAt.unixMilliseconds), .int(pending), .text(caller)])
        return db.lastInsertRowID
    }
}
